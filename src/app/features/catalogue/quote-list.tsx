import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { Product } from '../../../shared/api/market';
import { useApp } from '../../app-context';
import { QuoteListHeader, QuoteRow, quoteListClass, quoteRowHeight } from './quote-row';

/**
 * Products with live quotes. Long lists are virtualized: only the rows in view (and a
 * few beyond) exist, so only those are watched and re-rendered while ticks flow.
 */
export function QuoteList(props: { products: readonly Product[]; onOpen: (symbol: string) => void; label: string }) {
  const { config } = useApp();
  const listClass = quoteListClass(config.showProductLogo);
  const scrollRef = useRef<HTMLDivElement>(null);
  // The app does not use the React Compiler, so the unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: props.products.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => quoteRowHeight,
    overscan: 4,
    getItemKey: (index) => props.products[index]?.productCode ?? index,
  });

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
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: quoteRowHeight, transform: `translateY(${item.start}px)` }}
              />
            );
          })}
        </ul>
      </div>
    </div>
  );
}
