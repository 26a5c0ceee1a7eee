import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { login, type ContactType, type TokenPair } from '../../../shared/api/auth';
import { normalizeSignInCode, signInCodeLength } from '../../../shared/auth/sign-in-code';
import { isValidLoginPassword, isValidVerificationCode, trimmed } from '../../../shared/auth/validation';
import { ErrorCode } from '../../../shared/errors/catalogue';
import { RequestError } from '../../api/http-client';
import type { BrandConfig } from '../../../shared/config/brand-config';
import { switchesSignal, useApp } from '../../app-context';
import { Checkbox } from '../../components/checkbox';
import { TextField } from '../../components/text-field';
import { preferences, savePreferences, type Preferences } from '../../preferences/preferences';
import { forgetPassword, recallPassword, rememberPassword } from '../../preferences/remembered-password';
import { safeReturnPath } from '../../routing/guards';
import { BackButton, SubmitButton } from './auth-buttons';
import { AuthShell } from './auth-shell';
import { CodeInput } from './code-input';
import { useCodeSender, useSubmitLock } from './code-step';
import { contactLabel, readContact, type ContactDraft } from './contact';
import { ContactField } from './contact-field';
import { isCountryCode } from './countries';
import { PasswordField } from './password-field';
import { ResendCode } from './sent-code-field';
import { useSessionStart } from './session-start';
import { useFieldErrors } from './use-field-errors';

interface LoginBody {
  username: string;
  password: string;
  type: ContactType;
  /** A code sent to the account: lets a sign-in from a new device through while the account's delay runs. */
  signInCode?: string;
}

/** The answer of a sign-in the account's delay held back (1033): the sign-in code step is offered. */
function heldBack(error: unknown): boolean {
  return error instanceof RequestError && error.failure.kind === 'code' && error.failure.code === ErrorCode.TRY_AGAIN_LATER;
}

/** The account a remembered password is bound to (its ciphertext decrypts for this one only). */
function accountKey(type: ContactType, username: string): string {
  return `${type}:${username.toLowerCase()}`;
}

/**
 * The contact to start with: `?account=` (after sign-up; `type=P` and `country=` for a
 * phone), else the remembered account, else empty with the last or the brand's country.
 */
function initialContact(search: URLSearchParams, config: BrandConfig, allowPhone: boolean): ContactDraft {
  const stored = preferences();
  const fromQuery = search.get('country');
  const country = isCountryCode(fromQuery) ? fromQuery : isCountryCode(stored.lastCountry) ? stored.lastCountry : config.phoneRegisterCountry;
  const empty: ContactDraft = { type: 'E', email: '', phone: '', country };
  const account = search.get('account');
  if (account) {
    return search.get('type') === 'P' && allowPhone ? { ...empty, type: 'P', phone: account } : { ...empty, email: account };
  }
  const remembered = stored.rememberedAccount;
  if (!remembered) return empty;
  if (remembered.type === 'E') return { ...empty, email: remembered.value };
  if (!allowPhone) return empty;
  return { ...empty, type: 'P', phone: remembered.value, country: isCountryCode(remembered.country) ? remembered.country : country };
}

/**
 * `/login`: e-mail (or phone) and password, remember account and password, then the
 * second-factor code when the account has one. While failed sign-ins from elsewhere hold
 * the account back (1033) on a browser it does not know yet, the page offers a sign-in
 * code sent to the contact; a browser that signed in before is not held back (its device
 * cookie, which the server sets and reads itself). On success the engine adopts the session
 * for every tab and the page goes to `?to=` (a local path) or home.
 */
