import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../app/components/dialog';
import { FieldFrame, fieldMessageAria } from '../../app/components/text-field';
import { DialogFooter } from './dialog-footer';

/**
 * Asks for the reason an action needs (kept in the audit trail) before running it. The
 * confirm button runs `onSubmit`; the dialog closes when it resolves true.
 */
export function ReasonDialog(props: {
  title: string;
  confirmLabel: string;
  /** Whether an empty reason may be sent (an approval); a required one is refused here first. */
  optional?: boolean;
  children?: ReactNode;
  onSubmit: (reason: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!props.optional && reason.trim() === '') {
      setError(t('staff.reason.required'));
      return;
    }
    setBusy(true);
    const done = await props.onSubmit(reason.trim());
    setBusy(false);
    if (done) props.onClose();
  };
  return (
    <Dialog
      title={props.title}
      onClose={props.onClose}
      footer={<DialogFooter confirmLabel={props.confirmLabel} disabled={busy} onCancel={props.onClose} onConfirm={() => void submit()} />}
    >
      {props.children}
      <FieldFrame id={id} label={props.optional ? t('staff.reason.optional_label') : t('staff.reason.label')} error={error} controlClassName="field-control">
        <textarea
          id={id}
          className="field-input staff-textarea"
          rows={3}
          maxLength={500}
          value={reason}
          {...fieldMessageAria(id, error)}
          onChange={(event) => {
            setReason(event.target.value);
            setError(null);
          }}
        />
      </FieldFrame>
    </Dialog>
  );
}
