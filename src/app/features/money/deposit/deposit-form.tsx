import { useSignals } from '@preact/signals-react/runtime';
import { useId, useRef, useState } from 'react';
import { usePickedImage } from '../../../components/picked-image';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { depositOverMaximum, depositSubmit } from '../../../../shared/api/deposit';
import { ErrorCode } from '../../../../shared/errors/catalogue';
import { newIdempotencyKey, RequestError } from '../../../api/http-client';
import { uploadPartNames } from '../../../../shared/api/uploads';
import { depositAmountDecimals, depositAmountProblem, depositAmountProblemKeys, minimumDepositUsd } from '../../../../shared/money/deposit-rules';
import { imageAccept } from '../../../../shared/uploads/image-rules';
import { switchesSignal, useApp } from '../../../app-context';
import { useBrandFormat } from '../../../format/use-brand-format';
import { Checkbox } from '../../../components/checkbox';
import { copyText } from '../../../components/copy-text';
import { TextField } from '../../../components/text-field';
import { showToast } from '../../../components/toasts';
import { DepositQrCode } from './deposit-qr';
import { keepDraftForAgreement, takeDraft, type DepositDraft } from './deposit-draft';
import { ImageRefusedError, prepareImage } from './prepare-image';
import '../../../styles/money.css';

/** A coin network customers pay into (wallet/coinNetworks' dtoList entry). */
export interface DepositCoinOption {
  id: number;
  currency: string;
  protocol: string;
  address: string;
  said: string;
  logoUrl: string;
}

/** The most one deposit may be worth (USD), from a refusal over the maximum (1075); null for any other failure. */
function refusedMaximumUsd(error: unknown): string | null {
  if (!(error instanceof RequestError) || error.failure.kind !== 'code' || error.failure.code !== ErrorCode.DEPOSIT_OVER_MAXIMUM) return null;
  const data = depositOverMaximum.safeParse(error.failure.data);
  return data.success ? data.data.maxUsd : null;
}

const emptyDraft: DepositDraft = { step: 1, method: 0, coinId: null, amount: '', agreed: false };

/** Digits and one dot, at most 5 decimals, as typed. */
function typedAmount(value: string): string {
  const cleaned = value.replace(/[^\d.]/g, '');
  const [whole = '', ...rest] = cleaned.split('.');
  return rest.length === 0 ? whole : `${whole}.${rest.join('').slice(0, depositAmountDecimals)}`;
}

/**
 * The deposit form (specification: two steps). Step one: the method — a crypto address
 * (type 0) or a bank/fiat transfer (type 1), which goes through customer service — and the
 * coin network with its address (as text with a copy button, and as a QR code) and the
 * minimum the server holds the customer's language to. Step two: the amount, the proof image (HEIC converted,
 * large images compressed in the browser) and the agreement, then Done; success starts over.
 */
