import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { WithdrawForm } from '../../features/money/withdraw/withdraw-form';

/** `/user/withdraw`: the withdrawal form. */
export function WithdrawPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.withdraw')}>
      <WithdrawForm />
    </PageFrame>
  );
}
