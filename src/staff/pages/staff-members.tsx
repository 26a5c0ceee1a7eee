import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../app/components/checkbox';
import { confirmDialog } from '../../app/components/confirm';
import { Dialog } from '../../app/components/dialog';
import { TextField } from '../../app/components/text-field';
import { isValidEmail } from '../../shared/auth/validation';
import { staffCreate, staffDisable, staffList, staffRecordAccountLink, staffResendInvitation, staffSetRoles, type StaffMember } from '../../shared/api/staff';
import { staffRoles, type StaffRole } from '../../shared/staff/roles';
import { ConsolePage } from '../components/section';
import { gridColumns, StaffGrid } from '../components/staff-grid';
import { runAction } from '../session/run-action';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';
import { DialogFooter } from '../components/dialog-footer';

const column = gridColumns<StaffMember>();

/** The state column's words: an invited member's link may have expired (the server's list says when it ends). */
function memberState(member: StaffMember, nowMs: number): string {
  if (member.disabled) return 'staff.members.state_disabled';
  if (!member.enrolled) return member.invitationExpiresTime !== null && member.invitationExpiresTime <= nowMs ? 'staff.members.state_invitation_expired' : 'staff.members.state_invited';
  return member.mustChangePassword ? 'staff.members.state_new' : 'staff.members.state_active';
}

/** Staff management (admin): the list, inviting a new member (who sets their own credentials) or inviting them again, roles, disabling. */
export function StaffMembersPage() {
  const { t } = useTranslation();
  const { client, me } = useStaff();
  const format = useFormat();
  const [page, setPage] = useState(1);
  // When the list was read: an invitation is "expired" as of then (a render must not read the clock).
  const members = useLoad(async () => ({ ...(await client.call(staffList, { page, limit: 50 })), readAtMs: Date.now() }), [page]);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [linking, setLinking] = useState<StaffMember | null>(null);

  const disable = async (member: StaffMember) => {
    const confirmed = await confirmDialog({
      title: t('staff.members.disable'),
      message: t('staff.members.disable_confirm', { email: member.email }),
      confirmLabel: t('staff.members.disable'),
    });
    if (!confirmed) return;
    if (await runAction(() => client.call(staffDisable, { staffId: member.staffId }), t('staff.members.disabled_done', { email: member.email }))) members.reload();
  };

  const resend = async (member: StaffMember) => {
    const confirmed = await confirmDialog({
      title: t('staff.members.resend'),
      message: t('staff.members.resend_confirm', { email: member.email }),
      confirmLabel: t('staff.members.resend'),
    });
    if (!confirmed) return;
    const done = await runAction(
      () => client.call(staffResendInvitation, { staffId: member.staffId }),
      (answer) => t('staff.members.resent_done', { email: answer.invitationSentTo }),
    );
    if (done) members.reload();
  };

  const columns = [
    column.accessor('email', { header: t('staff.members.email') }),
    column.accessor((row) => row.roles.map((role) => t(`staff.roles.${role}`)).join(', '), { id: 'roles', header: t('staff.members.roles') }),
    column.accessor((row) => t(memberState(row, members.data?.readAtMs ?? 0)), {
      id: 'state',
      header: t('staff.members.state'),
    }),
    column.accessor((row) => t(row.documentDeclared ? 'staff.members.document_declared' : 'staff.members.document_missing'), { id: 'document', header: t('staff.members.document') }),
    column.accessor((row) => (row.linkedUids.length === 0 ? '—' : row.linkedUids.join(', ')), {
      id: 'linked',
      header: t('staff.members.linked'),
      // Recording one more sits with the list it adds to, not among the row's actions.
      cell: (info) => (
        <span className="staff-row">
          <span className="numeric">{info.getValue()}</span>
          {info.row.original.disabled ? null : (
            <button type="button" className="button secondary staff-small-button" aria-label={t('staff.members.link_named', { email: info.row.original.email })} onClick={() => setLinking(info.row.original)}>
              {t('staff.members.link_short')}
            </button>
          )}
        </span>
      ),
    }),
    column.accessor('createdTime', { header: t('staff.members.created'), cell: (info) => format.time(info.getValue()) }),
    column.accessor('lastSignInTime', { header: t('staff.members.last_sign_in'), cell: (info) => format.time(info.getValue()) }),
    column.display({
      id: 'actions',
      header: () => <span className="visually-hidden">{t('staff.common.actions')}</span>,
      cell: (info) => {
        const member = info.row.original;
        // The server refuses changing oneself (2006); the console does not offer it.
        if (member.disabled || member.staffId === me.staffId) return null;
        return (
          <span className="staff-row">
            {member.enrolled ? null : (
              <button type="button" className="button secondary staff-small-button" aria-label={t('staff.members.resend_named', { email: member.email })} onClick={() => void resend(member)}>
                {t('staff.members.resend')}
              </button>
            )}
            <button type="button" className="button secondary staff-small-button" aria-label={t('staff.members.set_roles_named', { email: member.email })} onClick={() => setEditing(member)}>
              {t('staff.members.set_roles')}
            </button>
            <button type="button" className="button secondary staff-small-button" aria-label={t('staff.members.disable_named', { email: member.email })} onClick={() => void disable(member)}>
              {t('staff.members.disable')}
            </button>
          </span>
        );
      },
    }),
  ];

  return (
    <ConsolePage
      title={t('staff.members.title')}
      actions={
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          {t('staff.members.create')}
        </button>
      }
    >
      <StaffGrid label={t('staff.members.title')} filterable columns={columns} data={members.data?.list ?? []} rowKey={(row) => String(row.staffId)} serverPages={{ page, pages: members.data?.pages ?? 1, onPage: setPage }} />
      {creating ? (
        <RolesDialog
          title={t('staff.members.create')}
          askEmail
          intro={t('staff.members.create_intro')}
          initialRoles={[]}
          onClose={() => setCreating(false)}
          onSubmit={async (email, roles) => {
            const done = await runAction(
              () => client.call(staffCreate, { email, roles }),
              (answer) => t('staff.members.invited_done', { email: answer.invitationSentTo }),
            );
            if (done) members.reload();
            return done;
          }}
        />
      ) : null}
      {linking ? <RecordLinkDialog member={linking} onClose={() => setLinking(null)} onDone={members.reload} /> : null}
      {editing ? (
        <RolesDialog
          title={t('staff.members.set_roles_named', { email: editing.email })}
          initialRoles={editing.roles}
          onClose={() => setEditing(null)}
          onSubmit={async (_email, roles) => {
            const done = await runAction(() => client.call(staffSetRoles, { staffId: editing.staffId, roles }), t('staff.members.roles_saved', { email: editing.email }));
            if (done) members.reload();
            return done;
          }}
        />
      ) : null}
    </ConsolePage>
  );
}