export function DepositForm(props: { coins: readonly DepositCoinOption[] }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState<DepositDraft>(() => takeDraft() ?? emptyDraft);
  const [proof, setProof] = useState<File | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<{ amount?: string; proof?: string; agreement?: string }>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const previewUrl = usePickedImage(proof);
  const pickerId = useId();
  // One key per deposit the customer means: a retried Done after a lost answer is the same deposit.
  const idempotencyKey = useRef(newIdempotencyKey());

  const coin = props.coins.find((option) => option.id === draft.coinId) ?? props.coins[0] ?? null;
  const update = (change: Partial<DepositDraft>) => setDraft((current) => ({ ...current, ...change }));

  async function pick(file: File | undefined) {
    if (!file) return;
    setPreparing(true);
    try {
      setProof(await prepareImage(file));
      setErrors((current) => ({ ...current, proof: undefined }));
    } catch (error) {
      setProof(null);
      const key = error instanceof ImageRefusedError ? error.messageKey : 'upload.illegal_extension';
      setErrors((current) => ({ ...current, proof: t(key) }));
    } finally {
      setPreparing(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  async function submit() {
    const problem = depositAmountProblem(draft.amount);
    const found = {
      amount: problem ? t(depositAmountProblemKeys[problem]) : undefined,
      proof: proof ? undefined : t('deposit.upload_proof'),
      agreement: draft.agreed ? undefined : t('deposit.read_agreement'),
    };
    setErrors(found);
    if (found.amount || found.proof || found.agreement || !coin || !proof) return;
    setSubmitting(true);
    try {
      await http.call(
        depositSubmit,
        { coinId: coin.id, amt: draft.amount.trim(), said: coin.said, locale: i18n.language },
        { files: { [uploadPartNames.depositProof]: proof }, idempotencyKey: idempotencyKey.current, silent: true },
      );
      showToast('success', t('deposit.submitted'));
      idempotencyKey.current = newIdempotencyKey();
      setProof(null);
      setErrors({});
      setDraft(emptyDraft);
    } catch (error) {
      // Over the maximum: said at the amount, with the figure, where it stays while the customer corrects it
      // (a toast would hide the maximum after a moment, and the button under it on a small phone).
      const maxUsd = refusedMaximumUsd(error);
      if (maxUsd !== null) setErrors((current) => ({ ...current, amount: t('deposit.over_maximum', { amount: format.amount(maxUsd) }) }));
      else if (error instanceof RequestError) http.report(error.failure);
      // The form keeps what they entered.
    } finally {
      setSubmitting(false);
    }
  }

  function openAgreement() {
    keepDraftForAgreement(draft);
    navigate('/user/agreement');
  }

  if (draft.step === 1) {
    return (
      <div className="deposit-form" data-testid="deposit-step-1">
        <div className="segmented" role="group">
          {([0, 1] as const).map((method) => (
            <button key={method} type="button" aria-pressed={draft.method === method} onClick={() => update({ method })}>
              {t(method === 0 ? 'deposit.method_crypto' : 'deposit.method_bank')}
            </button>
          ))}
        </div>
        {draft.method === 1 ? (
          <div className="deposit-bank">
            <p>{t('deposit.bank_contact')}</p>
            {switchesSignal.value['user/service'] ? (
              <Link href="/user/service" className="button primary">
                {t('deposit.contact_service')}
              </Link>
            ) : null}
          </div>
        ) : props.coins.length === 0 ? (
          <p className="empty-state">{t('deposit.no_coins')}</p>
        ) : (
          <>
            <label className="field">
              <span className="field-label">{t('deposit.choose_coin')}</span>
              <select className="field-input" value={coin?.id ?? ''} onChange={(event) => update({ coinId: Number(event.target.value) })} data-testid="deposit-coin">
                {props.coins.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.currency} · {option.protocol}
                  </option>
                ))}
              </select>
            </label>
            {coin ? (
              <div className="deposit-address-card">
                <DepositQrCode address={coin.address} network={`${coin.currency} · ${coin.protocol}`} />
                <div className="deposit-address">
                  <span className="field-label">{t('deposit.address')}</span>
                  <code className="numeric" data-testid="deposit-address">
                    {coin.address}
                  </code>
                  <button type="button" className="link-button" onClick={() => void copyText(coin.address, { copied: t('deposit.copied'), failed: t('user.copy_failed') })}>
                    {t('deposit.copy')}
                  </button>
                </div>
              </div>
            ) : null}
            <p className="field-hint" data-testid="deposit-minimum">
              {t('deposit.minimum_hint', { amount: minimumDepositUsd(i18n.language) })}
            </p>
            <button type="button" className="button primary block" onClick={() => update({ step: 2, coinId: coin?.id ?? null })}>
              {t('deposit.next')}
            </button>
          </>
        )}
      </div>
    );
  }

  return (
    <div className="deposit-form" data-testid="deposit-step-2">
      <p className="deposit-coin-line">
        {coin ? `${coin.currency} · ${coin.protocol}` : ''}{' '}
        <button type="button" className="link-button" onClick={() => update({ step: 1 })}>
          {t('deposit.back')}
        </button>
      </p>
      <TextField
        label={t('deposit.amount')}
        value={draft.amount}
        onChange={(value) => update({ amount: typedAmount(value) })}
        inputMode="decimal"
        placeholder={t('deposit.amount_placeholder')}
        inputClassName="numeric"
        error={errors.amount}
      />
      <p className="field-hint">{t('deposit.minimum_hint', { amount: minimumDepositUsd(i18n.language) })}</p>
      <div className="field">
        <label className="field-label" htmlFor={pickerId}>
          {t('deposit.proof')}
        </label>
        <input id={pickerId} ref={fileInput} type="file" accept={imageAccept} className="visually-hidden" onChange={(event) => void pick(event.target.files?.[0])} data-testid="deposit-proof-input" />
        <button type="button" className="deposit-proof" onClick={() => fileInput.current?.click()} disabled={preparing}>
          {previewUrl ? <img src={previewUrl} alt={t('deposit.proof')} /> : <span>{preparing ? t('deposit.processing') : t('deposit.proof_pick')}</span>}
        </button>
        {proof ? <span className="field-hint">{t('deposit.proof_change')}</span> : null}
        {/* The specification's warning on file pickers, as the verification and avatar pickers give it. */}
        <span className="field-hint" data-testid="deposit-camera-warning">
          {t('notice.native_camera_first')}
        </span>
        {errors.proof ? (
          <p className="field-error" role="alert">
            {errors.proof}
          </p>
        ) : null}
      </div>
      <div className="deposit-agreement">
        <Checkbox label={t('deposit.agreement_read')} checked={draft.agreed} onChange={(agreed) => update({ agreed })} />{' '}
        <button type="button" className="link-button" onClick={openAgreement}>
          {t('deposit.agreement_link')}
        </button>
        {errors.agreement ? (
          <p className="field-error" role="alert">
            {errors.agreement}
          </p>
        ) : null}
      </div>
      <button type="button" className="button primary block" disabled={submitting || preparing} onClick={() => void submit()} data-testid="deposit-done">
        {t('deposit.done')}
      </button>
    </div>
  );
}