export function LoginPage() {
  useSignals();
  const { t } = useTranslation();
  const { http, config } = useApp();
  const search = useSearch();
  const startSession = useSessionStart();
  const returnPath = safeReturnPath(new URLSearchParams(search).get('to'));
  const switches = switchesSignal.value;
  const allowPhone = switches.PHONE_REGISTER;

  const [contact, setContact] = useState<ContactDraft>(() => initialContact(new URLSearchParams(search), config, allowPhone));
  const [password, setPassword] = useState('');
  const [rememberAccount, setRememberAccount] = useState(() => Boolean(preferences().rememberedAccount));
  const [rememberSecret, setRememberSecret] = useState(() => Boolean(preferences().rememberedPassword));
  const [step, setStep] = useState<'credentials' | 'sign-in-code' | 'second-factor'>('credentials');
  const [code, setCode] = useState('');
  const [signInCode, setSignInCode] = useState('');
  const signInCodes = useCodeSender('3');
  const fields = useFieldErrors(['contact', 'password', 'signInCode', 'code'] as const);
  const { submitting, run, busy } = useSubmitLock();
  /** The account whose remembered password filled the field; editing the contact away clears it. */
  const [recalledFor, setRecalledFor] = useState<string | null>(null);

  const pending = useRef<LoginBody | null>(null);

  // Fill the remembered password of the remembered account (once, when the page opens).
  const [initialAccount] = useState(() => {
    const reading = readContact(contact, 'login');
    return reading.ok ? accountKey(reading.type, reading.username) : null;
  });
  useEffect(() => {
    if (!switchesSignal.peek().rememberPassword || !initialAccount || !preferences().rememberedPassword) return;
    let cancelled = false;
    void recallPassword(initialAccount).then((recalled) => {
      if (cancelled || recalled === null) return;
      setPassword((current) => current || recalled);
      setRecalledFor(initialAccount);
    });
    return () => {
      cancelled = true;
    };
  }, [initialAccount]);

  function changeContact(next: ContactDraft) {
    setContact(next);
    if (recalledFor) {
      const reading = readContact(next, 'login');
      if (!reading.ok || accountKey(reading.type, reading.username) !== recalledFor) {
        setPassword('');
        setRecalledFor(null);
      }
    }
  }

  async function rememberChoices(body: LoginBody) {
    try {
      const change: Partial<Preferences> = {
        rememberedAccount: rememberAccount
          ? body.type === 'E'
            ? { type: 'E', value: contact.email.trim() }
            : { type: 'P', value: contact.phone.trim(), country: contact.country }
          : undefined,
      };
      if (body.type === 'P') change.lastCountry = contact.country;
      await savePreferences(change);
      if (rememberAccount && rememberSecret && switches.rememberPassword) await rememberPassword(accountKey(body.type, body.username), body.password);
      else await forgetPassword();
    } catch {
      // Remembering is a convenience: signing in goes on without it.
    }
  }

  async function finish(tokens: TokenPair, body: LoginBody) {
    await rememberChoices(body);
    await startSession(tokens, returnPath, t('auth.login_success'));
  }

  function submitCredentials(event: FormEvent) {
    event.preventDefault();
    if (busy()) return;
    const reading = readContact(contact, 'login');
    const secret = password.trim();
    const found: Partial<Record<'contact' | 'password', string>> = {};
    if (!reading.ok) found.contact = reading.errorKey;
    if (!isValidLoginPassword(secret)) found.password = 'auth.p_t_password';
    if (!fields.report(found) || !reading.ok) return;

    const body: LoginBody = trimmed({ username: reading.username, password: secret, type: reading.type });
    void run(() => signIn(body));
  }

  /** One sign-in call: on to the second factor, the sign-in code step (held back), or signed in. */
  async function signIn(body: LoginBody) {
    let answer;
    try {
      answer = await http.call(login, body, { silent: true });
    } catch (error) {
      if (heldBack(error) && !body.signInCode) {
        // The step says why and offers the code; a toast of the wait ("retry in 900 seconds") would tell the owner otherwise.
        pending.current = body;
        setSignInCode('');
        setStep('sign-in-code');
        return;
      }
      if (error instanceof RequestError) http.report(error.failure);
      throw error;
    }
    if (answer.qrcodeStatus === 0) {
      pending.current = body;
      setCode('');
      setStep('second-factor');
      return;
    }
    await finish(answer, body);
  }

  function sendSignInCode() {
    const body = pending.current;
    if (!body) return setStep('credentials');
    void run(() => signInCodes.send({ type: body.type, username: body.username, label: contactLabel(contact), draft: contact }));
  }

  function submitSignInCode(event: FormEvent) {
    event.preventDefault();
    if (busy()) return;
    const body = pending.current;
    if (!body) return setStep('credentials');
    const typed = normalizeSignInCode(signInCode);
    if (!fields.report(typed ? {} : { signInCode: 'auth.sign_in_code_invalid' }) || !typed) return;
    void run(() => signIn({ ...body, signInCode: typed }));
  }

  function backToCredentials() {
    pending.current = null;
    setCode('');
    setSignInCode('');
    fields.clear();
    setStep('credentials');
  }

  function submitCode(value: string) {
    if (busy()) return;
    const body = pending.current;
    if (!body) return setStep('credentials');
    if (!fields.report(isValidVerificationCode(value) ? {} : { code: 'auth.wrong_verification_code' })) return;
    void run(async () => {
      try {
        const answer = await http.call(login, trimmed({ ...body, command: 'verification' as const, authCode: value }));
        if (answer.qrcodeStatus === 0 || !answer.token) throw new Error('second factor not accepted');
        await finish(answer, body);
      } catch {
        // A wrong or expired code: start the code again.
        setCode('');
        fields.focus('code');
      }
    });
  }

  if (step === 'second-factor') {
    return (
      <AuthShell title={t('page.login')} back="/">
        <form
          className="auth-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submitCode(code);
          }}
        >
          <h2 className="auth-step-title">{t('auth.two_factor_title')}</h2>
          <p className="auth-hint">{t('auth.two_factor_hint')}</p>
          <CodeInput label={t('auth.auth_code')} value={code} autoFocus {...fields.bind('code', setCode)} onComplete={submitCode} />
          <SubmitButton disabled={submitting}>{t('auth.verify')}</SubmitButton>
          <BackButton disabled={submitting} onBack={backToCredentials} />
        </form>
      </AuthShell>
    );
  }

  if (step === 'sign-in-code') {
    const sent = signInCodes.resend.running;
    return (
      <AuthShell title={t('page.login')} back="/">
        <form className="auth-form" noValidate onSubmit={submitSignInCode}>
          <h2 className="auth-step-title">{t('auth.sign_in_code_title')}</h2>
          <p className="auth-hint">{t('auth.sign_in_code_hint', { contact: contactLabel(contact) })}</p>
          {sent ? (
            <ResendCode secondsLeft={signInCodes.resend.secondsLeft} sending={submitting} onResend={sendSignInCode} />
          ) : (
            <button type="button" className="button secondary auth-submit" disabled={submitting} onClick={sendSignInCode}>
              {t('auth.send_sign_in_code')}
            </button>
          )}
          <TextField
            label={t('auth.sign_in_code')}
            value={signInCode}
            autoComplete="one-time-code"
            maxLength={signInCodeLength + 1}
            placeholder="XXXX-XXXX"
            inputClassName="sign-in-code-input"
            {...fields.bind('signInCode', (value: string) => setSignInCode(value.toUpperCase()))}
          />
          <SubmitButton disabled={submitting}>{t('auth.sign_in')}</SubmitButton>
          <BackButton disabled={submitting} onBack={backToCredentials} />
        </form>
      </AuthShell>
    );
  }

  return (
    <AuthShell title={t('page.login')} back="/">
      <form className="auth-form" noValidate onSubmit={submitCredentials}>
        <ContactField purpose="login" allowPhone={allowPhone} value={contact} {...fields.bind('contact', changeContact)} />
        <PasswordField
          label={t('auth.password')}
          autoComplete="current-password"
          value={password}
          {...fields.bind('password', (value: string) => {
            setPassword(value);
            setRecalledFor(null);
          })}
        />
        <div className="auth-options">
          <Checkbox
            label={t('auth.remember_account')}
            checked={rememberAccount}
            onChange={(checked) => {
              setRememberAccount(checked);
              // No password is remembered without its account.
              if (!checked) setRememberSecret(false);
            }}
          />
          {switches.rememberPassword ? (
            <Checkbox
              label={t('auth.remember_password')}
              checked={rememberSecret}
              onChange={(checked) => {
                setRememberSecret(checked);
                if (checked) setRememberAccount(true);
              }}
            />
          ) : null}
        </div>
        <SubmitButton disabled={submitting}>{t('auth.sign_in')}</SubmitButton>
        <nav className="auth-links" aria-label={t('auth.more_options')}>
          <Link href="/forgot">{t('page.forgot')}</Link>
          <Link href={returnPath === '/' ? '/register' : `/register?to=${encodeURIComponent(returnPath)}`}>{t('page.register')}</Link>
        </nav>
      </form>
    </AuthShell>
  );
}
