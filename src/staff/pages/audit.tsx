import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { auditList, type AuditRow } from '../../shared/api/staff';
import { ConsolePage } from '../components/section';
import { gridColumns, StaffGrid } from '../components/staff-grid';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';
import { useChangeText } from './use-change-text';
import { auditTargetText } from './audit-change';

const column = gridColumns<AuditRow>();

interface AuditFilters {
  staffId?: number;
  uid?: number;
  action?: string;
}

/** The audit trail (newest first, as the server pages it), filtered by staff member, customer and action. */
export function AuditPage() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const format = useFormat();
  const change = useChangeText();
  const [typed, setTyped] = useState({ staffId: '', uid: '', action: '' });
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const [invalid, setInvalid] = useState(false);
  const rows = useLoad(() => client.call(auditList, { page, limit: 50, ...filters }), [page, filters]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const id = (text: string) => (text.trim() === '' ? undefined : /^\d{1,12}$/.test(text.trim()) && Number(text) > 0 ? Number(text.trim()) : null);
    const staffId = id(typed.staffId);
    const uid = id(typed.uid);
    setInvalid(staffId === null || uid === null);
    if (staffId === null || uid === null) return;
    setPage(1);
    setFilters({ staffId, uid, action: typed.action.trim() || undefined });
  };

  const columns = [
    column.accessor('time', { header: t('staff.audit.time'), cell: (info) => format.time(info.getValue()) }),
    column.accessor((row) => row.staffEmail ?? (row.staffId === null ? t('staff.audit.system') : `#${row.staffId}`), { id: 'staff', header: t('staff.audit.staff') }),
    column.accessor('action', {
      header: t('staff.audit.action'),
      // A known action reads as words; a new one still shows, by its name.
      cell: (info) => <span title={info.getValue()}>{t(`staff.actions.${info.getValue().replace('.', '_')}`, { defaultValue: info.getValue() })}</span>,
    }),
    column.accessor((row) => auditTargetText(row.targetType, row.targetId, (type) => t(`staff.audit.targets.${type}`)), {
      id: 'target',
      header: t('staff.audit.target'),
      // Worded anew on each render, as the change is: a language chosen later shows at once.
      cell: (info) => <span className="staff-nowrap">{auditTargetText(info.row.original.targetType, info.row.original.targetId, (type) => t(`staff.audit.targets.${type}`))}</span>,
    }),
    column.accessor((row) => change.describe(row.before, row.after), {
      id: 'change',
      header: t('staff.audit.change'),
      enableSorting: false,
      // The accessor's lines serve the filter (the table keeps them per row); the cell words
      // them anew, so a language chosen later shows at once.
      cell: (info) => {
        const lines = change.describe(info.row.original.before, info.row.original.after);
        return lines.length === 0 ? (
          '—'
        ) : (
          <ul className="staff-change">
            {lines.map((line) => (
              <li key={line.field}>
                <span className="staff-change-field">{change.fieldLabel(line.field)}</span>: <del>{line.before}</del> → <ins>{line.after}</ins>
              </li>
            ))}
          </ul>
        );
      },
    }),
    column.accessor((row) => row.address ?? '—', { id: 'address', header: t('staff.audit.address') }),
  ];

  return (
    <ConsolePage title={t('staff.audit.title')}>
      <form className="staff-filters" onSubmit={apply} aria-label={t('staff.audit.filters')}>
        <input className="staff-input" aria-label={t('staff.audit.staff_id')} placeholder={t('staff.audit.staff_id')} inputMode="numeric" value={typed.staffId} onChange={(event) => setTyped({ ...typed, staffId: event.target.value })} />
        <input className="staff-input" aria-label={t('staff.audit.uid')} placeholder={t('staff.audit.uid')} inputMode="numeric" value={typed.uid} onChange={(event) => setTyped({ ...typed, uid: event.target.value })} />
        <input className="staff-input staff-input-fits" aria-label={t('staff.audit.action')} placeholder={t('staff.audit.action_placeholder')} maxLength={64} value={typed.action} onChange={(event) => setTyped({ ...typed, action: event.target.value })} />
        <button type="submit" className="button primary">
          {t('staff.audit.apply')}
        </button>
      </form>
      {invalid ? <p className="field-error" role="alert">{t('staff.audit.ids_invalid')}</p> : null}
      <StaffGrid
        label={t('staff.audit.title')}
        filterable
        data={rows.data?.list ?? []}
        rowKey={(row) => String(row.id)}
        empty={rows.loading ? t('common.loading') : t('staff.grid.empty')}
        serverPages={{ page, pages: rows.data?.pages ?? 1, onPage: setPage }}
        columns={columns}
      />
    </ConsolePage>
  );
}
