import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'wouter';
import { customersSearch, type CustomerRow } from '../../shared/api/staff';
import { ConsolePage } from '../components/section';
import { gridColumns, StaffGrid } from '../components/staff-grid';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';

const column = gridColumns<CustomerRow>();

/** Search customers by uid, e-mail or phone; the query lives in the address so Back returns to it. */
export function CustomersPage() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const format = useFormat();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const [typed, setTyped] = useState(query);
  const result = useLoad(async () => (query ? client.call(customersSearch, { query, page, limit: 20 }) : null), [query, page]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() === '') return;
    setParams({ q: typed.trim(), page: '1' });
  };

  const columns = [
    column.accessor('uid', { header: t('staff.customer.uid'), cell: (info) => <Link href={`/customers/${info.getValue()}`}>{info.getValue()}</Link> }),
    column.accessor((row) => row.email ?? '—', { id: 'email', header: t('staff.customer.email') }),
    column.accessor((row) => row.phone ?? '—', { id: 'phone', header: t('staff.customer.phone') }),
    column.accessor('nick', { header: t('staff.customer.nick') }),
    column.accessor('createdTime', { header: t('staff.customer.created'), cell: (info) => format.time(info.getValue()) }),
    column.accessor((row) => (row.tradeProhibited ? t('staff.customer.prohibited') : t('staff.customer.allowed')), { id: 'trading', header: t('staff.customer.trading') }),
    column.accessor((row) => verificationLabel(row.verifiedStatus, t), { id: 'verified', header: t('staff.customer.verification') }),
  ];

  return (
    <ConsolePage title={t('staff.customers.title')}>
      <form className="staff-search" role="search" onSubmit={submit}>
        <input
          className="staff-input"
          type="search"
          aria-label={t('staff.customers.query')}
          placeholder={t('staff.customers.query')}
          value={typed}
          maxLength={254}
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit" className="button primary">
          {t('common.search')}
        </button>
      </form>
      {query ? (
        <StaffGrid
          label={t('staff.customers.results')}
          columns={columns}
          data={result.data?.list ?? []}
          rowKey={(row) => String(row.uid)}
          empty={result.loading ? t('common.loading') : t('staff.customers.none')}
          serverPages={{ page, pages: result.data?.pages ?? 1, onPage: (next) => setParams({ q: query, page: String(next) }) }}
        />
      ) : (
        <p className="staff-muted">{t('staff.customers.hint')}</p>
      )}
    </ConsolePage>
  );
}

/** The full identity verification's status (0 none, 1 under review, 2 verified, 3 rejected); another number is shown as it is. */
export function verificationLabel(status: number, t: TFunction): string {
  switch (status) {
    case 0:
      return t('staff.verified.none');
    case 1:
      return t('staff.verified.authenticating');
    case 2:
      return t('staff.verified.authenticated');
    case 3:
      return t('staff.verified.failed');
    default:
      return t('staff.verified.status', { status });
  }
}
