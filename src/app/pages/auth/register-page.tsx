import { useSignals } from '@preact/signals-react/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { inviteCodeQuery } from '../../../shared/api/profile';
import { getImageCode, login, register, type ContactType } from '../../../shared/api/auth';
import {
  captchaRefreshCooldownSeconds,
  isValidCaptchaText,
  isValidNewPassword,
  isValidVerificationCode,
  trimmed,
} from '../../../shared/auth/validation';
import { switchesSignal, useApp } from '../../app-context';
import { TextField } from '../../components/text-field';
import { showToast } from '../../components/toasts';
import { CaptchaField } from './captcha-field';
import { loginPathFor, useSubmitLock } from './code-step';
import { ContactStep } from './contact-step';
import { PasswordField } from './password-field';
import { sendCode } from './send-code';
import { SentCodeField } from './sent-code-field';
import { StepForm } from './step-form';
import { safeReturnPath } from '../../routing/guards';
import { useSessionStart } from './session-start';
import { useCodeDelivery } from './use-code-delivery';
import { useCountdown } from './use-countdown';
import { useFieldErrors } from './use-field-errors';

/** Longest invitation code the server takes. */
const inviteCodeMaxLength = 32;

/**
 * `/register`: step 1 takes the contact and sends a code (a phone without SMS goes
 * straight on, with an image captcha instead); step 2 takes the code, the password and an
 * optional invitation code. On success the new user goes to sign-in with the account filled
 * in (the specification); a brand with `signInAfterRegister` signs them in and sends them to
 * `?to=` (a local path) or home, and to sign-in should that sign-in fail.
 */
export function RegisterPage() {
  useSignals();
  const { t, i18n } = useTranslation();
  const { http, config } = useApp();
  const [, navigate] = useLocation();
  const search = useSearch();
  const startSession = useSessionStart();
  const switches = switchesSignal.value;

  const [mode, setMode] = useState<'code' | 'captcha'>('code');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  // A friend's invite link (invite/info's inviteLink) brings the code in the query.
  const [inviteCode, setInviteCode] = useState(() => (new URLSearchParams(search).get(inviteCodeQuery) ?? '').trim().slice(0, inviteCodeMaxLength));
  const [captcha, setCaptcha] = useState<{ image: string; uuid: string } | null>(null);
  const [captchaText, setCaptchaText] = useState('');
  const [refreshRefused, setRefreshRefused] = useState(false);
  const captchaCooldown = useCountdown();
  const fields = useFieldErrors(['contact', 'code', 'captcha', 'password'] as const);
  const lock = useSubmitLock();
  const delivery = useCodeDelivery({
    purpose: '1',
    lock,
    fields,
    toCodeStep: (fresh) => {
      setMode('code');
      if (fresh) setCode('');
    },
    instead: (next) => {
      if (next.type !== 'P' || switches.PHONE_REGISTER_SMS_VERIFICATION) return null;
      // No SMS: the image captcha stands in for the code.
      setMode('captcha');
      captchaCooldown.start(captchaRefreshCooldownSeconds);
      return loadCaptcha();
    },
  });
  const { target } = delivery;

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

  /** The sign-in page's path with the new credentials; a brand-new account has no second factor to ask for. */
  async function signInAsNewUser(username: string, secret: string, type: ContactType): Promise<boolean> {
    try {
      const tokens = await http.call(login, { username, password: secret, type });
      if (tokens.qrcodeStatus === 0 || !tokens.token) return false;
      return await startSession(tokens, safeReturnPath(new URLSearchParams(search).get('to')), t('auth.register_signed_in'));
    } catch {
      // The request client has shown why; the account exists, so the sign-in page is the way on.
      return false;
    }
  }

  function submitDetails(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    const secret = password.trim();
    const found: Partial<Record<'code' | 'captcha' | 'password', string>> = {};
    if (mode === 'code' && !isValidVerificationCode(code)) found.code = 'auth.wrong_verification_code';
    if (mode === 'captcha' && !isValidCaptchaText(captchaText.trim())) found.captcha = 'auth.p_t_verity_code';
    if (!isValidNewPassword(secret)) found.password = 'auth.password_limit';
    if (!fields.report(found)) return;

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
    void lock.run(async () => {
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
      if (config.signInAfterRegister && (await signInAsNewUser(target.username, secret, target.type))) return;
      showToast('success', t('auth.register_success'));
      navigate(loginPathFor(target));
    });
  }

  if (!target) {
    // A phone without SMS goes on to the captcha, not to a code.
    const withoutCode = delivery.contact.type === 'P' && switches.PHONE_REGISTER && !switches.PHONE_REGISTER_SMS_VERIFICATION;
    return <ContactStep title={t('page.register')} submitLabel={t(withoutCode ? 'auth.next' : 'auth.send_code')} signInQuestion={t('auth.have_account')} delivery={delivery} />;
  }

  return (
    <StepForm
      title={t('page.register')}
      step={2}
      hint={t(mode === 'code' ? 'auth.code_sent_to' : 'auth.signing_up_as', { contact: target.label })}
      submitLabel={t('auth.create_account')}
      submitting={lock.submitting}
      onSubmit={submitDetails}
      onBack={() => {
        delivery.back({ clearContact: false });
        fields.clear();
      }}
    >
      {mode === 'code' ? (
        <SentCodeField value={code} field={fields.bind('code', setCode)} delivery={delivery} />
      ) : (
        <CaptchaField
          image={captcha?.image ?? null}
          value={captchaText}
          blockedSeconds={refreshRefused ? captchaCooldown.secondsLeft : 0}
          onRefresh={refreshCaptcha}
          {...fields.bind('captcha', setCaptchaText)}
        />
      )}
      <PasswordField label={t('auth.password')} autoComplete="new-password" placeholder={t('auth.password_hint')} value={password} {...fields.bind('password', setPassword)} />
      {switches.hideRegisterInviteCode ? null : (
        <TextField label={t('auth.invite_code')} value={inviteCode} maxLength={inviteCodeMaxLength} autoComplete="off" onChange={setInviteCode} />
      )}
    </StepForm>
  );
}
