import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../app/components/text-field';
import { isValidEmail, isValidVerificationCode, passwordMaxLength } from '../../shared/auth/validation';
import type { StaffClient } from '../api/staff-client';

/** E-mail, password and the authenticator's 6-digit code: the second factor is never optional for staff. */
export function SignInPage(props: { client: StaffClient; onSignedIn: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      email: isValidEmail(email.trim()) ? undefined : t('staff.sign_in.email_invalid'),
      password: password === '' ? t('staff.sign_in.password_required') : undefined,
      code: isValidVerificationCode(code.trim()) ? undefined : t('staff.sign_in.code_invalid'),
    };
    setErrors(found);
    if (found.email || found.password || found.code) return;
    setBusy(true);
    try {
      await props.client.signIn({ email: email.trim(), password, code: code.trim() });
      props.onSignedIn();
    } catch {
      // The client has told the reason (a toast with the translated code).
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
        <button type="submit" className="button primary" disabled={busy}>
          {t('staff.sign_in.submit')}
        </button>
      </form>
    </main>
  );
}
