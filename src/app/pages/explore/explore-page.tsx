import { useTranslation } from 'react-i18next';

/** Explore is empty by design (the label exists; the page has no content). */
export function ExplorePage() {
  const { t } = useTranslation();
  return (
    <section className="page" aria-label={t('page.explore')}>
      <div className="page-content" />
    </section>
  );
}
