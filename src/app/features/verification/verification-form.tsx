import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState } from 'react';
import { useVerificationData } from './use-verification-data';
import { useTranslation } from 'react-i18next';
import {
  idTypes,
  verificationFieldMax,
  verificationFieldProblem,
  verificationGet,
  verificationMessageKeys,
  verificationPartNames,
  verificationSubmit,
  VerifiedStatus,
} from '../../../shared/api/verification';
import { newIdempotencyKey } from '../../api/http-client';
import { switchesSignal, useApp } from '../../app-context';
import { TextField } from '../../components/text-field';
import { showToast } from '../../components/toasts';
import { VerificationImagePicker } from './image-picker';
import { verificationFormState } from './verification-status';
import { AlreadyVerified } from './verified-screen';
import '../../styles/money.css';

type ImagePart = keyof typeof verificationPartNames;
const imageParts: readonly ImagePart[] = ['front', 'reverse', 'avatar'];
type Errors = Partial<Record<'realName' | 'idCard' | 'authEmail' | ImagePart, string>>;

/**
 * The full identity verification (`/user/verified`): real name and document number, the
 * document type and e-mail when the brand asks for them (twoTypeVerified, addVerifiedEmail),
 * and three images (front, back, a selfie with the document). Status 0 asks for all three;
 * 1 (authenticating) and 3 (failed, with the reason) keep the earlier images until others
 * are picked and may be resubmitted; 2 shows the already-verified screen (verifiedScreen).
 */
export function VerificationForm() {
  useSignals();
  const { t, i18n } = useTranslation();
  const { http } = useApp();
  const switches = switchesSignal.value;
  const [realName, setRealName] = useState('');
  const [idCard, setIdCard] = useState('');
  const [idType, setIdType] = useState<number>(0);
  const [authEmail, setAuthEmail] = useState('');
  const [images, setImages] = useState<Partial<Record<ImagePart, File>>>({});
  const [preparing, setPreparing] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  // One key per submission the customer means: a retried Done after a lost answer is the same submission.
  const idempotencyKey = useRef(newIdempotencyKey());

  const { data, reload } = useVerificationData(() => http.call(verificationGet, {}), (next) => {
    setRealName(next.realName);
    setIdType(next.idType);
    setAuthEmail(next.authEmail);
  });

  const status = data?.verifiedStatus ?? VerifiedStatus.notLoaded;
  const state = verificationFormState(status);
  const keptUrlOf = (part: ImagePart) => data?.[verificationPartNames[part]] ?? null;
  const keptOf = (part: ImagePart) => keptUrlOf(part) !== null;

  if (status === VerifiedStatus.authenticated && switches.verifiedScreen && data) return <AlreadyVerified realName={data.realName} idCard={data.idCard} />;

  async function submit() {
    const found: Errors = {};
    const problem = verificationFieldProblem({ realName, idCard, authEmail }, switches.addVerifiedEmail);
    if (problem) found[problem] = t(verificationMessageKeys[problem]);
    for (const part of imageParts) if (!images[part] && !keptOf(part)) found[part] = t(verificationMessageKeys[part]);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    try {
      const files: Record<string, File> = {};
      for (const part of imageParts) {
        const file = images[part];
        if (file) files[verificationPartNames[part]] = file;
      }
      await http.call(
        verificationSubmit,
        { realName, idCard, authEmail: switches.addVerifiedEmail ? authEmail : '', idType: switches.twoTypeVerified ? (idType as 0 | 1 | 2) : 0, locale: i18n.language },
        { files, idempotencyKey: idempotencyKey.current },
      );
      idempotencyKey.current = newIdempotencyKey();
      showToast('success', t('verify.submitted'));
      setImages({});
      setIdCard('');
      reload();
    } catch {
      // The request client told the customer; the form keeps what they entered.
    } finally {
      setSubmitting(false);
    }
  }

  const disabled = !state.editable || submitting;
  return (
    <div className="deposit-form verify-form" data-testid="verify-form" data-status={status}>
      <p className="field-hint">{t('verify.intro_full')}</p>
      {status === VerifiedStatus.failed && data?.failReason ? (
        <p className="field-error" role="alert" data-testid="verify-fail-reason">
          {t('verify.status_failed', { reason: data.failReason })}
        </p>
      ) : null}
      {status === VerifiedStatus.authenticating ? <p className="verify-pending">{t('verify.status_authenticating_hint')}</p> : null}
      <TextField label={t('verify.real_name')} value={realName} onChange={setRealName} maxLength={verificationFieldMax} placeholder={t('verify.real_name_placeholder')} disabled={disabled} error={errors.realName} />
      {switches.twoTypeVerified ? (
        <label className="field">
          <span className="field-label">{t('verify.id_type')}</span>
          <select className="field-input" value={idType} disabled={disabled} onChange={(event) => setIdType(Number(event.target.value))} data-testid="verify-id-type">
            {idTypes.map((type) => (
              <option key={type} value={type}>
                {t(`verify.id_type_${type}`)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <TextField
        label={t('verify.id_card')}
        value={idCard}
        onChange={setIdCard}
        maxLength={verificationFieldMax}
        placeholder={data?.idCard || t('verify.id_card_placeholder')}
        disabled={disabled}
        error={errors.idCard}
        autoComplete="off"
      />
      {switches.addVerifiedEmail ? (
        <TextField label={t('verify.auth_email')} value={authEmail} onChange={setAuthEmail} type="email" inputMode="email" maxLength={verificationFieldMax} placeholder={t('verify.auth_email_placeholder')} disabled={disabled} error={errors.authEmail} />
      ) : null}
      <div className="verify-images">
        {imageParts.map((part) => (
          <VerificationImagePicker
            key={part}
            label={t(`verify.${part}`)}
            file={images[part] ?? null}
            keptUrl={keptUrlOf(part)}
            disabled={disabled}
            error={errors[part]}
            testId={`verify-${part}-input`}
            onPicked={(file) => {
              setImages((current) => ({ ...current, [part]: file }));
              setErrors((current) => ({ ...current, [part]: undefined }));
            }}
            onPreparing={(busy) => setPreparing((count) => count + (busy ? 1 : -1))}
          />
        ))}
      </div>
      <p className="field-hint">{t('notice.native_camera_first')}</p>
      {state.editable || state.loading ? (
        <button type="button" className="button primary block" disabled={disabled || preparing > 0} onClick={() => void submit()} data-testid="verify-done">
          {t(state.buttonKey)}
        </button>
      ) : (
        <p className="verify-pending">{t('verify.verified_title')}</p>
      )}
    </div>
  );
}
