import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { twoFactorDisable, twoFactorEnable, twoFactorSetup, twoFactorStatus } from '../../../shared/api/auth';
import { isValidVerificationCode } from '../../../shared/auth/validation';
import { useApp } from '../../app-context';
import { copyText } from '../../components/copy-text';
import { PageFrame } from '../../components/page-frame';
import { showToast } from '../../components/toasts';
import { CodeInput } from './code-input';

type Status = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; enabled: boolean };
interface Setup {
  secret: string;
  /** The otpauth URL drawn as an SVG QR code (a data URL). */
  qrSource: string;
}

/** The otpauth URL as an SVG data URL; the QR library loads only when a setup starts. */
async function qrCodeSource(otpauthUrl: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

/** The secret in groups of four, easier to type into an authenticator app. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A 6-digit code and one action, with the code cleared and refocused when it is refused. */
function CodeForm(props: { label: string; submitLabel: string; onSubmit: (code: string) => Promise<boolean>; danger?: boolean }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    if (!isValidVerificationCode(code)) {
      setError('auth.wrong_verification_code');
      inputRef.current?.focus();
      return;
    }
    setSubmitting(true);
    const accepted = await props.onSubmit(code);
    setSubmitting(false);
    if (!accepted) {
      setCode('');
      inputRef.current?.focus();
    }
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event)}>
      <CodeInput
        label={props.label}
        value={code}
        inputRef={inputRef}
        error={error ? t(error) : null}
        onChange={(value) => {
          setCode(value);
          setError(null);
        }}
      />
      <button type="submit" className={`button ${props.danger ? 'danger' : 'primary'} auth-submit`} disabled={submitting}>
        {props.submitLabel}
      </button>
    </form>
  );
}

/**
 * `/user/twoFactor`: whether sign-in asks for an authenticator code, and turning it on
 * (a QR code of the otpauth URL and the key for typing by hand, confirmed with a code) or
 * off (with a code).
 */
export function TwoFactorPage() {
  const { t } = useTranslation();
  const { http } = useApp();
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [starting, setStarting] = useState(false);
  const secretId = useId();

  useEffect(() => {
    const controller = new AbortController();
    http
      .call(twoFactorStatus, {}, { signal: controller.signal, silent: true })
      .then(({ enabled }) => setStatus({ kind: 'ready', enabled }))
      .catch(() => {
        if (!controller.signal.aborted) setStatus({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [http, attempt]);

  async function startSetup() {
    if (starting) return;
    setStarting(true);
    try {
      const { otpauthUrl, secret } = await http.call(twoFactorSetup, {});
      setSetup({ secret, qrSource: await qrCodeSource(otpauthUrl) });
    } catch {
      // The request client has shown the server's message.
    } finally {
      setStarting(false);
    }
  }

  /** Turns the second factor on or off with a code; false when the server refuses the code. */
  async function switchTwoFactor(enable: boolean, code: string): Promise<boolean> {
    try {
      await http.call(enable ? twoFactorEnable : twoFactorDisable, { code });
    } catch {
      return false;
    }
    showToast('success', t(enable ? 'auth.two_factor_enabled' : 'auth.two_factor_disabled'));
    setSetup(null);
    setStatus({ kind: 'ready', enabled: enable });
    return true;
  }

  let content;
  if (status.kind === 'loading') {
    content = (
      <div className="list-state" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
      </div>
    );
  } else if (status.kind === 'failed') {
    content = (
      <div className="list-state" role="alert">
        <p>{t('auth.two_factor_failed')}</p>
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            setStatus({ kind: 'loading' });
            setAttempt((value) => value + 1);
          }}
        >
          {t('common.retry')}
        </button>
      </div>
    );
  } else if (status.enabled) {
    content = (
      <>
        <p className="two-factor-status" data-enabled="true">
          {t('auth.two_factor_on')}
        </p>
        <p className="auth-hint">{t('auth.two_factor_disable_hint')}</p>
        <CodeForm
          label={t('auth.auth_code')}
          submitLabel={t('auth.two_factor_disable')}
          danger
          onSubmit={(code) => switchTwoFactor(false, code)}
        />
      </>
    );
  } else if (!setup) {
    content = (
      <>
        <p className="two-factor-status" data-enabled="false">
          {t('auth.two_factor_off')}
        </p>
        <p className="auth-hint">{t('auth.two_factor_intro')}</p>
        <button type="button" className="button primary auth-submit" disabled={starting} onClick={() => void startSetup()}>
          {t('auth.two_factor_setup')}
        </button>
      </>
    );
  } else {
    content = (
      <>
        <p className="auth-hint">{t('auth.two_factor_scan')}</p>
        <div className="two-factor-setup">
          <img className="two-factor-qr" src={setup.qrSource} alt={t('auth.two_factor_qr')} width={200} height={200} />
          <div className="two-factor-secret">
            <label className="field-label" htmlFor={secretId}>
              {t('auth.two_factor_secret')}
            </label>
            <input
              id={secretId}
              className="field-input secret-text"
              readOnly
              value={groupedSecret(setup.secret)}
              spellCheck={false}
              onFocus={(event) => event.target.select()}
            />
            <button type="button" className="chip" onClick={() => void copyText(setup.secret, { copied: t('notice.copy_success'), failed: t('auth.copy_failed') })}>
              {t('common.copy')}
            </button>
          </div>
        </div>
        <CodeForm
          label={t('auth.auth_code')}
          submitLabel={t('auth.two_factor_enable')}
          onSubmit={(code) => switchTwoFactor(true, code)}
        />
      </>
    );
  }

  return (
    <PageFrame title={t('page.two_factor')} back="/user">
      <div className="auth-panel two-factor">{content}</div>
    </PageFrame>
  );
}