function RolesDialog(props: {
  title: string;
  askEmail?: boolean;
  intro?: string;
  initialRoles: readonly StaffRole[];
  onSubmit: (email: string, roles: StaffRole[]) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [roles, setRoles] = useState<StaffRole[]>([...props.initialRoles]);
  const [errors, setErrors] = useState<{ email?: string; roles?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const found = {
      email: props.askEmail && !isValidEmail(email.trim()) ? t('staff.sign_in.email_invalid') : undefined,
      roles: roles.length === 0 ? t('staff.members.roles_required') : undefined,
    };
    setErrors(found);
    if (found.email || found.roles) return;
    setBusy(true);
    const done = await props.onSubmit(email.trim().toLowerCase(), roles);
    setBusy(false);
    if (done) props.onClose();
  };
  return (
    <Dialog
      title={props.title}
      onClose={props.onClose}
      footer={<DialogFooter confirmLabel={props.askEmail ? t('staff.members.create') : t('staff.common.save')} disabled={busy} onCancel={props.onClose} onConfirm={() => void submit()} />}
    >
      {props.intro ? <p className="staff-muted">{props.intro}</p> : null}
      {props.askEmail ? <TextField label={t('staff.members.email')} value={email} onChange={setEmail} type="email" inputMode="email" maxLength={254} error={errors.email} /> : null}
      <fieldset className="staff-radios">
        <legend>{t('staff.members.roles')}</legend>
        {staffRoles.map((role) => (
          <Checkbox
            key={role}
            label={t(`staff.roles.${role}`)}
            checked={roles.includes(role)}
            onChange={(checked) => setRoles(checked ? staffRoles.filter((candidate) => candidate === role || roles.includes(candidate)) : roles.filter((candidate) => candidate !== role))}
          />
        ))}
      </fieldset>
      {errors.roles ? <p className="field-error" role="alert">{errors.roles}</p> : null}
    </Dialog>
  );
}

/** Records a customer account as a member's own (what they left undeclared): they decide none of its items from then on. */
function RecordLinkDialog(props: { member: StaffMember; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { client } = useStaff();
  const [uid, setUid] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const value = uid.trim();
    if (!/^[1-9]\d{0,9}$/.test(value)) {
      setError(t('staff.declarations.uid_invalid'));
      return;
    }
    setError(null);
    setBusy(true);
    const done = await runAction(() => client.call(staffRecordAccountLink, { staffId: props.member.staffId, uid: Number(value) }), t('staff.members.link_done', { uid: value, email: props.member.email }));
    setBusy(false);
    if (done) {
      props.onDone();
      props.onClose();
    }
  };
  return (
    <Dialog
      title={t('staff.members.link_named', { email: props.member.email })}
      onClose={props.onClose}
      footer={<DialogFooter confirmLabel={t('staff.members.link')} disabled={busy} onCancel={props.onClose} onConfirm={() => void submit()} />}
    >
      <p className="staff-muted">{t('staff.members.link_intro')}</p>
      <TextField label={t('staff.declarations.uid')} value={uid} onChange={setUid} inputMode="numeric" maxLength={10} error={error} />
    </Dialog>
  );
}
