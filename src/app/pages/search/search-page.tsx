import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { PageFrame } from '../../components/page-frame';
import { SearchBoard } from '../../features/catalogue/search-board';
import { useOpenProduct } from '../../features/catalogue/use-open-product';
import { useIsDesktop } from '../../layouts/use-viewport';

/** `/search?q=`: the keyword lives in the URL, so back and reload keep the results. Desktop closes to home (its back button or Escape). */
export function SearchPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  const openProduct = useOpenProduct();
  const query = new URLSearchParams(useSearch()).get('q') ?? '';
  // From before paint, so an Escape as soon as search shows is not missed.
  useLayoutEffect(() => {
    if (!isDesktop) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) navigate('/');
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [isDesktop, navigate]);
  return (
    <PageFrame title={t('page.search')} back={isDesktop ? '/' : undefined} fill>
      <SearchBoard
        query={query}
        onQuery={(keyword) => navigate(keyword ? `/search?q=${encodeURIComponent(keyword)}` : '/search', { replace: true })}
        onOpen={openProduct}
      />
    </PageFrame>
  );
}
