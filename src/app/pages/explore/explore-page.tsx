import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';

/** Explore is empty by design (the specification names the tab; the page has no content): its title only. */
export function ExplorePage() {
  const { t } = useTranslation();
  return <PageFrame back={false} title={t('page.explore')} />;
}
