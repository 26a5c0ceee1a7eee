import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../app/components/checkbox';
import { confirmDialog } from '../../app/components/confirm';
import { copyText } from '../../app/components/copy-text';
import { Dialog } from '../../app/components/dialog';
import { TextField } from '../../app/components/text-field';
import { isValidEmail } from '../../shared/auth/validation';
import { staffCreate, staffDisable, staffList, staffSetRoles, type StaffMember } from '../../shared/api/staff';
import { staffRoles, type StaffRole } from '../../shared/staff/roles';
import { ConsolePage } from '../components/section';
import { gridColumns, StaffGrid } from '../components/staff-grid';
import { runAction } from '../session/run-action';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';

const column = gridColumns<StaffMember>();
type Credentials = { email: string; oneTimePassword: string; otpauthUrl: string };

/** Staff management (admin): the list, a new member (credentials shown once), roles, disabling. */
export function StaffMembersPage() {
  const { t } = useTranslation();
  const { client, me } = useStaff();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const members = useLoad(() => client.call(staffList, { page, limit: 50 }), [page]);
  const [creating, setCreating] = useState(false);
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [editing, setEditing] = useState<StaffMember | null>(null);

  const disable = async (member: StaffMember) => {
    const confirmed = await confirmDialog({
      title: t('staff.members.disable'),
      message: t('staff.members.disable_confirm', { email: member.email }),
      confirmLabel: t('staff.members.disable'),
    });
    if (!confirmed) return;
    if (await runAction(() => client.call(staffDisable, { staffId: member.staffId }), t('staff.members.disabled_done', { email: member.email }))) members.reload();
  };

  const columns = [
    column.accessor('email', { header: t('staff.members.email') }),
    column.accessor((row) => row.roles.map((role) => t(`staff.roles.${role}`)).join(', '), { id: 'roles', header: t('staff.members.roles') }),
    column.accessor((row) => (row.disabled ? t('staff.members.state_disabled') : row.mustChangePassword ? t('staff.members.state_new') : t('staff.members.state_active')), {
      id: 'state',
      header: t('staff.members.state'),
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
          initialRoles={[]}
          onClose={() => setCreating(false)}
          onSubmit={async (email, roles) => {
            const done = await runAction(
              async () => setCredentials({ email, ...(await client.call(staffCreate, { email, roles })) }),
              t('staff.members.created_done', { email }),
            );
            if (done) members.reload();
            return done;
          }}
        />
      ) : null}
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
      {credentials ? <CredentialsDialog credentials={credentials} onClose={() => setCredentials(null)} /> : null}
    </ConsolePage>
  );
}

function RolesDialog(props: {
  title: string;
  askEmail?: boolean;
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
      footer={
        <>
          <button type="button" className="button secondary" onClick={props.onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button primary" disabled={busy} onClick={() => void submit()}>
            {props.askEmail ? t('staff.members.create') : t('staff.common.save')}
          </button>
        </>
      }
    >
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

/** The otpauth URL as an SVG QR code (a data URL); the QR library loads only when credentials are shown. */
async function qrCodeSource(otpauthUrl: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

/** The one-time password and the authenticator URL (with its QR code), shown once: the server keeps neither in a form it can show again. */
function CredentialsDialog(props: { credentials: Credentials; onClose: () => void }) {
  const { t } = useTranslation();
  const copied = { copied: t('staff.members.copied'), failed: t('staff.members.copy_failed') };
  const [qr, setQr] = useState<{ url: string; source: string } | null>(null);
  const url = props.credentials.otpauthUrl;
  useEffect(() => {
    let current = true;
    qrCodeSource(url).then(
      (source) => current && setQr({ url, source }),
      () => undefined, // the address can still be copied
    );
    return () => {
      current = false;
    };
  }, [url]);
  return (
    <Dialog
      title={t('staff.members.credentials_title', { email: props.credentials.email })}
      onClose={props.onClose}
      footer={
        <button type="button" className="button primary" onClick={props.onClose}>
          {t('common.done')}
        </button>
      }
    >
      <p className="staff-warning">{t('staff.members.credentials_once')}</p>
      <dl className="staff-facts staff-credentials">
        <div>
          <dt>{t('staff.members.one_time_password')}</dt>
          <dd>
            <code aria-label={t('staff.members.one_time_password')}>{props.credentials.oneTimePassword}</code>
            <button type="button" className="button secondary staff-small-button" onClick={() => void copyText(props.credentials.oneTimePassword, copied)}>
              {t('staff.members.copy_password')}
            </button>
          </dd>
        </div>
        <div>
          <dt>{t('staff.members.otpauth_url')}</dt>
          <dd>
            <code className="staff-break" aria-label={t('staff.members.otpauth_url')}>{props.credentials.otpauthUrl}</code>
            <button type="button" className="button secondary staff-small-button" onClick={() => void copyText(props.credentials.otpauthUrl, copied)}>
              {t('staff.members.copy_url')}
            </button>
          </dd>
        </div>
      </dl>
      {qr && qr.url === url ? <img className="staff-qr" src={qr.source} alt={t('staff.members.qr')} width={180} height={180} /> : null}
    </Dialog>
  );
}
