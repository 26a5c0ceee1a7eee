import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../app/components/text-field';
import { staffLoginCode } from '../../shared/api/staff';
import { normalizeSignInCode, signInCodeLength } from '../../shared/auth/sign-in-code';
import { isValidEmail, isValidVerificationCode, passwordMaxLength } from '../../shared/auth/validation';
import { ErrorCode } from '../../shared/errors/catalogue';
import { StaffRequestError, type StaffClient } from '../api/staff-client';

/** A sign-in the account's delay held back (1033): the e-mailed sign-in code is offered. */
function heldBack(error: unknown): boolean {
  return error instanceof StaffRequestError && error.failure.kind === 'code' && error.failure.code === ErrorCode.TRY_AGAIN_LATER;
}

/**
 * E-mail, password and the authenticator's 6-digit code: the second factor is never
 * optional for staff. While failed sign-ins from elsewhere hold the account back on a
 * browser it does not know yet, a sign-in code sent to the member's e-mail lets this one
 * through (a browser that signed in before is not held back: its device cookie).
 */
export function SignInPage(props: { client: StaffClient; onSignedIn: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [signInCode, setSignInCode] = useState('');
  /** Held back once: the sign-in code field and its e-mail button are shown. */
  const [offerCode, setOfferCode] = useState(false);
  const [codeSent, setCodeSent] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; password?: string; code?: string; signInCode?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typedSignInCode = signInCode.trim() === '' ? null : normalizeSignInCode(signInCode);
    const found = {
      email: isValidEmail(email.trim()) ? undefined : t('staff.sign_in.email_invalid'),
      password: password === '' ? t('staff.sign_in.password_required') : undefined,
      code: isValidVerificationCode(code.trim()) ? undefined : t('staff.sign_in.code_invalid'),
      signInCode: signInCode.trim() !== '' && typedSignInCode === null ? t('staff.sign_in.sign_in_code_invalid') : undefined,
    };
    setErrors(found);
    if (found.email || found.password || found.code || found.signInCode) return;
    setBusy(true);
    try {
      await props.client.signIn({ email: email.trim(), password, code: code.trim(), ...(typedSignInCode ? { signInCode: typedSignInCode } : {}) });
      props.onSignedIn();
    } catch (error) {
      // The client has told the reason (a toast with the translated code).
      if (heldBack(error)) setOfferCode(true);
      setBusy(false);
    }
  };

  const sendCode = async () => {
    if (!isValidEmail(email.trim())) return setErrors({ email: t('staff.sign_in.email_invalid') });
    setBusy(true);
    try {
      await props.client.call(staffLoginCode, { email: email.trim() });
      setCodeSent(true);
    } catch {
      // Told by the client (a wait, most likely).
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="staff-sign-in">
      <form className="staff-sign-in-card" onSubmit={(event) => void submit(event)} noValidate>
        <h1>{t('staff.sign_in.title')}</h1>
        <p className="staff-muted">{t('staff.sign_in.intro')}</p>
        <TextField label={t('staff.sign_in.email')} value={email} onChange={setEmail} type="email" autoComplete="username" inputMode="email" maxLength={254} error={errors.email} />
        <TextField label={t('staff.sign_in.password')} value={password} onChange={setPassword} type="password" autoComplete="current-password" maxLength={passwordMaxLength} error={errors.password} />
        <TextField label={t('staff.sign_in.code')} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" maxLength={6} error={errors.code} />
        {offerCode ? (
          <section className="staff-sign-in-code" aria-live="polite">
            <p className="staff-muted">{codeSent ? t('staff.sign_in.sign_in_code_sent', { email: email.trim() }) : t('staff.sign_in.sign_in_code_hint')}</p>
            <button type="button" className="button secondary" disabled={busy} onClick={() => void sendCode()}>
              {codeSent ? t('staff.sign_in.sign_in_code_resend') : t('staff.sign_in.sign_in_code_send')}
            </button>
            <TextField
              label={t('staff.sign_in.sign_in_code')}
              value={signInCode}
              onChange={(value) => setSignInCode(value.toUpperCase())}
              maxLength={signInCodeLength + 1}
              placeholder="XXXX-XXXX"
              error={errors.signInCode}
            />
          </section>
        ) : null}
        <button type="submit" className="button primary" disabled={busy}>
          {t('staff.sign_in.submit')}
        </button>
      </form>
    </main>
  );
}
