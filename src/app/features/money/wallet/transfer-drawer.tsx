import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { walletTransform, walletTransformCalculate, type TransformQuote, type WalletBalanceItem } from '../../../../shared/api/wallet';
import { ErrorCode } from '../../../../shared/errors/catalogue';
import { parseTransferAmount, transferAmountUnit, TransferType } from '../../../../shared/money/transfer-quote';
import { newIdempotencyKey, RequestError } from '../../../api/http-client';
import { useApp } from '../../../app-context';
import { Dialog } from '../../../components/dialog';
import { TextField } from '../../../components/text-field';
import { showToast } from '../../../components/toasts';
import { useBrandFormat } from '../../../format/use-brand-format';
import '../../../styles/money.css';

/** The quote is asked again this often while the amount is valid: the price moves, and the confirmed quote must still hold. */
const requoteMs = 1_000;

/**
 * The transfer drawer of one currency: in (the wallet's currency into the trading cash)
 * or out (trading cash into the wallet). The live quote shows the fee and what arrives;
 * confirming sends that quote, and the server refuses it if the price moved meanwhile
 * (1033, with the new quote, shown for a second confirmation). One Idempotency-Key per
 * confirmation, kept when the call failed without an answer so that trying again cannot
 * move the money twice.
 */
export function TransferDrawer(props: { item: WalletBalanceItem; type: TransferType; available: string | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const { item, type } = props;
  const [num, setNum] = useState('');
  // A quote belongs to the amount it was asked for: a changed amount shows none until its own arrives.
  const [quoted, setQuoted] = useState<{ num: string; quote: TransformQuote } | null>(null);
  const [busy, setBusy] = useState(false);
  const pendingKey = useRef<string | null>(null);
  const valid = parseTransferAmount(num) !== null;
  const typed = num.trim() !== '' && !/^0*(\.0*)?$/.test(num.trim());
  const leaves = type === TransferType.in ? item.unit : 'USD';
  const arrives = type === TransferType.in ? 'USD' : item.unit;
  const body = { curr: item.currency, currId: item.currencyId, type, num: num.trim() };
  const quote = valid && quoted?.num === body.num ? quoted.quote : null;

  useEffect(() => {
    if (!valid) return;
    let stopped = false;
    const ask = () => {
      http
        .call(walletTransformCalculate, body, { silent: true })
        .then((next) => !stopped && setQuoted({ num: body.num, quote: next }))
        .catch(() => undefined);
    };
    ask();
    const timer = window.setInterval(ask, requoteMs);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
    // The body is derived from these.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [http, num, type, item.currencyId, valid]);

  async function confirm() {
    // An empty or zero amount does nothing (the spec).
    if (!valid || !quote || busy) return;
    setBusy(true);
    pendingKey.current ??= newIdempotencyKey();
    try {
      await http.call(walletTransform, { ...body, ...quote, unit: transferAmountUnit(body.type, body.curr) }, { idempotencyKey: pendingKey.current, silent: true });
      pendingKey.current = null;
      showToast('success', t('wallet.transfer_done'));
      props.onDone();
      props.onClose();
    } catch (error) {
      if (error instanceof RequestError && error.failure.kind === 'code') {
        // Answered: a new confirmation is a new action.
        pendingKey.current = null;
        const moved = error.failure.code === ErrorCode.TRY_AGAIN_LATER && isQuote(error.failure.data);
        if (moved) setQuoted({ num: body.num, quote: error.failure.data as TransformQuote });
      }
      if (error instanceof RequestError) http.report(error.failure);
    } finally {
      setBusy(false);
    }
  }

  const title = t(type === TransferType.in ? 'wallet.transfer_in_title' : 'wallet.transfer_out_title', { unit: item.unit });
  return (
    <Dialog
      title={title}
      onClose={props.onClose}
      footer={
        <button type="button" className="button primary" disabled={!valid || !quote || busy} onClick={() => void confirm()} data-testid="transfer-confirm">
          {t('common.confirm')}
        </button>
      }
    >
      <div className="transfer-form">
        <TextField
          label={t('wallet.amount_in', { unit: leaves })}
          value={num}
          onChange={setNum}
          inputMode="decimal"
          maxLength={21}
          inputClassName="numeric"
          placeholder="0.0000"
          error={typed && !valid ? t('wallet.amount_invalid') : null}
        />
        {props.available !== null ? <p className="transfer-available numeric">{t('wallet.available', { amount: format.amount(props.available), unit: leaves })}</p> : null}
        <dl className="balance-lines numeric" aria-live="polite">
          <div>
            <dt>{t('wallet.fee')}</dt>
            <dd data-testid="transfer-fee">{quote ? `${quote.fee} ${leaves}` : '—'}</dd>
          </div>
          <div>
            <dt>{t('wallet.practical')}</dt>
            <dd data-testid="transfer-practical">{quote ? `${quote.practical} ${arrives}` : '—'}</dd>
          </div>
        </dl>
      </div>
    </Dialog>
  );
}

function isQuote(value: unknown): value is TransformQuote {
  return typeof value === 'object' && value !== null && 'fee' in value && 'practical' in value;
}
