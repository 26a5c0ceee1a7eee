import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BackButton, SubmitButton } from './auth-buttons';
import { AuthShell } from './auth-shell';

/**
 * One step of sign-up or reset (back to sign-in from the shell): the step's number and
 * hint, its fields, the main action, then what follows it (the sign-in link, or the way
 * back to step 1).
 */
export function StepForm(props: {
  title: string;
  step: 1 | 2;
  hint?: string;
  submitLabel: string;
  submitting: boolean;
  onSubmit: (event: FormEvent) => void;
  /** Step 2: back to step 1. */
  onBack?: () => void;
  children: ReactNode;
  after?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <AuthShell title={props.title} back="/login">
      <form className="auth-form" noValidate onSubmit={props.onSubmit}>
        <p className="auth-step">{t('auth.step', { step: props.step, total: 2 })}</p>
        {props.hint ? <p className="auth-hint">{props.hint}</p> : null}
        {props.children}
        <SubmitButton disabled={props.submitting}>{props.submitLabel}</SubmitButton>
        {props.onBack ? <BackButton disabled={props.submitting} onBack={props.onBack} /> : null}
        {props.after}
      </form>
    </AuthShell>
  );
}
