import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { StaticText } from '../../features/profile/static-text';

/** `/user/standards`: the brand's trading standards (static marketing text in 11 languages). */
export function StandardsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.standards')}>
      <StaticText part="standards" />
    </PageFrame>
  );
}

/** `/user/privacy`: the privacy policy (effective 2018-12-14, for people aged 16 and over). */
export function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.privacy')}>
      <StaticText part="privacy" />
    </PageFrame>
  );
}
