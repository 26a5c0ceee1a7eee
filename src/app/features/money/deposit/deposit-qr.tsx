import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The address drawn as an SVG QR code (a data URL); the QR library loads only when a deposit address shows. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

/**
 * The deposit address as a QR code a wallet app scans. Always dark modules on white (a
 * scanner needs the contrast in dark mode too); nothing shows until it is drawn, and an
 * address changed meanwhile never shows the old one's code.
 */
export function DepositQrCode(props: { address: string; network: string }) {
  const { t } = useTranslation();
  const [drawn, setDrawn] = useState<{ address: string; source: string } | null>(null);
  useEffect(() => {
    let stopped = false;
    qrCodeDataUrl(props.address)
      .then((source) => !stopped && setDrawn({ address: props.address, source }))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [props.address]);
  const source = drawn?.address === props.address ? drawn.source : null;
  return (
    <div className="deposit-qr" data-testid="deposit-qr">
      {source ? <img src={source} alt={t('deposit.qr_alt', { network: props.network })} width={168} height={168} /> : null}
    </div>
  );
}
