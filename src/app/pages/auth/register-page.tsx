import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { getImageCode, register } from '../../../shared/api/auth';
import {
  captchaRefreshCooldownSeconds,
  isValidCaptchaText,
  isValidNewPassword,
  isValidVerificationCode,
  trimmed,
} from '../../../shared/auth/validation';
import { switchesSignal, useApp } from '../../app-context';
import { showToast } from '../../components/toasts';
import { preferences, savePreferences } from '../../preferences/preferences';
import { AuthShell } from './auth-shell';
import { CaptchaField } from './captcha-field';
import { CodeInput } from './code-input';
import { contactLabel, emptyContact, readContact, type ContactDraft } from './contact';
import { ContactField } from './contact-field';
import { PasswordField } from './password-field';
import { ResendCode } from './resend-code';
import { loginPathFor, useCodeSender, useSubmitLock, type CodeTarget } from './code-step';
import { sendCode } from './send-code';
import { TextField } from '../../components/text-field';
import { useCountdown } from './use-countdown';

/** Longest invitation code the server takes. */
const inviteCodeMaxLength = 32;

type Errors = Partial<Record<'contact' | 'code' | 'captcha' | 'password', string>>;

/**
 * `/register`: step 1 takes the contact and sends a code (a phone without SMS goes
 * straight on, with an image captcha instead); step 2 takes the code, the password and an
 * optional invitation code. On success: sign-in with the account filled in.
 */
export function RegisterPage() {
  useSignals();
  const { t, i18n } = useTranslation();
  const { http, config } = useApp();
  const [, navigate] = useLocation();
  const switches = switchesSignal.value;

  const [contact, setContact] = useState<ContactDraft>(() => emptyContact(config.phoneRegisterCountry, preferences().lastCountry));
  const [target, setTarget] = useState<CodeTarget | null>(null);
  const [mode, setMode] = useState<'code' | 'captcha'>('code');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [inviteCode, setInviteCode] = useState('');
  const [captcha, setCaptcha] = useState<{ image: string; uuid: string } | null>(null);
  const [captchaText, setCaptchaText] = useState('');
  const [refreshRefused, setRefreshRefused] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const codes = useCodeSender('1');
  const resend = codes.resend;
  const captchaCooldown = useCountdown();

  const { submitting, run } = useSubmitLock();
  const contactRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const captchaRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  async function loadCaptcha() {
    setCaptcha(null);
    setCaptchaText('');
    try {
      setCaptcha(await http.call(getImageCode, {}));
    } catch {
      // Shown by the request client; the refresh button tries again.
    }
  }

  function refreshCaptcha() {
    if (captchaCooldown.running) {
      setRefreshRefused(true);
      return;
    }
    setRefreshRefused(false);
    captchaCooldown.start(captchaRefreshCooldownSeconds);
    void loadCaptcha();
  }

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
    if (codes.pending(next)) {
      // Back and forth within the resend wait: the code already sent still holds.
      setMode('code');
      setTarget(next);
      return;
    }
    void run(async () => {
      if (reading.type === 'P') void savePreferences({ lastCountry: contact.country });
      if (reading.type === 'P' && !switches.PHONE_REGISTER_SMS_VERIFICATION) {
        // No SMS: the image captcha stands in for the code.
        setMode('captcha');
        setTarget(next);
        captchaCooldown.start(captchaRefreshCooldownSeconds);
        await loadCaptcha();
        return;
      }
      await codes.send(next);
      setMode('code');
      setCode('');
      setTarget(next);
    });
  }

  function resendCode() {
    if (!target) return;
    void run(() => codes.send(target));
  }

  function submitDetails(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    const secret = password.trim();
    const found: Errors = {};
    if (mode === 'code' && !isValidVerificationCode(code)) found.code = 'auth.wrong_verification_code';
    if (mode === 'captcha' && !isValidCaptchaText(captchaText.trim())) found.captcha = 'auth.p_t_verity_code';
    if (!isValidNewPassword(secret)) found.password = 'auth.password_limit';
    setErrors(found);
    if (found.code) return codeRef.current?.focus();
    if (found.captcha) return captchaRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();

    const invite = switches.hideRegisterInviteCode ? '' : inviteCode.trim();
    const body = trimmed({
      username: target.username,
      password: secret,
      type: target.type,
      code: mode === 'code' ? code : '',
      locale: i18n.language,
      ...(invite ? { inviteCode: invite } : {}),
      ...(mode === 'captcha' && captcha ? { uuid: captcha.uuid, captcha: captchaText.trim() } : {}),
    });
    void run(async () => {
      try {
        await http.call(register, body);
      } catch (error) {
        // The server spends a captcha on every try (and 23555 says it expired): show a new one.
        if (mode === 'captcha') void loadCaptcha();
        throw error;
      }
      if (switches.sendRegisterCompleteMail && target.type === 'E') {
        void sendCode(http, target, '4', i18n.language, { silent: true }).catch(() => undefined);
      }
      showToast('success', t('auth.register_success'));
      navigate(loginPathFor(target));
    });
  }

  if (!target) {
    return (
      <AuthShell title={t('page.register')} back="/login">
        <form className="auth-form" noValidate onSubmit={submitContact}>
          <p className="auth-step">{t('auth.step', { step: 1, total: 2 })}</p>
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
            {contact.type === 'P' && switches.PHONE_REGISTER && !switches.PHONE_REGISTER_SMS_VERIFICATION ? t('auth.next') : t('auth.send_code')}
          </button>
          <p className="auth-links">
            <span>{t('auth.have_account')}</span>
            <Link href="/login">{t('page.login')}</Link>
          </p>
        </form>
      </AuthShell>
    );
  }

  return (
    <AuthShell title={t('page.register')} back="/login">
      <form className="auth-form" noValidate onSubmit={submitDetails}>
        <p className="auth-step">{t('auth.step', { step: 2, total: 2 })}</p>
        <p className="auth-hint">{t(mode === 'code' ? 'auth.code_sent_to' : 'auth.signing_up_as', { contact: target.label })}</p>
        {mode === 'code' ? (
          <>
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
          </>
        ) : (
          <CaptchaField
            image={captcha?.image ?? null}
            value={captchaText}
            inputRef={captchaRef}
            blockedSeconds={refreshRefused ? captchaCooldown.secondsLeft : 0}
            error={errors.captcha ? t(errors.captcha) : null}
            onRefresh={refreshCaptcha}
            onChange={(value) => {
              setCaptchaText(value);
              setErrors((current) => ({ ...current, captcha: undefined }));
            }}
          />
        )}
        <PasswordField
          label={t('auth.password')}
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
        {switches.hideRegisterInviteCode ? null : (
          <TextField
            label={t('auth.invite_code')}
            value={inviteCode}
            maxLength={inviteCodeMaxLength}
            autoComplete="off"
            onChange={setInviteCode}
          />
        )}
        <button type="submit" className="button primary auth-submit" disabled={submitting}>
          {t('auth.create_account')}
        </button>
        <button
          type="button"
          className="button secondary auth-submit"
          disabled={submitting}
          onClick={() => {
            setTarget(null);
            setErrors({});
          }}
        >
          {t('common.back')}
        </button>
      </form>
    </AuthShell>
  );
}
