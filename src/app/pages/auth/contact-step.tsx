import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { switchesSignal } from '../../app-context';
import { ContactField } from './contact-field';
import { StepForm } from './step-form';
import type { CodeDelivery } from './use-code-delivery';

/** Step 1 of sign-up and reset: the contact a code goes to, and the way back to sign-in. */
export function ContactStep(props: {
  title: string;
  hint?: string;
  submitLabel: string;
  /** What stands before the sign-in link ("Already have an account?"). */
  signInQuestion: string;
  delivery: CodeDelivery;
}) {
  useSignals();
  const { t } = useTranslation();
  const { delivery } = props;
  const after = (
    <p className="auth-links">
      <span>{props.signInQuestion}</span>
      <Link href="/login">{t('page.login')}</Link>
    </p>
  );
  return (
    <StepForm title={props.title} step={1} hint={props.hint} submitLabel={props.submitLabel} submitting={delivery.submitting} onSubmit={delivery.submitContact} after={after}>
      <ContactField purpose="other" allowPhone={switchesSignal.value.PHONE_REGISTER} value={delivery.contact} {...delivery.contactField} />
    </StepForm>
  );
}
