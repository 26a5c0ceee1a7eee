import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../app/components/copy-text';
import { TextField } from '../../app/components/text-field';
import { isValidNewPassword, isValidVerificationCode, passwordMaxLength } from '../../shared/auth/validation';
import { staffEnrol, staffEnrolConfirm } from '../../shared/api/staff';
import type { StaffClient } from '../api/staff-client';

/** The invitation's token: the link carries it in the fragment, which no server log or Referer sees. */
function invitationToken(): string {
  return decodeURIComponent(window.location.hash.replace(/^#/, '')).trim();
}

/** The otpauth URL as an SVG QR code (a data URL); the QR library loads only on this step. */
async function qrCodeSource(otpauthUrl: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

type Step = { name: 'password' } | { name: 'authenticator'; otpauthUrl: string } | { name: 'done' };

/**
 * Enrolment from an invitation link, signed out: the new member chooses their own password,
 * adds the authenticator the server gives them (shown to them only), and confirms it with a
 * first code; then they sign in. No admin ever sees either credential.
 */
export function EnrolPage(props: { client: StaffClient; onDone: () => void }) {
  const { t } = useTranslation();
  const [token] = useState(invitationToken);
  const [step, setStep] = useState<Step>({ name: 'password' });

  if (token === '') {
    return (
      <main className="staff-sign-in">
        <section className="staff-sign-in-card">
          <h1>{t('staff.enrol.title')}</h1>
          <p className="staff-warning" role="alert">
            {t('staff.enrol.no_token')}
          </p>
        </section>
      </main>
    );
  }
  return (
    <main className="staff-sign-in">
      {step.name === 'password' ? <PasswordStep client={props.client} token={token} onDone={(otpauthUrl) => setStep({ name: 'authenticator', otpauthUrl })} /> : null}
      {step.name === 'authenticator' ? <AuthenticatorStep client={props.client} token={token} otpauthUrl={step.otpauthUrl} onDone={() => setStep({ name: 'done' })} /> : null}
      {step.name === 'done' ? (
        <section className="staff-sign-in-card">
          <h1>{t('staff.enrol.done_title')}</h1>
          <p className="staff-muted">{t('staff.enrol.done_intro')}</p>
          <button type="button" className="button primary" onClick={props.onDone}>
            {t('staff.enrol.to_sign_in')}
          </button>
        </section>
      ) : null}
    </main>
  );
}

function PasswordStep(props: { client: StaffClient; token: string; onDone: (otpauthUrl: string) => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      password: isValidNewPassword(password) ? undefined : t('staff.password.new_invalid'),
      repeat: repeat === password ? undefined : t('staff.password.repeat_mismatch'),
    };
    setErrors(found);
    if (found.password || found.repeat) return;
    setBusy(true);
    try {
      const { otpauthUrl } = await props.client.call(staffEnrol, { token: props.token, password });
      props.onDone(otpauthUrl);
    } catch {
      // The client has told the reason (a toast with the translated code: invalid, expired or used link).
      setBusy(false);
    }
  };

  return (
    <form className="staff-sign-in-card" onSubmit={(event) => void submit(event)} noValidate>
      <h1>{t('staff.enrol.title')}</h1>
      <p className="staff-muted">{t('staff.enrol.intro')}</p>
      <TextField label={t('staff.password.new')} value={password} onChange={setPassword} type="password" autoComplete="new-password" maxLength={passwordMaxLength} error={errors.password} />
      <TextField label={t('staff.password.repeat')} value={repeat} onChange={setRepeat} type="password" autoComplete="new-password" maxLength={passwordMaxLength} error={errors.repeat} />
      <button type="submit" className="button primary" disabled={busy}>
        {t('staff.enrol.password_submit')}
      </button>
    </form>
  );
}

function AuthenticatorStep(props: { client: StaffClient; token: string; otpauthUrl: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const url = props.otpauthUrl;
  useEffect(() => {
    let current = true;
    qrCodeSource(url).then(
      (source) => current && setQr(source),
      () => undefined, // the address can still be copied
    );
    return () => {
      current = false;
    };
  }, [url]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = isValidVerificationCode(code.trim()) ? undefined : t('staff.sign_in.code_invalid');
    setError(found);
    if (found) return;
    setBusy(true);
    try {
      await props.client.call(staffEnrolConfirm, { token: props.token, code: code.trim() });
      props.onDone();
    } catch {
      setBusy(false);
    }
  };

  return (
    <form className="staff-sign-in-card" onSubmit={(event) => void submit(event)} noValidate>
      <h1>{t('staff.enrol.authenticator_title')}</h1>
      <p className="staff-muted">{t('staff.enrol.authenticator_intro')}</p>
      {qr ? <img className="staff-qr" src={qr} alt={t('staff.enrol.qr')} width={180} height={180} /> : null}
      <div className="staff-credentials">
        <code className="staff-break" aria-label={t('staff.enrol.otpauth_url')}>
          {url}
        </code>
        <button type="button" className="button secondary staff-small-button" onClick={() => void copyText(url, { copied: t('staff.enrol.copied'), failed: t('staff.enrol.copy_failed') })}>
          {t('staff.enrol.copy_url')}
        </button>
      </div>
      <TextField label={t('staff.sign_in.code')} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" maxLength={6} error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {t('staff.enrol.confirm_submit')}
      </button>
    </form>
  );
}
