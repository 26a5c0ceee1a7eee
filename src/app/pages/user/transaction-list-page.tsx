import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { PageFrame } from '../../components/page-frame';
import { TransactionList } from '../../features/money/records/transaction-list';
import { transactionQueryOf } from '../../features/money/records/transaction-query';

/** `/user/wallet/transactionList`: the trades of the account; `?uid=` / `?optionUID=` open one at once. */
export function TransactionListPage() {
  const { t } = useTranslation();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const query = transactionQueryOf(search);
  return (
    <PageFrame title={t('page.transaction_list')} fill>
      {/* A new id in the address is a new lookup. */}
      <TransactionList key={search} query={query} onQueryDone={() => navigate(location, { replace: true })} />
    </PageFrame>
  );
}
