import { lazy, Suspense } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useApp } from '../../app-context';
import { priceSignal } from '../../engine/signals';
import { useWatchedPrices } from '../../engine/use-watched-prices';
import { changeTone } from '../../features/catalogue/price-tone';
import { pricePrecisionOf } from '../../features/catalogue/products';
import { usePriceFormat } from '../../format/use-price-format';

// The cards' small charts draw after the first screen: their module is not in the first load (its budget).
const MiniChart = lazy(() => import('../../features/chart/mini-chart').then((module) => ({ default: module.MiniChart })));


function HotCard(props: { symbol: string }) {
  useSignals();
  const { t } = useTranslation();
  const format = usePriceFormat();
  const row = priceSignal(props.symbol).value;
  if (!row) {
    return (
      <li className="hot-card" aria-busy="true">
        <span className="hot-card-symbol">{props.symbol}</span>
      </li>
    );
  }
  const [symbol, , bid, ask, change] = row;
  const tone = changeTone(change);
  const precision = pricePrecisionOf(symbol);
  return (
    <li className="hot-card">
      <Link href={`/${symbol}/chart`} aria-label={symbol}>
        <span className="hot-card-symbol">{symbol}</span>
        <Suspense fallback={<span className="mini-chart" aria-hidden="true" />}>
          <MiniChart symbol={symbol} tone={tone} />
        </Suspense>
        <span className={`hot-card-change numeric ${tone}`}>{format.percent(change, true)}</span>
        <span className="hot-card-quote">
          <span>{t('market.sell')}</span>
          <strong className={`numeric ${tone}`} data-testid={`bid-${symbol}`}>{format.price(bid, precision)}</strong>
        </span>
        <span className="hot-card-quote">
          <span>{t('market.buy')}</span>
          <strong className={`numeric ${tone}`} data-testid={`ask-${symbol}`}>{format.price(ask, precision)}</strong>
        </span>
      </Link>
    </li>
  );
}

/** The three hot products of the brand with their live sell (bid) and buy (ask) prices. */
export function HotCards() {
  const { t } = useTranslation();
  const { config } = useApp();
  // A card's price at most once a second: a glance, not the trade form's every tick.
  useWatchedPrices(config.hotProducts, { glance: true });
  return (
    <section aria-label={t('market.hot_products')}>
      <ul className="hot-cards">
        {config.hotProducts.map((symbol) => (
          <HotCard key={symbol} symbol={symbol} />
        ))}
      </ul>
    </section>
  );
}
