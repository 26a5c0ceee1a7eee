import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { FundRecords } from '../../features/money/records/fund-records';

/** `/user/wallet/depositList`: the deposit and withdrawal records. */
export function DepositListPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.deposit_list')} fill>
      <FundRecords />
    </PageFrame>
  );
}
