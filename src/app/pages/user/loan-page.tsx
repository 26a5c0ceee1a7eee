import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { LoanScreen } from '../../features/money/loan/loan-screen';

/** `/user/loan`: a loan request, or the repayment view while a loan is active. */
export function LoanPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.loan')}>
      <LoanScreen />
    </PageFrame>
  );
}
