import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState } from 'react';
import { useVerificationData } from './use-verification-data';
import { useTranslation } from 'react-i18next';
import {
  juniorVerificationGet,
  juniorVerificationSubmit,
  verificationFieldMax,
  verificationFieldProblem,
  verificationMessageKeys,
  VerifiedStatus,
} from '../../../shared/api/verification';
import { newIdempotencyKey } from '../../api/http-client';
import { switchesSignal, useApp } from '../../app-context';
import { TextField } from '../../components/text-field';
import { showToast } from '../../components/toasts';
import { verificationFormState } from './verification-status';
import { AlreadyVerified } from './verified-screen';
import '../../styles/money.css';

/** The junior verification (`/user/juniorVerified`): real name and document number only, the same statuses as the full form. */
export function JuniorVerificationForm() {
  useSignals();
  const { t, i18n } = useTranslation();
  const { http } = useApp();
  const switches = switchesSignal.value;
  const [realName, setRealName] = useState('');
  const [idCard, setIdCard] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<{ realName?: string; idCard?: string }>({});
  const idempotencyKey = useRef(newIdempotencyKey());

  const { data, reload } = useVerificationData(() => http.call(juniorVerificationGet, {}), (next) => {
    setRealName(next.realName);
  });

  const status = data?.verifiedStatus ?? VerifiedStatus.notLoaded;
  const state = verificationFormState(status);
  if (status === VerifiedStatus.authenticated && switches.verifiedScreen && data) return <AlreadyVerified realName={data.realName} idCard={data.idCard} />;

  async function submit() {
    const problem = verificationFieldProblem({ realName, idCard }, false);
    setErrors(problem === 'realName' || problem === 'idCard' ? { [problem]: t(verificationMessageKeys[problem]) } : {});
    if (problem) return;
    setSubmitting(true);
    try {
      await http.call(juniorVerificationSubmit, { realName, idCard, locale: i18n.language }, { idempotencyKey: idempotencyKey.current });
      idempotencyKey.current = newIdempotencyKey();
      showToast('success', t('verify.submitted'));
      setIdCard('');
      reload();
    } catch {
      // The request client told the customer.
    } finally {
      setSubmitting(false);
    }
  }

  const disabled = !state.editable || submitting;
  return (
    <div className="deposit-form verify-form" data-testid="junior-verify-form" data-status={status}>
      <p className="field-hint">{t('verify.intro_junior')}</p>
      {status === VerifiedStatus.failed && data?.failReason ? (
        <p className="field-error" role="alert">
          {t('verify.status_failed', { reason: data.failReason })}
        </p>
      ) : null}
      {status === VerifiedStatus.authenticating ? <p className="verify-pending">{t('verify.status_authenticating_hint')}</p> : null}
      <TextField label={t('verify.real_name')} value={realName} onChange={setRealName} maxLength={verificationFieldMax} placeholder={t('verify.real_name_placeholder')} disabled={disabled} error={errors.realName} />
      <TextField label={t('verify.id_card')} value={idCard} onChange={setIdCard} maxLength={verificationFieldMax} placeholder={data?.idCard || t('verify.id_card_placeholder')} disabled={disabled} error={errors.idCard} autoComplete="off" />
      {state.editable || state.loading ? (
        <button type="button" className="button primary block" disabled={disabled} onClick={() => void submit()} data-testid="junior-verify-done">
          {t(state.buttonKey)}
        </button>
      ) : (
        <p className="verify-pending">{t('verify.verified_title')}</p>
      )}
    </div>
  );
}
