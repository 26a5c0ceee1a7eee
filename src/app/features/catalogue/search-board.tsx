import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { searchProducts, searchStartProducts, withRecentSymbol } from '../../../shared/market/product-search';
import { preferences, savePreferences } from '../../preferences/preferences';
import { useApp } from '../../app-context';
import { sessionSignal } from '../../engine/signals';
import { productsSignal, useProducts } from './products';
import { searchListSignal, useSearchList } from './search-list';
import { ProductsPending } from './products-pending';
import { QuoteList } from './quote-list';
import { ShortQuoteList } from './quote-row';
import { Icon } from '../../components/icons';
import { useTradeModeContext } from './trade-mode-context';

/** Longest keyword accepted; product codes and names are far shorter. */
const keywordMaxLength = 32;
/** Typing pauses this long before the results follow: one search per word, not per key. */
export const searchAsYouTypeDelayMs = 250;

/**
 * A keyword (focused as search opens; searched as it is typed, after a short pause; Enter or
 * the icon runs it at once), the brand's hot-search buttons, and the matching tradable
 * products with live quotes: from the signed-in search list (`product/searchList`) for a
 * trader, from the catalogue for a visitor. Before anything is typed: the products opened
 * from search lately (kept in the preferences) and the brand's popular ones.
 */
export function SearchBoard(props: { query: string; onQuery: (keyword: string) => void; onOpen: (symbol: string) => void }) {
  useSignals();
  const signedIn = sessionSignal.value.signedIn;
  useProducts();
  useSearchList(signedIn);
  const { t } = useTranslation();
  const { config } = useApp();
  const [draft, setDraft] = useState(props.query);
  // Should the search list fail, the catalogue still answers (the server checks every order anyway).
  const state = signedIn && searchListSignal.value.status !== 'failed' ? searchListSignal.value : productsSignal.value;
  const { context, pending } = useTradeModeContext();
  const results = searchProducts(state.list, props.query, context);
  const [recent, setRecent] = useState<readonly string[]>(() => preferences().recentSymbols ?? []);
  const start = searchStartProducts(state.list, recent, config.hotProducts, context);
  const input = useRef<HTMLInputElement>(null);
  const headingId = useId();
  useEffect(() => input.current?.focus(), []);

  function open(symbol: string) {
    const next = withRecentSymbol(recent, symbol);
    setRecent(next);
    void savePreferences({ recentSymbols: next });
    props.onOpen(symbol);
  }

  function clearRecent() {
    setRecent([]);
    void savePreferences({ recentSymbols: [] });
  }

  // The latest callback without restarting the pause on every render.
  const onQuery = useRef(props.onQuery);
  useEffect(() => {
    onQuery.current = props.onQuery;
  });
  const query = props.query;
  useEffect(() => {
    const keyword = draft.trim().slice(0, keywordMaxLength);
    if (keyword === query) return;
    const timer = setTimeout(() => onQuery.current(keyword), searchAsYouTypeDelayMs);
    return () => clearTimeout(timer);
  }, [draft, query]);

  function run(keyword: string) {
    const trimmed = keyword.trim().slice(0, keywordMaxLength);
    setDraft(trimmed);
    props.onQuery(trimmed);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    run(draft);
  }

  return (
    <>
      <form className="search-form" role="search" onSubmit={onSubmit}>
        <input
          ref={input}
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
          <Icon name="search" />
        </button>
      </form>
      <div className="hot-search" role="group" aria-label={t('market.hot_search')}>
        {config.hotSearch.map((term) => (
          <button key={term} type="button" className="chip" aria-pressed={props.query === term} onClick={() => run(term)}>
            {term}
          </button>
        ))}
      </div>
      <div className="quote-panel">
        {(state.status !== 'ready' && state.list.length === 0) || pending ? (
          <ProductsPending />
        ) : !props.query ? (
          <div className="search-start">
            {start.recent.length > 0 ? (
              <section aria-labelledby={`${headingId}-recent`}>
                <div className="search-start-head">
                  <h2 id={`${headingId}-recent`}>{t('market.search_recent')}</h2>
                  <button type="button" className="link-button" onClick={clearRecent}>
                    {t('market.search_clear_recent')}
                  </button>
                </div>
                <ShortQuoteList products={start.recent} onOpen={open} label={t('market.search_recent')} limit={start.recent.length} />
              </section>
            ) : null}
            {start.popular.length > 0 ? (
              <section aria-labelledby={`${headingId}-popular`}>
                <div className="search-start-head">
                  <h2 id={`${headingId}-popular`}>{t('market.search_popular')}</h2>
                </div>
                <ShortQuoteList products={start.popular} onOpen={open} label={t('market.search_popular')} limit={start.popular.length} />
              </section>
            ) : null}
          </div>
        ) : results.length === 0 ? (
          <p className="list-state" role="status">
            {t('market.search_no_results', { keyword: props.query })}
          </p>
        ) : (
          <QuoteList products={results} label={t('market.search_results')} onOpen={open} />
        )}
      </div>
    </>
  );
}
