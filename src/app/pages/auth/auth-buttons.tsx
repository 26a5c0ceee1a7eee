import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The form's main action, held while a submission is under way. */
export function SubmitButton(props: { disabled: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="button primary auth-submit" disabled={props.disabled}>
      {props.children}
    </button>
  );
}

/** Back to the form's first step. */
export function BackButton(props: { disabled: boolean; onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="button secondary auth-submit" disabled={props.disabled} onClick={props.onBack}>
      {t('common.back')}
    </button>
  );
}
