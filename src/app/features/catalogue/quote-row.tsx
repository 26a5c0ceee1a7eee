import { effect } from '@preact/signals-react';
import { memo, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../shared/api/market';
import type { BrandConfig } from '../../../shared/config/brand-config';
import { formatPriceTime } from '../../../shared/format/date-time';
import { displaySymbol, symbolPair } from '../../../shared/market/symbol-identity';
import type { PriceRow } from '../../../shared/protocol/engine';
import { useApp } from '../../app-context';
import type { VirtualRowProps } from '../../components/virtual-list';
import { priceSignal } from '../../engine/signals';
import { useWatchedPrices } from '../../engine/use-watched-prices';
import { usePriceFormat, type PriceFormat } from '../../format/use-price-format';
import { changeTone } from './price-tone';

/** Row height in px; the long list's virtualizer positions rows by it. */
export const quoteRowHeight = 60;

interface QuoteRowProps {
  product: Product;
  onOpen: (symbol: string) => void;
  /** In the long list: the row's place, size and keyboard from the virtualizer. */
  row?: VirtualRowProps;
}

interface LiveCells {
  row: HTMLLIElement | null;
  time: HTMLSpanElement | null;
  bid: HTMLSpanElement | null;
  ask: HTMLSpanElement | null;
  change: HTMLSpanElement | null;
}

/** Writes a row's live quote into its cells; React renders them empty and never touches their text. */
function paintQuote(cells: LiveCells, row: PriceRow | null, look: { format: PriceFormat; timeZone: BrandConfig['timeZone']; precision: number; loading: string }) {
  const { format, timeZone, precision, loading } = look;
  const tone = row ? changeTone(row[4]) : '';
  if (cells.row) {
    if (row) cells.row.dataset.updated = String(row[8]);
    cells.row.dataset.tone = tone;
  }
  if (cells.time) cells.time.textContent = row ? formatPriceTime(row[8], timeZone) : loading;
  // At the product's digits, grouped as the chart's axis: "1.0840" keeps its zero whatever the wire sent.
  if (cells.bid) cells.bid.textContent = format.price(row?.[2], precision);
  if (cells.ask) cells.ask.textContent = format.price(row?.[3], precision);
  if (cells.change) cells.change.textContent = row ? format.percent(row[4], true) : '—';
}

/**
 * One product with its live quote. A mounted row watches its symbol, so the engine sends
 * this tab only the rows on screen. Ticks do not re-render anything: an effect on the
 * row's own signal writes the new text straight into the cells (the quote list is the
 * hottest path of the app, and at 10 batches a second a React render per row per batch
 * costs more than everything else on the main thread together).
 */
export const QuoteRow = memo(function QuoteRow({ product, onOpen, row }: QuoteRowProps) {
  const { t } = useTranslation();
  const { config } = useApp();
  const format = usePriceFormat();
  const symbol = product.productCode;
  // A list row is glanced at (its price at most once a second); the product's chart and form follow every tick.
  useWatchedPrices([symbol], { glance: true });
  const cells = useRef<LiveCells>({ row: null, time: null, bid: null, ask: null, change: null });
  const loading = t('common.loading');
  useLayoutEffect(
    () => effect(() => paintQuote(cells.current, priceSignal(symbol).value, { format, timeZone: config.timeZone, precision: product.pricePrecision, loading })),
    [symbol, config.timeZone, format, product.pricePrecision, loading],
  );
  const names = quoteRowNames(product);
  return (
    <li {...row} className="quote-row" data-symbol={symbol} ref={(node) => void (cells.current.row = node)}>
      <button type="button" className="quote-row-button" onClick={() => onOpen(symbol)} aria-label={`${product.productName} ${symbol}`}>
        {config.showProductLogo ? <img className="quote-logo" src={product.logoUrl} alt="" loading="lazy" width={28} height={28} /> : null}
        <span className="quote-name">
          <strong>{names.primary}</strong>
          <span className="quote-sub">
            {names.secondary ? <span className="quote-code">{names.secondary}</span> : null}
            <span className="quote-time numeric" ref={(node) => void (cells.current.time = node)} />
          </span>
        </span>
        <span className="quote-prices numeric">
          <span className="tone" data-testid={`quote-bid-${symbol}`} ref={(node) => void (cells.current.bid = node)} />
          <span className="tone" data-testid={`quote-ask-${symbol}`} ref={(node) => void (cells.current.ask = node)} />
        </span>
        <span className="quote-change numeric tone" ref={(node) => void (cells.current.change = node)} />
      </button>
    </li>
  );
});

/**
 * A row's two names in the one naming scheme: a pair by "BASE/QUOTE" with its name beneath
 * when that says more ("BTC/USDT", "Bitcoin"), anything else by its name with its code
 * beneath ("Gold", "XAUUSD").
 */
export function quoteRowNames(product: Pick<Product, 'productCode' | 'productName' | 'productType'>): { primary: string; secondary: string | null } {
  if (symbolPair(product.productCode, product.productType)) {
    const primary = displaySymbol(product.productCode, product.productType);
    return { primary, secondary: product.productName && product.productName !== primary ? product.productName : null };
  }
  const primary = product.productName || product.productCode;
  return { primary, secondary: primary !== product.productCode ? product.productCode : null };
}

export function QuoteListHeader() {
  const { t } = useTranslation();
  return (
    <div className="quote-list-header" aria-hidden="true">
      <span>{t('market.name')}</span>
      <span>{`${t('market.sell')} / ${t('market.buy')}`}</span>
      <span>{t('market.change')}</span>
    </div>
  );
}

/** The list's class: rows with or without the product's logo, as the brand shows them. */
export function quoteListClass(showProductLogo: boolean): string {
  return showProductLogo ? 'quote-list with-logo' : 'quote-list';
}

/**
 * The first few products with live quotes, as home shows them: a short list needs no
 * virtualizer, and home's first load does not carry one (the long list, `quote-list.tsx`,
 * comes with the quotation and search screens).
 */
export function ShortQuoteList(props: { products: readonly Product[]; onOpen: (symbol: string) => void; label: string; limit: number }) {
  const { config } = useApp();
  return (
    <div className={quoteListClass(config.showProductLogo)}>
      <QuoteListHeader />
      <ul className="quote-rows" aria-label={props.label}>
        {props.products.slice(0, props.limit).map((product) => (
          <QuoteRow key={product.productCode} product={product} onOpen={props.onOpen} />
        ))}
      </ul>
    </div>
  );
}
