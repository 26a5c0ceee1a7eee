import { effect } from '@preact/signals-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useLayoutEffect, useRef, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../shared/api/market';
import type { BrandConfig } from '../../../shared/config/brand-config';
import { formatPriceTime } from '../../../shared/format/date-time';
import type { PriceRow } from '../../../shared/protocol/engine';
import { useApp } from '../../app-context';
import { priceSignal } from '../../engine/signals';
import { useWatchedPrices } from '../../engine/use-watched-prices';
import { changeTone, signedPercent } from './price-tone';

/** Row height in px; the virtualizer positions rows by it. */
const rowHeight = 60;

interface QuoteRowProps {
  product: Product;
  onOpen: (symbol: string) => void;
  style?: CSSProperties;
}

interface LiveCells {
  row: HTMLLIElement | null;
  time: HTMLSpanElement | null;
  bid: HTMLSpanElement | null;
  ask: HTMLSpanElement | null;
  change: HTMLSpanElement | null;
}

/** Writes a row's live quote into its cells; React renders them empty and never touches their text. */
function paintQuote(cells: LiveCells, row: PriceRow | null, timeZone: BrandConfig['timeZone'], loading: string) {
  const tone = row ? changeTone(row[4]) : '';
  if (cells.row) {
    if (row) cells.row.dataset.updated = String(row[8]);
    cells.row.dataset.tone = tone;
  }
  if (cells.time) cells.time.textContent = row ? formatPriceTime(row[8], timeZone) : loading;
  if (cells.bid) cells.bid.textContent = row?.[2] ?? '—';
  if (cells.ask) cells.ask.textContent = row?.[3] ?? '—';
  if (cells.change) cells.change.textContent = row ? signedPercent(row[4]) : '—';
}

/**
 * One product with its live quote. A mounted row watches its symbol, so the engine sends
 * this tab only the rows on screen. Ticks do not re-render anything: an effect on the
 * row's own signal writes the new text straight into the cells (the quote list is the
 * hottest path of the app, and at 10 batches a second a React render per row per batch
 * costs more than everything else on the main thread together).
 */
const QuoteRow = memo(function QuoteRow({ product, onOpen, style }: QuoteRowProps) {
  const { t } = useTranslation();
  const { config } = useApp();
  const symbol = product.productCode;
  useWatchedPrices([symbol]);
  const cells = useRef<LiveCells>({ row: null, time: null, bid: null, ask: null, change: null });
  const loading = t('common.loading');
  useLayoutEffect(
    () => effect(() => paintQuote(cells.current, priceSignal(symbol).value, config.timeZone, loading)),
    [symbol, config.timeZone, loading],
  );
  return (
    <li className="quote-row" style={style} data-symbol={symbol} ref={(node) => void (cells.current.row = node)}>
      <button type="button" className="quote-row-button" onClick={() => onOpen(symbol)} aria-label={`${product.productName} ${symbol}`}>
        {config.showProductLogo ? <img className="quote-logo" src={product.logoUrl} alt="" loading="lazy" width={28} height={28} /> : null}
        <span className="quote-name">
          <strong>{product.productName}</strong>
          <span className="quote-time numeric" ref={(node) => void (cells.current.time = node)} />
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

function QuoteListHeader() {
  const { t } = useTranslation();
  return (
    <div className="quote-list-header" aria-hidden="true">
      <span>{t('market.name')}</span>
      <span>{`${t('market.sell')} / ${t('market.buy')}`}</span>
      <span>{t('market.change')}</span>
    </div>
  );
}

/**
 * Products with live quotes. Long lists are virtualized: only the rows in view (and a
 * few beyond) exist, so only those are watched and re-rendered while ticks flow.
 */
export function QuoteList(props: { products: readonly Product[]; onOpen: (symbol: string) => void; label: string; limit?: number }) {
  const { config } = useApp();
  const listClass = config.showProductLogo ? 'quote-list with-logo' : 'quote-list';
  const scrollRef = useRef<HTMLDivElement>(null);
  // The app does not use the React Compiler, so the unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: props.limit === undefined ? props.products.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 4,
    getItemKey: (index) => props.products[index]?.productCode ?? index,
  });

  if (props.limit !== undefined) {
    return (
      <div className={listClass}>
        <QuoteListHeader />
        <ul className="quote-rows" aria-label={props.label}>
          {props.products.slice(0, props.limit).map((product) => (
            <QuoteRow key={product.productCode} product={product} onOpen={props.onOpen} />
          ))}
        </ul>
      </div>
    );
  }

  return (
    <div className={`${listClass} fill`}>
      <QuoteListHeader />
      <div className="quote-scroller" ref={scrollRef}>
        <ul className="quote-rows" aria-label={props.label} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const product = props.products[item.index];
            if (!product) return null;
            return (
              <QuoteRow
                key={item.key}
                product={product}
                onOpen={props.onOpen}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${item.start}px)` }}
              />
            );
          })}
        </ul>
      </div>
    </div>
  );
}
