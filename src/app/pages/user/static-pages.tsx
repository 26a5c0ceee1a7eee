import { useTranslation } from 'react-i18next';
import { BrandPage } from '../../features/profile/brand-page';

/** `/user/standards`: the brand's trading standards (its pages/<lang>.json). */
export function StandardsPage() {
  const { t } = useTranslation();
  return <BrandPage page="standards" fallbackTitle={t('page.standards')} />;
}

/** `/user/privacy`: the brand's privacy policy (its pages/<lang>.json). */
export function PrivacyPage() {
  const { t } = useTranslation();
  return <BrandPage page="privacy" fallbackTitle={t('page.privacy')} />;
}
