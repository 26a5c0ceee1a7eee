import { effect } from '@preact/signals-react';
import { useEffect, useState } from 'react';
import type { WireBar } from '../../../shared/market/kline';
import { useApp } from '../../app-context';
import { barSignal } from '../../engine/signals';

/** The specification's mini chart: the last 30 minutes of 1-minute bars. */
export const miniChartMinutes = 30;
const width = 120;
const height = 36;

/** The closes as an SVG polyline's points, scaled into the box (a flat line in the middle when flat). */
export function sparklinePoints(closes: readonly number[], boxWidth: number, boxHeight: number): string {
  if (closes.length === 0) return '';
  const low = Math.min(...closes);
  const high = Math.max(...closes);
  const span = high - low;
  const step = closes.length > 1 ? boxWidth / (closes.length - 1) : 0;
  return closes
    .map((close, index) => {
      const y = span === 0 ? boxHeight / 2 : boxHeight - ((close - low) / span) * boxHeight;
      return `${(index * step).toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/**
 * The window the mini chart asks for, ending now: the specification's last 30 minutes, from
 * the start of a minute so that 30 whole bars come back besides the forming one.
 */
export function miniChartWindow(nowMs: number): { fromMs: number; toMs: number } {
  const minuteStart = nowMs - (nowMs % 60_000);
  return { fromMs: minuteStart - miniChartMinutes * 60_000, toMs: nowMs };
}

/**
 * A line of the 1-minute closes of the last 30 minutes (the engine's ranged history,
 * `/market/history/limit`), then its forming bar (so it moves with the market), drawn as
 * SVG: no chart library on home.
 */
export function MiniChart(props: { symbol: string; tone: string }) {
  const { klines } = useApp();
  const [bars, setBars] = useState<readonly WireBar[]>([]);
  const { symbol } = props;

  useEffect(() => {
    let cancelled = false;
    let stop: (() => void) | null = null;
    const { fromMs, toMs } = miniChartWindow(Date.now());
    // The live bar follows the watch; the drawn history is the ranged window. A line of closes
    // needs no volume: the card's own prices form the bar, without the server's kline topic.
    Promise.all([klines.range(symbol, '1min', fromMs, toMs), klines.watch(symbol, '1min', { fromTicks: true })])
      .then(([history]) => {
        if (cancelled) return;
        setBars(history.slice(-miniChartMinutes));
        stop = effect(() => {
          const live = barSignal(symbol, '1min').value;
          if (!live) return;
          setBars((current) => {
            const last = current.at(-1);
            if (last && last.time === live.time) return [...current.slice(0, -1), live];
            if (last && live.time < last.time) return current;
            return [...current, live].slice(-miniChartMinutes);
          });
        });
      })
      .catch(() => undefined); // the card still shows its prices
    return () => {
      cancelled = true;
      stop?.();
      klines.unwatch(symbol, '1min');
    };
  }, [klines, symbol]);

  const points = sparklinePoints(
    bars.map((bar) => Number(bar.closePrice)),
    width,
    height,
  );
  return (
    <svg className={`mini-chart ${props.tone}`} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" data-points={bars.length}>
      {points ? <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} vectorEffect="non-scaling-stroke" /> : null}
    </svg>
  );
}
