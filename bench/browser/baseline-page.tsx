/**
 * The bench's baseline: the same quote list as the app's search page, built the
 * straightforward way. Every tab opens its own market socket on the main thread,
 * decodes every batch there, and renders the rows from plain React state. Built only
 * by the bench (`bench/browser/build.ts`); not part of the app.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { productListData, type PriceTick, type Product } from '../../src/shared/api/market';
import { formatPriceTime } from '../../src/shared/format/date-time';
import { searchProducts } from '../../src/shared/market/product-search';
import { createTickStore } from '../../src/worker/engine/tick-store';
import { createMarketSocket } from '../../src/worker/transport/market-socket';

const rowHeight = 60;

function tone(percent: string): string {
  if (percent.startsWith('-')) return 'down';
  return /[1-9]/.test(percent) ? 'up' : '';
}

const Row = memo(function Row(props: { product: Product; tick: PriceTick | undefined; top: number }) {
  const { product, tick, top } = props;
  const colour = tick ? tone(tick.priceChangePercent) : '';
  return (
    <li className="quote-row" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${top}px)` }} data-symbol={product.productCode} data-updated={tick?.lastUpdate}>
      <button type="button" className="quote-row-button">
        <img className="quote-logo" src={product.logoUrl} alt="" loading="lazy" width={28} height={28} />
        <span className="quote-name">
          <strong>{product.productName}</strong>
          <span className="quote-time numeric">{tick ? formatPriceTime(tick.lastUpdate, 'device') : '…'}</span>
        </span>
        <span className="quote-prices numeric">
          <span className={colour}>{tick?.bidPrice ?? '—'}</span>
          <span className={colour}>{tick?.askPrice ?? '—'}</span>
        </span>
        <span className={`quote-change numeric ${colour}`}>{tick ? `${tick.priceChangePercent}%` : '—'}</span>
      </button>
    </li>
  );
});

function BaselineQuotes(props: { products: Product[] }) {
  const [ticks, setTicks] = useState<ReadonlyMap<string, PriceTick>>(new Map());
  const scrollRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const store = createTickStore();
    const socket = createMarketSocket({
      url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/market/stomp`,
      onPrices(batch) {
        if (store.ingest(batch).length > 0) setTicks(new Map(store.all().map((tick) => [tick.symbol, tick])));
      },
      onState: () => undefined,
    });
    // The naive page takes every tick (the socket follows nothing until told).
    socket.followPrices({ all: true });
    socket.start();
    return () => void socket.stop();
  }, []);
  const virtualizer = useVirtualizer({ count: props.products.length, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 4 });
  return (
    <section className="page fill" style={{ height: '100dvh' }}>
      <div className="page-content">
        <div className="quote-list with-logo fill">
          <div className="quote-scroller" ref={scrollRef}>
            <ul className="quote-rows" aria-label="Search results" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => {
                const product = props.products[item.index];
                return product ? <Row key={product.productCode} product={product} tick={ticks.get(product.productCode)} top={item.start} /> : null;
              })}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}

async function start() {
  const response = await fetch('/v1/wa-na/forex/product/list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const envelope = (await response.json()) as { data: unknown };
  const { list } = productListData.parse(envelope.data);
  const keyword = new URLSearchParams(location.search).get('q') ?? 'LOAD';
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<BaselineQuotes products={searchProducts(list, keyword)} />);
}

void start();
