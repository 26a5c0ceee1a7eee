import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { userInfo, type UserInfo } from '../../../shared/api/account';
import { bindEmail, bindEmailSendCode } from '../../../shared/api/credentials';
import { contactMaxLength, isValidEmail, isValidVerificationCode, resendCodeAfterSeconds } from '../../../shared/auth/validation';
import { switchesSignal, useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { TextField } from '../../components/text-field';
import { showToast } from '../../components/toasts';
import { mayBindEmail } from '../../features/account/account-entries';
import { profileChanged } from '../../features/profile/use-user-info';
import '../../styles/notices.css';

/** Seconds left before another code may be asked for. */
function useResendWait() {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, [until, now]);
  return { secondsLeft: Math.max(0, Math.ceil((until - now) / 1000)), start: () => (setNow(Date.now()), setUntil(Date.now() + resendCodeAfterSeconds * 1000)) };
}

/**
 * `/user/bindEmail`: one e-mail field; a code is sent to the address, and the address is
 * bound with it (then it signs in too). Only a phone-registered account without an e-mail
 * may bind one; any other is sent back to the hub with the reason.
 */
export function BindEmailPage() {
  useSignals();
  const { t, i18n } = useTranslation();
  const { http } = useApp();
  const [, navigate] = useLocation();
  const [info, setInfo] = useState<UserInfo | null>(null);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ email?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);
  const resend = useResendWait();
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const switchOn = switchesSignal.value['user/bindEmail'];

  useEffect(() => {
    let stopped = false;
    http
      .call(userInfo, {})
      .then((answer) => {
        if (stopped) return;
        if (!mayBindEmail(answer, switchOn)) {
          showToast('info', t('credentials.bind_unavailable'));
          navigate('/user', { replace: true });
          return;
        }
        setInfo(answer);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http, navigate, switchOn, t]);

  const address = email.trim();
  // The specification: nothing to submit while the address is the one the account has.
  const unchanged = info !== null && address.toLowerCase() === info.email.toLowerCase();

  async function run(task: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    try {
      await task();
    } catch {
      // The request client has shown the server's message.
    } finally {
      setBusy(false);
    }
  }

  function sendCode(event?: FormEvent) {
    event?.preventDefault();
    if (!isValidEmail(address)) {
      setErrors({ email: 'auth.wrong_email' });
      emailRef.current?.focus();
      return;
    }
    void run(async () => {
      await http.call(bindEmailSendCode, { email: address, locale: i18n.language });
      setSentTo(address);
      setCode('');
      resend.start();
      showToast('success', t('auth.code_sent', { contact: address }));
      window.setTimeout(() => codeRef.current?.focus(), 0);
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!sentTo) return;
    if (!isValidVerificationCode(code.trim())) {
      setErrors({ code: 'auth.wrong_verification_code' });
      codeRef.current?.focus();
      return;
    }
    void run(async () => {
      await http.call(bindEmail, { email: sentTo, code: code.trim() });
      profileChanged();
      showToast('success', t('notice.update_success'));
      navigate('/user', { replace: true });
    });
  }

  if (!info) {
    return (
      <PageFrame title={t('page.bind_email')}>
        <div className="list-state" aria-busy="true">
          <span className="spinner" aria-hidden="true" />
        </div>
      </PageFrame>
    );
  }

  return (
    <PageFrame title={t('page.bind_email')}>
      {sentTo === null ? (
        <form className="auth-form credentials-form" noValidate onSubmit={sendCode}>
          <p className="auth-hint">{t('credentials.bind_intro')}</p>
          <TextField
            label={t('auth.email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={contactMaxLength}
            placeholder={t('auth.email_placeholder')}
            value={email}
            onChange={(value) => {
              setEmail(value);
              setErrors({});
            }}
            error={errors.email ? t(errors.email) : null}
            inputRef={emailRef}
          />
          <button type="submit" className="button primary auth-submit" disabled={busy || address === '' || unchanged}>
            {t('auth.send_code')}
          </button>
        </form>
      ) : (
        <form className="auth-form credentials-form" noValidate onSubmit={submit}>
          <p className="auth-hint">{t('auth.code_sent_to', { contact: sentTo })}</p>
          <TextField
            label={t('auth.verification_code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            inputClassName="numeric"
            value={code}
            onChange={(value) => {
              setCode(value.replace(/\D/g, ''));
              setErrors({});
            }}
            error={errors.code ? t(errors.code) : null}
            inputRef={codeRef}
          />
          <p className="auth-resend" aria-live="polite">
            {resend.secondsLeft > 0 ? (
              <span className="auth-hint">{t('auth.resend_in', { seconds: resend.secondsLeft })}</span>
            ) : (
              <button type="button" className="link-button" disabled={busy} onClick={() => sendCode()}>
                {t('auth.resend')}
              </button>
            )}
          </p>
          <button type="submit" className="button primary auth-submit" disabled={busy}>
            {t('credentials.bind_submit')}
          </button>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setSentTo(null);
              setCode('');
              setErrors({});
            }}
          >
            {t('credentials.change_address')}
          </button>
        </form>
      )}
    </PageFrame>
  );
}
