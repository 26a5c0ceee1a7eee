import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { forgot } from '../../../shared/api/auth';
import { isValidNewPassword, isValidVerificationCode, trimmed } from '../../../shared/auth/validation';
import { switchesSignal, useApp } from '../../app-context';
import { showToast } from '../../components/toasts';
import { preferences, savePreferences } from '../../preferences/preferences';
import { AuthShell } from './auth-shell';
import { CodeInput } from './code-input';
import { contactLabel, emptyContact, readContact, type ContactDraft } from './contact';
import { ContactField } from './contact-field';
import { PasswordField } from './password-field';
import { ResendCode } from './resend-code';
import { loginPathFor, useCodeSender, useSubmitLock, type CodeTarget } from './code-step';

type Errors = Partial<Record<'contact' | 'code' | 'password' | 'confirm', string>>;

/**
 * `/forgot`: step 1 sends a reset code to the contact; step 2 takes the code and the new
 * password twice. Back from step 2 starts again with an empty contact. On success:
 * sign-in with the account filled in.
 */
export function ForgotPage() {
  useSignals();
  const { t } = useTranslation();
  const { http, config } = useApp();
  const [, navigate] = useLocation();
  const switches = switchesSignal.value;
  const blankContact = () => emptyContact(config.phoneRegisterCountry, preferences().lastCountry);

  const [contact, setContact] = useState<ContactDraft>(blankContact);
  const [target, setTarget] = useState<CodeTarget | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const codes = useCodeSender('2');
  const resend = codes.resend;

  const { submitting, run } = useSubmitLock();
  const contactRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);

  function submitContact(event: FormEvent) {
    event.preventDefault();
    const reading = readContact(contact, 'other');
    if (!reading.ok) {
      setErrors({ contact: reading.errorKey });
      contactRef.current?.focus();
      return;
    }
    setErrors({});
    const next: CodeTarget = { type: reading.type, username: reading.username, label: contactLabel(contact), draft: contact };
    setCode('');
    if (codes.pending(next)) {
      // Back and forth within the resend wait: the code already sent still holds.
      setTarget(next);
      return;
    }
    void run(async () => {
      if (reading.type === 'P') void savePreferences({ lastCountry: contact.country });
      await codes.send(next);
      setTarget(next);
    });
  }

  function resendCode() {
    if (!target) return;
    void run(() => codes.send(target));
  }

  function submitReset(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    const secret = password.trim();
    const found: Errors = {};
    if (!isValidVerificationCode(code)) found.code = 'auth.wrong_verification_code';
    if (!isValidNewPassword(secret)) found.password = 'auth.password_limit';
    else if (confirmation.trim() !== secret) found.confirm = 'auth.password_mismatch';
    setErrors(found);
    if (found.code) return codeRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    if (found.confirm) return confirmRef.current?.focus();

    void run(async () => {
      await http.call(forgot, trimmed({ username: target.username, password: secret, type: target.type, code }));
      showToast('success', t('auth.reset_success'));
      navigate(loginPathFor(target));
    });
  }

  if (!target) {
    return (
      <AuthShell title={t('page.forgot')} back="/login">
        <form className="auth-form" noValidate onSubmit={submitContact}>
          <p className="auth-step">{t('auth.step', { step: 1, total: 2 })}</p>
          <p className="auth-hint">{t('auth.forgot_hint')}</p>
          <ContactField
            purpose="other"
            allowPhone={switches.PHONE_REGISTER}
            value={contact}
            onChange={(next) => {
              setContact(next);
              setErrors({});
            }}
            error={errors.contact ? t(errors.contact) : null}
            inputRef={contactRef}
          />
          <button type="submit" className="button primary auth-submit" disabled={submitting}>
            {t('auth.send_code')}
          </button>
          <p className="auth-links">
            <span>{t('auth.remembered_it')}</span>
            <Link href="/login">{t('page.login')}</Link>
          </p>
        </form>
      </AuthShell>
    );
  }

  return (
    <AuthShell title={t('page.forgot')} back="/login">
      <form className="auth-form" noValidate onSubmit={submitReset}>
        <p className="auth-step">{t('auth.step', { step: 2, total: 2 })}</p>
        <p className="auth-hint">{t('auth.code_sent_to', { contact: target.label })}</p>
        <CodeInput
          label={t('auth.verification_code')}
          value={code}
          autoFocus
          inputRef={codeRef}
          error={errors.code ? t(errors.code) : null}
          onChange={(value) => {
            setCode(value);
            setErrors((current) => ({ ...current, code: undefined }));
          }}
        />
        <ResendCode secondsLeft={resend.secondsLeft} sending={submitting} onResend={resendCode} />
        <PasswordField
          label={t('auth.new_password')}
          autoComplete="new-password"
          placeholder={t('auth.password_hint')}
          value={password}
          inputRef={passwordRef}
          error={errors.password ? t(errors.password) : null}
          onChange={(value) => {
            setPassword(value);
            setErrors((current) => ({ ...current, password: undefined }));
          }}
        />
        <PasswordField
          label={t('auth.confirm_password')}
          autoComplete="new-password"
          value={confirmation}
          inputRef={confirmRef}
          error={errors.confirm ? t(errors.confirm) : null}
          onChange={(value) => {
            setConfirmation(value);
            setErrors((current) => ({ ...current, confirm: undefined }));
          }}
        />
        <button type="submit" className="button primary auth-submit" disabled={submitting}>
          {t('auth.reset_password')}
        </button>
        <button
          type="button"
          className="button secondary auth-submit"
          disabled={submitting}
          onClick={() => {
            // Back to step 1 with the contact cleared, as the product says.
            setTarget(null);
            setContact(blankContact());
            setCode('');
            setPassword('');
            setConfirmation('');
            setErrors({});
          }}
        >
          {t('common.back')}
        </button>
      </form>
    </AuthShell>
  );
}
