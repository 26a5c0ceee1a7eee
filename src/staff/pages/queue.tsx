import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'wouter';
import { reviewsList, type ReviewItem } from '../../shared/api/staff';
import { openReviewFilter, reviewStatuses, type ReviewKind, type ReviewStatus } from '../../shared/staff/roles';
import { ConsolePage, Tabs } from '../components/section';
import { gridColumns, StaffGrid } from '../components/staff-grid';
import { reviewKindsFor } from '../navigation';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';
import { factRows } from './review-facts';

const column = gridColumns<ReviewItem>();

function isStatus(value: string | null): value is ReviewStatus {
  return value !== null && (reviewStatuses as readonly string[]).includes(value);
}

/** A review queue: the kinds the member may decide as tabs with their open counts, a status filter, the items. */
export function QueuePage() {
  const { t } = useTranslation();
  const { client, me, config } = useStaff();
  const format = useFormat();
  const [, navigate] = useLocation();
  const kinds = reviewKindsFor(me.roles);
  const requested = useParams<{ kind: string }>().kind;
  const kind = kinds.find((candidate) => candidate === requested) ?? kinds[0];
  const [params, setParams] = useSearchParams();
  const statusParam = params.get('status');
  // Open items first (pending, or awaiting a second approver): a queue is for what still awaits someone.
  const status: ReviewStatus | typeof openReviewFilter | 'all' = statusParam === 'all' ? 'all' : isStatus(statusParam) ? statusParam : openReviewFilter;
  const page = Number(params.get('page') ?? '1') || 1;
  const list = useLoad(
    async () => (kind ? client.call(reviewsList, { kind, status: status === 'all' ? undefined : status, page, limit: 20 }) : null),
    [kind, status, page],
  );
  if (!kind) return null;
  const counts = list.data?.counts ?? {};
  const kindLabel = (candidate: ReviewKind) => `${t(`staff.kinds.${candidate}`)} (${counts[candidate] ?? 0})`;

  const factsText = (facts: Record<string, string>) => factRows(facts, { grouping: config.amountCommaGrouping, t }).map(([label, value]) => `${label}: ${value}`).join(' · ');

  const columns = [
    column.accessor('id', { header: t('staff.reviews.id'), cell: (info) => <Link href={`/queues/${kind}/${info.getValue()}`}>#{info.getValue()}</Link> }),
    column.accessor('uid', { header: t('staff.customer.uid'), cell: (info) => <Link href={`/customers/${info.getValue()}`}>{info.getValue()}</Link> }),
    column.accessor('status', { header: t('staff.reviews.status'), cell: (info) => <span className={`staff-status staff-review-${info.getValue()}`}>{t(`staff.statuses.${info.getValue()}`)}</span> }),
    column.accessor((row) => factsText(row.facts), {
      id: 'facts',
      header: t('staff.reviews.facts'),
      // Worded anew on each render (the table keeps accessor values per row): a language chosen later shows at once.
      cell: (info) => factsText(info.row.original.facts),
    }),
    column.accessor((row) => row.amountUsd, { id: 'amountUsd', header: t('staff.reviews.amount_usd'), cell: (info) => { const amount = info.getValue(); return amount === null ? '—' : format.amount(amount); } }),
    column.accessor((row) => (row.needsTwoApprovals ? t('staff.reviews.two_approvals') : t('staff.reviews.one_approval')), { id: 'approvals', header: t('staff.reviews.approvals') }),
    column.accessor('createdTime', { header: t('staff.reviews.created'), cell: (info) => format.time(info.getValue()) }),
  ];

  return (
    <ConsolePage title={t('staff.reviews.title')}>
      <Tabs label={t('staff.reviews.kinds')} tabs={kinds.map((candidate) => ({ id: candidate, label: kindLabel(candidate) }))} current={kind} onChange={(next) => navigate(`/queues/${next}`)} />
      <StaffGrid
        label={t('staff.reviews.list', { kind: t(`staff.kinds.${kind}`) })}
        filterable
        data={list.data?.list ?? []}
        rowKey={(row) => String(row.id)}
        empty={list.loading ? t('common.loading') : t('staff.reviews.none')}
        serverPages={{ page, pages: list.data?.pages ?? 1, onPage: (next) => setParams({ status, page: String(next) }) }}
        toolbar={
          <label className="staff-inline-field">
            {t('staff.reviews.status')}
            <select className="staff-select" value={status} onChange={(event) => setParams({ status: event.target.value, page: '1' })}>
              <option value={openReviewFilter}>{t('staff.statuses.open')}</option>
              <option value="all">{t('staff.statuses.all')}</option>
              {reviewStatuses.map((candidate) => (
                <option key={candidate} value={candidate}>
                  {t(`staff.statuses.${candidate}`)}
                </option>
              ))}
            </select>
          </label>
        }
        columns={columns}
      />
    </ConsolePage>
  );
}
