import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { JuniorVerificationForm } from '../../features/verification/junior-verification-form';
import { VerificationForm } from '../../features/verification/verification-form';

/** `/user/verified`: the full identity verification. */
export function VerifiedPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.verified')}>
      <VerificationForm />
    </PageFrame>
  );
}

/** `/user/juniorVerified`: the junior verification (name and number). */
export function JuniorVerifiedPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.junior_verified')}>
      <JuniorVerificationForm />
    </PageFrame>
  );
}
