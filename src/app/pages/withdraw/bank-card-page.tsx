import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { BankCardList } from '../../features/money/withdraw/bank-cards';

/** `/user/wallet/bankCard`: the bank cards. */
export function BankCardPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.bank_card')}>
      <BankCardList />
    </PageFrame>
  );
}
