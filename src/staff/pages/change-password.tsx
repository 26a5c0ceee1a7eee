import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../app/components/text-field';
import { isValidNewPassword, passwordMaxLength } from '../../shared/auth/validation';
import { staffPassword } from '../../shared/api/staff';
import { runAction } from '../session/run-action';
import { useStaff } from '../session/staff-context';
import { ConsolePage } from '../components/section';

/**
 * A new password: forced after the one-time password (nothing else is reachable until then),
 * or chosen from the top bar.
 */
export function ChangePasswordPage(props: { forced: boolean; onChanged: () => void }) {
  const { t } = useTranslation();
  const { client, signOut } = useStaff();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ old?: string; new?: string; repeat?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      old: oldPassword === '' ? t('staff.password.old_required') : undefined,
      new: isValidNewPassword(newPassword) ? undefined : t('staff.password.new_invalid'),
      repeat: repeat === newPassword ? undefined : t('staff.password.repeat_mismatch'),
    };
    setErrors(found);
    if (found.old || found.new || found.repeat) return;
    setBusy(true);
    const done = await runAction(() => client.call(staffPassword, { oldPassword, newPassword }), t('staff.password.changed'));
    setBusy(false);
    if (done) {
      setOldPassword('');
      setNewPassword('');
      setRepeat('');
      props.onChanged();
    }
  };

  const form = (
    <form className="staff-sign-in-card" onSubmit={(event) => void submit(event)} noValidate>
      {props.forced ? (
        <>
          <h1>{t('staff.password.forced_title')}</h1>
          <p className="staff-muted">{t('staff.password.forced_intro')}</p>
        </>
      ) : null}
      <TextField label={t('staff.password.old')} value={oldPassword} onChange={setOldPassword} type="password" autoComplete="current-password" maxLength={passwordMaxLength} error={errors.old} />
      <TextField label={t('staff.password.new')} value={newPassword} onChange={setNewPassword} type="password" autoComplete="new-password" maxLength={passwordMaxLength} error={errors.new} />
      <TextField label={t('staff.password.repeat')} value={repeat} onChange={setRepeat} type="password" autoComplete="new-password" maxLength={passwordMaxLength} error={errors.repeat} />
      <button type="submit" className="button primary" disabled={busy}>
        {t('staff.password.submit')}
      </button>
      {props.forced ? (
        <button type="button" className="button secondary" onClick={signOut}>
          {t('staff.sign_out')}
        </button>
      ) : null}
    </form>
  );
  if (props.forced) return <main className="staff-sign-in">{form}</main>;
  return <ConsolePage title={t('staff.password.change')}>{form}</ConsolePage>;
}
