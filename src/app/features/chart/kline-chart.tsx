import { effect } from '@preact/signals-react';
import { dispose, init, TooltipShowRule, type Chart, type Indicator, type KLineData } from 'klinecharts';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { BrandConfig } from '../../../shared/config/brand-config';
import { chartLegendRule, screenshotFormat, subPaneHeightPx, type CandleType, type ChartIndicators } from '../../../shared/market/chart-rules';
import type { KlinePeriod, WireBar } from '../../../shared/market/kline';
import { useApp } from '../../app-context';
import { barSignal } from '../../engine/signals';
import type { ColourScheme } from '../../theme/theme';

/** What the chart's tool buttons ask of it. */
export interface KlineChartHandle {
  zoom(scale: number): void;
  shift(distancePx: number): void;
  draw(overlay: string): void;
  clearDrawings(): void;
  /** A JPEG data URL (the specification's quality) of the chart with its drawings, on the page's background colour. */
  picture(): Promise<string | null>;
}

const mainPaneId = 'candle_pane';

/**
 * The chart library encodes JPEG at the browser's default quality (0.92): take its lossless
 * PNG and encode that at the specification's quality.
 */
async function encodeScreenshot(pngUrl: string): Promise<string> {
  const image = new Image();
  image.src = pngUrl;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  canvas.getContext('2d')?.drawImage(image, 0, 0);
  return canvas.toDataURL(screenshotFormat.mimeType, screenshotFormat.quality);
}

/** Bars as the chart draws them; numbers are for drawing only, never for money. */
function toChartBar(bar: WireBar): KLineData {
  return {
    timestamp: bar.time,
    open: Number(bar.openPrice),
    high: Number(bar.highestPrice),
    low: Number(bar.lowestPrice),
    close: Number(bar.closePrice),
    volume: Number(bar.volume),
    turnover: Number(bar.turnover),
  };
}

function cssColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/**
 * Every text style of KLineChart with the page's font stack: the library's default
 * ('Helvetica Neue') is missing on most machines, and canvas text then falls back to serif.
 */
function chartFontStyles(family: string) {
  const text = { family };
  return {
    candle: {
      priceMark: { high: { textFamily: family }, low: { textFamily: family }, last: { text } },
      tooltip: { text },
    },
    indicator: { lastValueMark: { text }, tooltip: { text } },
    xAxis: { tickText: text },
    yAxis: { tickText: text },
    crosshair: { horizontal: { text }, vertical: { text } },
    overlay: { text, rectText: text },
  };
}

export interface KlineChartProps {
  symbol: string;
  period: KlinePeriod;
  pricePrecision: number;
  /** Live bars from the engine; false shows history only (market closed or early trading). */
  live: boolean;
  candleType: CandleType;
  indicators: ChartIndicators;
  scheme: ColourScheme;
  upDownTemplate: BrandConfig['upDownTemplate'];
  timeZone: BrandConfig['timeZone'];
  label: string;
  /** Translated titles of the crosshair tooltip: time, open, high, low, close, volume. */
  tooltipTitles: { time: string; open: string; high: string; low: string; close: string; volume: string };
  onHistoryFailed: () => void;
  /** Changes to load the history again (the retry after a failure). */
  attempt: number;
  ref?: Ref<KlineChartHandle>;
}

/**
 * KLineChart fed from the data engine: history once per (symbol, period), then the
 * engine's forming bar, at most once per animation frame (never per tick).
 */
