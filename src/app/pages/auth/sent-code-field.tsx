import { useTranslation } from 'react-i18next';
import { CodeInput } from './code-input';
import type { CodeDelivery } from './use-code-delivery';
import type { FieldBinding } from './use-field-errors';

/** "Resend in N s" while the countdown runs, then a link-like button that sends again. */
export function ResendCode(props: { secondsLeft: number; sending: boolean; onResend: () => void }) {
  const { t } = useTranslation();
  return (
    <p className="auth-resend" aria-live="polite">
      {props.secondsLeft > 0 ? (
        <span className="auth-hint">{t('auth.resend_in', { seconds: props.secondsLeft })}</span>
      ) : (
        <button type="button" className="link-button" disabled={props.sending} onClick={props.onResend}>
          {t('auth.resend')}
        </button>
      )}
    </p>
  );
}

/** Step 2's code, the one sent to the contact, with the resend link under it. */
export function SentCodeField(props: { value: string; field: FieldBinding<string>; delivery: CodeDelivery }) {
  const { t } = useTranslation();
  const { delivery } = props;
  return (
    <>
      <CodeInput label={t('auth.verification_code')} value={props.value} autoFocus {...props.field} />
      <ResendCode secondsLeft={delivery.resendSecondsLeft} sending={delivery.submitting} onResend={delivery.resend} />
    </>
  );
}
