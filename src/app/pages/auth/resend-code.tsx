import { useTranslation } from 'react-i18next';

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
