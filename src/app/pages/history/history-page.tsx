import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { useIsDesktop } from '../../layouts/use-viewport';
import { HistoryGrid } from './history-grid';
import { MarketHistoryList } from './history-list';

/**
 * `/history`: the account's closed market orders with the realized profit and loss, as a
 * list on phones and a grid on desktop. (Settled options will join as another list with
 * their own rows and drawer on the same paged-list hook.)
 */
export function HistoryPage() {
  const { t } = useTranslation();
  const isDesktop = useIsDesktop();
  return (
    <PageFrame back={false} title={t('page.history')} fill>
      {isDesktop ? <HistoryGrid /> : <MarketHistoryList />}
    </PageFrame>
  );
}
