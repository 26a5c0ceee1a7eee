import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDialog } from '../../app/components/confirm';
import { TextField } from '../../app/components/text-field';
import { noticesSend } from '../../shared/api/staff';
import { Card, ConsolePage } from '../components/section';
import { runAction } from '../session/run-action';
import { useStaff } from '../session/staff-context';
import { NoticeFields, type NoticeDraft } from './notice-dialog';

type Audience = 'one' | 'everyone';

/** A notice to one customer (by uid) or to every customer, after a confirmation that says so. */
export function NoticesPage() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const [audience, setAudience] = useState<Audience>('one');
  const [uidText, setUidText] = useState('');
  const [draft, setDraft] = useState<NoticeDraft>({ title: '', content: '' });
  const [errors, setErrors] = useState<{ uid?: string; title?: string; content?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const uid = Number(uidText.trim());
    const found = {
      uid: audience === 'one' && !(/^\d{1,12}$/.test(uidText.trim()) && uid > 0) ? t('staff.notices.uid_invalid') : undefined,
      title: draft.title.trim() ? undefined : t('staff.notices.title_required'),
      content: draft.content.trim() ? undefined : t('staff.notices.content_required'),
    };
    setErrors(found);
    if (found.uid || found.title || found.content) return;
    if (audience === 'everyone') {
      const confirmed = await confirmDialog({
        title: t('staff.notices.everyone_confirm_title'),
        message: t('staff.notices.everyone_confirm', { title: draft.title.trim() }),
        confirmLabel: t('staff.notices.send_everyone'),
      });
      if (!confirmed) return;
    }
    setBusy(true);
    const done = await runAction(
      () => client.call(noticesSend, { uid: audience === 'one' ? uid : undefined, title: draft.title.trim(), content: draft.content.trim() }),
      (answer) => (audience === 'one' ? t('staff.notices.sent_one') : t('staff.notices.sent_many', { count: answer.count })),
    );
    setBusy(false);
    if (done) setDraft({ title: '', content: '' });
  };

  return (
    <ConsolePage title={t('staff.notices.title')}>
      <Card title={t('staff.notices.send')}>
        <form className="staff-form" onSubmit={(event) => void submit(event)} noValidate>
          <fieldset className="staff-radios">
            <legend>{t('staff.notices.audience')}</legend>
            <label>
              <input type="radio" name="audience" checked={audience === 'one'} onChange={() => setAudience('one')} />
              {t('staff.notices.one_customer')}
            </label>
            <label>
              <input type="radio" name="audience" checked={audience === 'everyone'} onChange={() => setAudience('everyone')} />
              {t('staff.notices.everyone')}
            </label>
          </fieldset>
          {audience === 'one' ? <TextField label={t('staff.customer.uid')} value={uidText} onChange={setUidText} inputMode="numeric" maxLength={12} error={errors.uid} /> : <p className="staff-warning">{t('staff.notices.everyone_warning')}</p>}
          <NoticeFields draft={draft} errors={errors} onChange={setDraft} />
          <button type="submit" className="button primary" disabled={busy}>
            {audience === 'one' ? t('staff.notices.send') : t('staff.notices.send_everyone')}
          </button>
        </form>
      </Card>
    </ConsolePage>
  );
}
