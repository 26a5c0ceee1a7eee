import { useSignals } from '@preact/signals-react/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { searchProducts } from '../../../shared/market/product-list';
import { useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { useIsDesktop } from '../../layouts/use-viewport';
import { productsSignal, useProducts } from '../../market/products';
import { ProductsPending } from '../quotation/quotation-page';
import { QuoteList } from '../quotation/quote-list';

/** Longest keyword accepted; product codes and names are far shorter. */
const keywordMaxLength = 32;

/**
 * Search: a keyword (Enter or the icon runs it), the brand's hot-search buttons, and the
 * matching tradable products with live quotes. The keyword lives in the URL (`?q=`), so
 * back and reload keep the results.
 */
export function SearchPage() {
  useSignals();
  useProducts();
  const { t } = useTranslation();
  const { config } = useApp();
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  const query = new URLSearchParams(useSearch()).get('q') ?? '';
  const [draft, setDraft] = useState(query);
  const state = productsSignal.value;
  const results = searchProducts(state.list, query);

  function run(keyword: string) {
    const trimmed = keyword.trim().slice(0, keywordMaxLength);
    setDraft(trimmed);
    navigate(trimmed ? `/search?q=${encodeURIComponent(trimmed)}` : '/search', { replace: true });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    run(draft);
  }

  return (
    <PageFrame title={t('page.search')} back={isDesktop ? '/' : undefined} fill>
      <form className="search-form" role="search" onSubmit={onSubmit}>
        <input
          type="search"
          className="search-input"
          value={draft}
          maxLength={keywordMaxLength}
          placeholder={t('market.search_placeholder')}
          aria-label={t('market.search_keyword')}
          enterKeyHint="search"
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className="icon-button" aria-label={t('common.search')}>
          ⌕
        </button>
      </form>
      <div className="hot-search" role="group" aria-label={t('market.hot_search')}>
        {config.hotSearch.map((term) => (
          <button key={term} type="button" className="chip" aria-pressed={query === term} onClick={() => run(term)}>
            {term}
          </button>
        ))}
      </div>
      <div className="quote-panel">
        {state.status !== 'ready' && state.list.length === 0 ? (
          <ProductsPending />
        ) : !query ? null : results.length === 0 ? (
          <p className="list-state" role="status">{t('market.search_no_results', { keyword: query })}</p>
        ) : (
          <QuoteList products={results} label={t('market.search_results')} onOpen={(symbol) => navigate(`/${symbol}/chart`)} />
        )}
      </div>
    </PageFrame>
  );
}