export default function KlineChart({ ref, ...props }: KlineChartProps) {
  const { klines } = useApp();
  const container = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<Chart | null>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });

  /**
   * What the chart draws, read back from it onto the element (`data-loaded` period,
   * `data-bars`, `data-last-close`, `data-candle-type`, `data-indicators` "MAIN,…|SUB,…"),
   * for tests and the debug console.
   */
  function describe(change: Record<string, string>) {
    if (container.current) Object.assign(container.current.dataset, change);
  }
  const applied = useRef<{ main: Set<string>; sub: Map<string, string> }>({ main: new Set(), sub: new Map() });
  const { onHistoryFailed } = props;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const created = init(element);
    if (!created) return;
    // The library makes its canvas holder focusable with tabindex 1, which jumps the page's tab order: keep it in document order.
    element.querySelectorAll<HTMLElement>('[tabindex]').forEach((focusable) => {
      if (focusable.tabIndex > 0) focusable.tabIndex = 0;
    });
    setChart(created);
    const observer = new ResizeObserver((entries) => {
      created.resize();
      const box = entries[0]?.contentRect;
      if (box) setSize({ width: Math.round(box.width), height: Math.round(box.height) });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      dispose(element);
      applied.current = { main: new Set(), sub: new Map() };
      setChart(null);
    };
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      zoom: (scale) => chart?.zoomAtCoordinate(scale),
      shift: (distancePx) => chart?.scrollByDistance(distancePx, 200),
      draw: (overlay) => void chart?.createOverlay(overlay),
      clearDrawings: () => chart?.removeOverlay(),
      picture: async () => (chart ? encodeScreenshot(chart.getConvertPictureUrl(true, 'png', cssColour('--surface', '#ffffff'))) : null),
    }),
    [chart],
  );

  // History for the pair, then live bars while the market trades.
  const { symbol, period, live, pricePrecision, attempt } = props;
  useEffect(() => {
    if (!chart) return;
    let cancelled = false;
    let frame = 0;
    let stopLive: (() => void) | null = null;
    chart.clearData();
    chart.setPriceVolumePrecision(pricePrecision, 0);
    describe({ loaded: '', bars: '0' });
    klines
      .watch(symbol, period)
      .then((bars) => {
        if (cancelled) return;
        chart.applyNewData(bars.map(toChartBar));
        describe({ loaded: period, bars: String(chart.getDataList().length), lastClose: bars.at(-1)?.closePrice ?? '' });
        if (!live) return;
        let pending: WireBar | null = null;
        stopLive = effect(() => {
          const bar = barSignal(symbol, period).value;
          if (!bar) return;
          pending = bar;
          if (frame) return;
          frame = requestAnimationFrame(() => {
            frame = 0;
            if (!pending) return;
            chart.updateData(toChartBar(pending));
            describe({ bars: String(chart.getDataList().length), lastClose: pending.closePrice });
            pending = null;
          });
        });
      })
      .catch(() => {
        if (!cancelled) onHistoryFailed();
      });
    return () => {
      cancelled = true;
      stopLive?.();
      if (frame) cancelAnimationFrame(frame);
      klines.unwatch(symbol, period);
    };
    // `attempt` only re-runs the load (a retry).
  }, [chart, klines, symbol, period, live, pricePrecision, onHistoryFailed, attempt]);

  const { scheme, candleType, upDownTemplate, timeZone, tooltipTitles } = props;
  useEffect(() => {
    if (!chart) return;
    const up = cssColour('--up', '#16a34a');
    const down = cssColour('--down', '#dc2626');
    chart.setStyles(scheme);
    // Read per language: the stack puts the language's own script first (styles/layout.css).
    chart.setStyles(chartFontStyles(getComputedStyle(document.documentElement).fontFamily));
    chart.setStyles({
      candle: {
        type: candleType as never,
        bar: { upColor: up, downColor: down, upBorderColor: up, downBorderColor: down, upWickColor: up, downWickColor: down },
        priceMark: { last: { upColor: up, downColor: down } },
        tooltip: {
          custom: (['time', 'open', 'high', 'low', 'close', 'volume'] as const).map((field) => ({
            title: `${tooltipTitles[field]}: `,
            value: `{${field}}`,
          })),
        },
      },
      indicator: { bars: [{ upColor: up, downColor: down }] },
    });
    if (timeZone !== 'device') chart.setTimezone(timeZone);
    describe({ candleType: String(chart.getStyles().candle.type) });
  }, [chart, scheme, candleType, upDownTemplate, timeZone, tooltipTitles]);

  // Indicators: add what is new, remove what is gone (main ones stack on the candles).
  const { indicators } = props;
  useEffect(() => {
    if (!chart) return;
    const current = applied.current;
    for (const name of [...current.main]) {
      if (!indicators.main.includes(name)) {
        chart.removeIndicator(mainPaneId, name);
        current.main.delete(name);
      }
    }
    for (const name of indicators.main) {
      if (!current.main.has(name)) {
        chart.createIndicator(name, true, { id: mainPaneId });
        current.main.add(name);
      }
    }
    for (const [name, paneId] of [...current.sub]) {
      if (!indicators.sub.includes(name)) {
        chart.removeIndicator(paneId, name);
        current.sub.delete(name);
      }
    }
    for (const name of indicators.sub) {
      if (!current.sub.has(name)) {
        // Its height is the chart's share, set by the next effect.
        const paneId = chart.createIndicator(name, false);
        if (paneId) current.sub.set(name, paneId);
      }
    }
    const byPane = chart.getIndicatorByPaneId() as Map<string, Map<string, unknown>>;
    const onMain = [...(byPane.get(mainPaneId)?.keys() ?? [])];
    const onSubs = [...byPane.entries()].filter(([paneId]) => paneId !== mainPaneId).flatMap(([, names]) => [...names.keys()]);
    describe({ indicators: `${onMain.join(',')}|${onSubs.join(',')}` });
  }, [chart, indicators]);

  // A small chart (every workspace panel open at 1280×800) keeps its candles: the sub panes
  // shrink to their share and the legends show with the crosshair only. After the styles
  // effect, since a scheme change sets every style again.
  useEffect(() => {
    if (!chart || size.height === 0) return;
    const subPanes = [...applied.current.sub.values()];
    const height = subPaneHeightPx(size.height, subPanes.length);
    for (const id of subPanes) chart.setPaneOptions({ id, height });
    const legend = chartLegendRule(size.width, size.height - subPanes.length * height);
    const showRule = legend === 'always' ? TooltipShowRule.Always : TooltipShowRule.FollowCross;
    chart.setStyles({ candle: { tooltip: { showRule } }, indicator: { tooltip: { showRule } } });
    describe({ subPaneHeight: String(height), legend });
  }, [chart, size, indicators, scheme, candleType, tooltipTitles]);

  // The volume indicator's own bar is titled "VOLUME: " in the library: give it the
  // translated title (the MA lines keep their universal names).
  const volumeTitle = props.tooltipTitles.volume;
  useEffect(() => {
    if (!chart) return;
    const paneId = applied.current.sub.get('VOL');
    if (!paneId) return;
    const volume = chart.getIndicatorByPaneId(paneId, 'VOL') as Indicator | null;
    if (!volume) return;
    const figures = volume.figures.map((figure) => (figure.key === 'volume' ? { ...figure, title: `${volumeTitle}: ` } : figure));
    chart.overrideIndicator({ name: 'VOL', figures }, paneId);
    describe({ volumeTitle });
  }, [chart, indicators, volumeTitle]);

  return (
    <div
      ref={container}
      className="kline-chart"
      role="img"
      aria-label={props.label}
    />
  );
}
