import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../shared/api/market';
import { chartIsLive, showsVolume } from '../../../shared/market/chart-rules';
import type { MarketStatus } from '../../../shared/market/market-hours';
import { formatPriceTime } from '../../../shared/format/date-time';
import { useApp } from '../../app-context';
import { useBrandFormat } from '../../format/use-brand-format';
import { colourSchemeSignal } from '../../theme/theme-choice';
import { priceSignal } from '../../engine/signals';
import { useWatchedPrices } from '../../engine/use-watched-prices';
import { useMarketSchedule } from '../trading/use-market-status';
import { changeTone } from '../catalogue/price-tone';
import { readChartDrawings, saveChartDrawings } from './chart-drawings';
import { chartSettingsSignal } from './chart-settings';
import { useChartLines } from './use-chart-lines';
import { ChartTools } from './chart-tools';
import type { KlineChartHandle } from './kline-chart';

// KLineChart is loaded only when a chart is shown.
const KlineChart = lazy(() => import('./kline-chart'));

/**
 * Price, change, last update, then ask and bid (what a trade fills at), the day's high
 * and low from the 24-hour statistics, and the volume; prices at the product's precision.
 */
export function ChartQuote(props: { product: Product }) {
  useSignals();
  const { t } = useTranslation();
  const { config } = useApp();
  const format = useBrandFormat();
  const symbol = props.product.productCode;
  useWatchedPrices([symbol]);
  const row = priceSignal(symbol).value;
  const tone = row ? changeTone(row[4]) : '';
  const price = (value: string | undefined) => format.price(value, props.product.pricePrecision);
  // A closed product shows its last price, says so, and when it opens next (the shared market hours).
  const { status, opensAt } = useMarketSchedule(props.product);
  const stats: [key: string, label: string, value: string][] = [
    ['ask', t('chart.ask'), price(row?.[3])],
    ['bid', t('chart.bid'), price(row?.[2])],
    ['high', t('chart.high'), price(row?.[6])],
    ['low', t('chart.low'), price(row?.[5])],
  ];
  return (
    <section className="chart-quote" aria-label={t('chart.quote')}>
      <div className="chart-quote-main">
        <strong className={`chart-price numeric ${tone}`} data-testid="chart-price">
          {price(row?.[1])}
        </strong>
        <span className={`numeric ${tone}`}>{row ? format.percent(row[4], true) : ''}</span>
        <span className="chart-quote-time numeric">{row ? formatPriceTime(row[8], config.timeZone) : ''}</span>
        {status === 'open' ? null : (
          <span className="chart-quote-closed" data-testid="chart-closed">
            <strong>{t('chart.closed')}</strong>
            {opensAt === null ? null : <span className="numeric"> · {t('chart.opens_at', { time: format.time(opensAt) })}</span>}
          </span>
        )}
      </div>
      <dl className="chart-stats numeric">
        {stats.map(([key, label, value]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd data-testid={`quote-${key}`}>{value}</dd>
          </div>
        ))}
        {showsVolume(props.product.productType) ? (
          <div>
            <dt>{t('chart.volume')}</dt>
            <dd>{row?.[7] ?? '—'}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/** The chart of one product with its tools; the page on phones and the chart panel on desktop. */
export function ProductChart(props: { product: Product; status: MarketStatus; withControls?: boolean }) {
  useSignals();
  const { t } = useTranslation();
  const { config } = useApp();
  const chart = useRef<KlineChartHandle | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const settings = chartSettingsSignal.value;
  const live = chartIsLive(props.status);
  const scheme = colourSchemeSignal.value;
  const phone = props.withControls !== false;
  const { lines, markers, onLineDrop } = useChartLines(props.product, scheme);
  // Read once per symbol: the chart hands every change back to be kept.
  const drawings = useMemo(() => readChartDrawings(props.product.productCode), [props.product.productCode]);
  const tooltipTitles = useMemo(
    () => ({
      time: t('chart.tooltip_time'),
      open: t('chart.tooltip_open'),
      high: t('chart.high'),
      low: t('chart.low'),
      close: t('chart.tooltip_close'),
      volume: t('chart.volume'),
    }),
    [t],
  );
  return (
    <div className="product-chart" ref={frame}>
      <ChartTools chart={chart} symbol={props.product.productCode} fullScreenTarget={frame} withPageControls={phone} compact={phone} />
      {live ? null : <p className="chart-history-only">{t('chart.history_only')}</p>}
      <Suspense fallback={<div className="kline-chart" aria-busy="true" />}>
        <KlineChart
          ref={chart}
          symbol={props.product.productCode}
          period={settings.period}
          pricePrecision={props.product.pricePrecision}
          live={live}
          candleType={settings.candleType}
          indicators={settings.indicators}
          scheme={scheme}
          phone={phone}
          lines={lines}
          markers={markers}
          linesLabel={t('chart.lines')}
          onLineDrop={onLineDrop}
          drawings={drawings}
          onDrawingsChange={saveChartDrawings}
          upDownTemplate={config.upDownTemplate}
          timeZone={config.timeZone}
          label={t('chart.chart_of', { name: props.product.productName })}
          tooltipTitles={tooltipTitles}
        />
      </Suspense>
    </div>
  );
}

/** The product dropdown (chart page title, desktop chart panel). */
export function ProductSelect(props: { products: readonly Product[]; current: string; onChange: (symbol: string) => void; widthPx?: number }) {
  const { t } = useTranslation();
  return (
    <select
      className="product-select"
      aria-label={t('chart.product')}
      value={props.current}
      style={props.widthPx ? { width: props.widthPx } : undefined}
      onChange={(event) => props.onChange(event.target.value)}
    >
      {props.products.map((product) => (
        <option key={product.productCode} value={product.productCode}>
          {product.productName}
        </option>
      ))}
    </select>
  );
}
