import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { BankCardForm } from '../../features/money/withdraw/bank-cards';

/** `/user/wallet/addBankCard`. */
export function AddBankCardPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.add_bank_card')}>
      <BankCardForm cardId={null} />
    </PageFrame>
  );
}
