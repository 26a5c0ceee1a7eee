import { useSignals } from '@preact/signals-react/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { forgot } from '../../../shared/api/auth';
import { isValidNewPassword, isValidVerificationCode, trimmed } from '../../../shared/auth/validation';
import { useApp } from '../../app-context';
import { showToast } from '../../components/toasts';
import { loginPathFor, useSubmitLock } from './code-step';
import { ContactStep } from './contact-step';
import { PasswordField } from './password-field';
import { SentCodeField } from './sent-code-field';
import { StepForm } from './step-form';
import { useCodeDelivery } from './use-code-delivery';
import { useFieldErrors } from './use-field-errors';

/**
 * `/forgot`: step 1 sends a reset code to the contact; step 2 takes the code and the new
 * password twice. Back from step 2 starts again with an empty contact. On success:
 * sign-in with the account filled in.
 */
export function ForgotPage() {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const [, navigate] = useLocation();

  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const fields = useFieldErrors(['contact', 'code', 'password', 'confirm'] as const);
  const lock = useSubmitLock();
  const delivery = useCodeDelivery({ purpose: '2', lock, fields, toCodeStep: () => setCode('') });
  const { target } = delivery;

  function submitReset(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    const secret = password.trim();
    const found: Partial<Record<'code' | 'password' | 'confirm', string>> = {};
    if (!isValidVerificationCode(code)) found.code = 'auth.wrong_verification_code';
    if (!isValidNewPassword(secret)) found.password = 'auth.password_limit';
    else if (confirmation.trim() !== secret) found.confirm = 'auth.password_mismatch';
    if (!fields.report(found)) return;

    void lock.run(async () => {
      await http.call(forgot, trimmed({ username: target.username, password: secret, type: target.type, code }));
      showToast('success', t('auth.reset_success'));
      navigate(loginPathFor(target));
    });
  }

  if (!target) {
    return <ContactStep title={t('page.forgot')} hint={t('auth.forgot_hint')} submitLabel={t('auth.send_code')} signInQuestion={t('auth.remembered_it')} delivery={delivery} />;
  }

  function back() {
    // Back to step 1 with the contact cleared, as the product says.
    delivery.back({ clearContact: true });
    setCode('');
    setPassword('');
    setConfirmation('');
    fields.clear();
  }

  return (
    <StepForm
      title={t('page.forgot')}
      step={2}
      hint={t('auth.code_sent_to', { contact: target.label })}
      submitLabel={t('auth.reset_password')}
      submitting={lock.submitting}
      onSubmit={submitReset}
      onBack={back}
    >
      <SentCodeField value={code} field={fields.bind('code', setCode)} delivery={delivery} />
      <PasswordField
        label={t('auth.new_password')}
        autoComplete="new-password"
        placeholder={t('auth.password_hint')}
        value={password}
        {...fields.bind('password', setPassword)}
      />
      <PasswordField label={t('auth.confirm_password')} autoComplete="new-password" value={confirmation} {...fields.bind('confirm', setConfirmation)} />
    </StepForm>
  );
}
