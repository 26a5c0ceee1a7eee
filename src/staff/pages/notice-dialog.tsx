import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../app/components/dialog';
import { FieldFrame, fieldMessageAria, TextField } from '../../app/components/text-field';
import { DialogFooter } from '../components/dialog-footer';

export interface NoticeDraft {
  title: string;
  content: string;
}

/** A notice's title and content, and whom it goes to (named in the dialog, so nobody sends to everyone by mistake). */
export function NoticeDialog(props: { recipient: string; onSend: (notice: NoticeDraft) => Promise<boolean>; onClose: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<NoticeDraft>({ title: '', content: '' });
  const [errors, setErrors] = useState<{ title?: string; content?: string }>({});
  const [busy, setBusy] = useState(false);
  const send = async () => {
    const found = {
      title: draft.title.trim() ? undefined : t('staff.notices.title_required'),
      content: draft.content.trim() ? undefined : t('staff.notices.content_required'),
    };
    setErrors(found);
    if (found.title || found.content) return;
    setBusy(true);
    const done = await props.onSend({ title: draft.title.trim(), content: draft.content.trim() });
    setBusy(false);
    if (done) props.onClose();
  };
  return (
    <Dialog
      title={t('staff.notices.send')}
      onClose={props.onClose}
      footer={<DialogFooter confirmLabel={t('staff.notices.send')} disabled={busy} onCancel={props.onClose} onConfirm={() => void send()} />}
    >
      <p className="staff-recipient">{props.recipient}</p>
      <NoticeFields draft={draft} errors={errors} onChange={setDraft} />
    </Dialog>
  );
}

export function NoticeFields(props: { draft: NoticeDraft; errors: { title?: string; content?: string }; onChange: (draft: NoticeDraft) => void }) {
  const { t } = useTranslation();
  const contentId = useId();
  return (
    <>
      <TextField label={t('staff.notices.title_label')} value={props.draft.title} maxLength={120} error={props.errors.title} onChange={(title) => props.onChange({ ...props.draft, title })} />
      <FieldFrame id={contentId} label={t('staff.notices.content_label')} error={props.errors.content} controlClassName="field-control">
        <textarea
          id={contentId}
          className="field-input staff-textarea"
          rows={5}
          maxLength={2000}
          value={props.draft.content}
          {...fieldMessageAria(contentId, props.errors.content)}
          onChange={(event) => props.onChange({ ...props.draft, content: event.target.value })}
        />
      </FieldFrame>
    </>
  );
}
