import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { passwordSubmit } from '../../../shared/api/credentials';
import { isValidNewPassword, passwordMaxLength } from '../../../shared/auth/validation';
import { useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { TextField } from '../../components/text-field';
import { showToast } from '../../components/toasts';
import { adoptSession, loggedOutHereSignal, sessionEndHeldSignal, sessionSignal } from '../../engine/signals';
import '../../styles/notices.css';

/** The specification: the sign-out and the way to /login follow a changed password after 1 second. */
const signOutDelayMs = 1_000;

type Field = 'old' | 'new' | 'repeat';

/**
 * `/user/changePassword`: the current password, the new one and its repetition (each at
 * least 7 characters, the two new ones equal). On success the server has ended every session
 * of the account: the success message shows, and after 1 second this tab signs out (the
 * exchange socket closes with the session) and goes to /login.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const { http, engine } = useApp();
  const [, navigate] = useLocation();
  const [values, setValues] = useState<Record<Field, string>>({ old: '', new: '', repeat: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const refs = { old: useRef<HTMLInputElement>(null), new: useRef<HTMLInputElement>(null), repeat: useRef<HTMLInputElement>(null) };

  const set = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting || done) return;
    const found: Partial<Record<Field, string>> = {};
    if (!isValidNewPassword(values.old)) found.old = 'auth.password_limit';
    if (!isValidNewPassword(values.new)) found.new = 'auth.password_limit';
    else if (values.new === values.old) found.new = 'errors.2007';
    if (!found.new && values.repeat !== values.new) found.repeat = 'auth.password_mismatch';
    setErrors(found);
    const first = (['old', 'new', 'repeat'] as const).find((field) => found[field]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    setSubmitting(true);
    // The session that changes the password is the one to end, and only it: the user may
    // have signed in again with the new password before the delayed sign-out runs.
    const changedBy = sessionSignal.peek().token;
    // Held from before the call: the server ends the sessions as it answers, and a socket may tell this tab first.
    sessionEndHeldSignal.value = true;
    try {
      await http.call(passwordSubmit, { oldPassword: values.old, newPassword: values.new });
    } catch {
      // The request client has shown the server's message (a wrong current password, a wait).
      sessionEndHeldSignal.value = false;
      setSubmitting(false);
      return;
    }
    setDone(true);
    showToast('success', t('credentials.password_changed'));
    window.setTimeout(() => {
      const now = sessionSignal.peek();
      if (!changedBy || (now.signedIn && now.token !== changedBy)) {
        sessionEndHeldSignal.value = false;
        return;
      }
      void engine
        .signOut('password-changed', changedBy)
        .then(adoptSession)
        .finally(() => {
          // Plain sign-in, as after a log-out here: no "please sign in" and no way back to this page.
          loggedOutHereSignal.value = true;
          sessionEndHeldSignal.value = false;
          navigate('/login', { replace: true });
        });
    }, signOutDelayMs);
  }

  const field = (name: Field, label: string, autoComplete: 'current-password' | 'new-password', placeholder?: string) => (
    <TextField
      label={label}
      type="password"
      autoComplete={autoComplete}
      maxLength={passwordMaxLength}
      value={values[name]}
      onChange={set(name)}
      error={errors[name] ? t(errors[name]) : null}
      inputRef={refs[name]}
      disabled={done}
      {...(placeholder ? { placeholder } : {})}
    />
  );

  return (
    <PageFrame title={t('page.change_password')}>
      <form className="auth-form credentials-form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="auth-hint">{t('credentials.change_intro')}</p>
        {field('old', t('credentials.old_password'), 'current-password')}
        {field('new', t('auth.new_password'), 'new-password', t('auth.password_hint'))}
        {field('repeat', t('auth.confirm_password'), 'new-password')}
        <button type="submit" className="button primary auth-submit" disabled={submitting || done}>
          {t('credentials.change_submit')}
        </button>
      </form>
    </PageFrame>
  );
}
