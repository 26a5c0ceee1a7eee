import { effect } from '@preact/signals-react';
import { ActionType, dispose, init, TooltipShowRule, type Chart, type Indicator, type KLineData, type OverlayEvent } from 'klinecharts';
import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type Ref } from 'react';
import type { BrandConfig } from '../../../shared/config/brand-config';
import { candleTopGapRate, chartLegendRule, drawingOverlays, subPaneLayout, type DrawingOverlay, type StoredDrawing } from '../../../shared/market/chart-layout';
import { screenshotFormat, type CandleType, type ChartIndicators } from '../../../shared/market/chart-rules';
import { periodMs, type KlinePeriod, type WireBar } from '../../../shared/market/kline';
import { useApp } from '../../app-context';
import { barSignal } from '../../engine/signals';
import type { ColourScheme } from '../../theme/theme';
import { registerTradeOverlays, timeMarkerOverlay, tradeLineOverlay, type TradeLineLook } from './trade-line-overlay';

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
/** The overlay group of the trader's drawings (apart from the lines of what they hold). */
const drawingsGroup = 'drawings';
const tradeLinesGroup = 'trade-lines';

/** A line of what the trader holds, as the chart draws it. */
export interface DrawnLine {
  id: string;
  kind: string;
  price: string;
  draggable: boolean;
  look: TradeLineLook;
}

/** A running option's end time, drawn as a vertical marker. */
export interface DrawnMarker {
  id: string;
  timeMs: number;
  look: TradeLineLook;
}

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
  /** The phone's layout (its sub panes' minimum height). */
  phone: boolean;
  /** The lines of positions, pending orders and running options of the symbol, and the options' end times. */
  lines: readonly DrawnLine[];
  markers: readonly DrawnMarker[];
  /** The accessible name of the list of lines beside the canvas. */
  linesLabel: string;
  /** A draggable line was dropped at a chart value; the line goes back to its price once this settles (a refusal, a cancel, or the server's new price). */
  onLineDrop: (id: string, chartValue: number | undefined) => Promise<void>;
  /** The symbol's stored drawings, drawn after its history; every change is handed back to be kept. */
  drawings: readonly StoredDrawing[];
  onDrawingsChange: (symbol: string, drawings: StoredDrawing[]) => void;
  /** Translated titles of the crosshair tooltip: time, open, high, low, close, volume. */
  tooltipTitles: { time: string; open: string; high: string; low: string; close: string; volume: string };
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
  /** Counts loaded histories: the lines and markers are placed again on the new bars. */
  const [historyReady, setHistoryReady] = useState(0);
  const list = useRef<HTMLUListElement>(null);

  /**
   * What the chart draws, read back from it onto the element (`data-loaded` period,
   * `data-bars`, `data-last-close`, `data-candle-type`, `data-indicators` "MAIN,…|SUB,…",
   * `data-drawings` the count of the trader's drawings),
   * for tests and the debug console.
   */
  function describe(change: Record<string, string>) {
    if (container.current) Object.assign(container.current.dataset, change);
  }
  const applied = useRef<{ main: Set<string>; sub: Map<string, string> }>({ main: new Set(), sub: new Map() });
  // The latest props for the chart's own callbacks (a drop, a finished drawing), which outlive a render.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const drawings = useRef<ReturnType<typeof drawingKeeper> | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    registerTradeOverlays();
    drawings.current = drawingKeeper(
      () => latest.current,
      (count) => describe({ drawings: String(count) }),
    );
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
      draw: (overlay) => {
        if (chart && (drawingOverlays as readonly string[]).includes(overlay)) drawings.current?.create(chart, overlay as DrawingOverlay);
      },
      clearDrawings: () => {
        if (chart) drawings.current?.clear(chart);
      },
      picture: async () => (chart ? encodeScreenshot(chart.getConvertPictureUrl(true, 'png', cssColour('--surface', '#ffffff'))) : null),
    }),
    [chart],
  );

  // History for the pair, then live bars while the market trades.
  const { symbol, period, live, pricePrecision } = props;
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
        drawings.current?.restore(chart, latest.current.drawings);
        describe({ loaded: period, bars: String(chart.getDataList().length), lastClose: bars.at(-1)?.closePrice ?? '' });
        setHistoryReady((count) => count + 1);
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
            // A new high or low moves the price scale, and the lines on it.
            placeLineItems(chart, list.current);
            describe({ bars: String(chart.getDataList().length), lastClose: pending.closePrice });
            pending = null;
          });
        });
      })
      // The spec swallows a failed history: the chart stays empty, without a toast.
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stopLive?.();
      if (frame) cancelAnimationFrame(frame);
      klines.unwatch(symbol, period);
    };
  }, [chart, klines, symbol, period, live, pricePrecision]);

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

  // Indicators: add what is new, remove what is gone (main ones stack on the candles). The sub
  // panes keep a readable height: those that do not fit wait for room (the first chosen show).
  const { indicators, phone } = props;
  const layout = subPaneLayout(size.height, indicators.sub.length, phone);
  const shownSubs = indicators.sub.slice(0, size.height === 0 ? indicators.sub.length : layout.shown).join(',');
  useEffect(() => {
    if (!chart) return;
    const current = applied.current;
    const subs = shownSubs === '' ? [] : shownSubs.split(',');
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
      if (!subs.includes(name)) {
        chart.removeIndicator(paneId, name);
        current.sub.delete(name);
      }
    }
    for (const name of subs) {
      if (!current.sub.has(name)) {
        // Its height is set by the next effect.
        const paneId = chart.createIndicator(name, false);
        if (paneId) current.sub.set(name, paneId);
      }
    }
    const byPane = chart.getIndicatorByPaneId() as Map<string, Map<string, unknown>>;
    const onMain = [...(byPane.get(mainPaneId)?.keys() ?? [])];
    const onSubs = [...byPane.entries()].filter(([paneId]) => paneId !== mainPaneId).flatMap(([, names]) => [...names.keys()]);
    describe({ indicators: `${onMain.join(',')}|${onSubs.join(',')}` });
  }, [chart, indicators, shownSubs]);

  // The sub panes at their readable height; the legends stay on a roomy chart, in room kept
  // above the candles (never over them), and follow the crosshair on a small one. After the
  // styles effect, since a scheme change sets every style again.
  useEffect(() => {
    if (!chart || size.height === 0) return;
    const subPanes = [...applied.current.sub.values()];
    const height = subPanes.length === 0 ? 0 : layout.height;
    for (const id of subPanes) chart.setPaneOptions({ id, height, minHeight: height });
    const candleHeight = size.height - subPanes.length * height;
    const legend = chartLegendRule(size.width, candleHeight);
    const showRule = legend === 'always' ? TooltipShowRule.Always : TooltipShowRule.FollowCross;
    chart.setStyles({ candle: { tooltip: { showRule } }, indicator: { tooltip: { showRule } } });
    const topGap = candleTopGapRate(legend, size.width, indicators.main.length, candleHeight);
    chart.setPaneOptions({ id: mainPaneId, gap: { top: topGap, bottom: 0.1 } });
    describe({ subPaneHeight: String(height), legend, hiddenSubIndicators: String(indicators.sub.length - subPanes.length) });
  }, [chart, size, indicators, shownSubs, layout.height, scheme, candleType, tooltipTitles]);

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
  }, [chart, indicators, shownSubs, volumeTitle]);

  // The lines of what the trader holds: drawn, moved and removed with the orders. A line held
  // by the pointer stays under it (every tick redraws the lines, and would pull it back to its
  // price mid-drag), and a dropped one waits where it was dropped until its drop is settled.
  const { lines, markers } = props;
  const held = useRef(new Set<string>());
  const placed = useRef(new Set<string>());
  useEffect(() => {
    if (!chart) return;
    const bars = chart.getDataList();
    const last = bars.at(-1);
    if (!last) return;
    const anchor = { timestamp: last.timestamp, dataIndex: bars.length - 1 };
    const drawn = new Set<string>();
    for (const line of lines) {
      drawn.add(line.id);
      const existing = chart.getOverlayById(line.id);
      const points = [{ ...anchor, value: Number(line.price) }];
      if (existing) {
        chart.overrideOverlay({ id: line.id, extendData: line.look, lock: !line.draggable, ...(held.current.has(line.id) ? {} : { points }) });
        continue;
      }
      chart.createOverlay({
        id: line.id,
        name: tradeLineOverlay,
        groupId: tradeLinesGroup,
        lock: !line.draggable,
        points,
        extendData: line.look,
        zLevel: 1,
        onPressedMoveStart: () => {
          held.current.add(line.id);
          return false;
        },
        onPressedMoveEnd: (event: OverlayEvent) => {
          const value = event.overlay.points[0]?.value;
          held.current.add(line.id);
          void latest.current.onLineDrop(line.id, value).finally(() => {
            held.current.delete(line.id);
            const now = latest.current.lines.find((each) => each.id === line.id);
            if (now) chart.overrideOverlay({ id: line.id, points: [{ ...anchor, value: Number(now.price) }] });
            placeLineItems(chart, list.current);
          });
          return false;
        },
      });
    }
    for (const marker of markers) {
      drawn.add(marker.id);
      // Past the last bar the library has no time: the marker's bar index is counted from it.
      const dataIndex = bars.length - 1 + Math.ceil((marker.timeMs - last.timestamp) / periodMs[period]);
      const points = [{ dataIndex, timestamp: marker.timeMs, value: last.close }];
      if (chart.getOverlayById(marker.id)) chart.overrideOverlay({ id: marker.id, points, extendData: marker.look });
      else chart.createOverlay({ id: marker.id, name: timeMarkerOverlay, groupId: tradeLinesGroup, lock: true, points, extendData: marker.look });
    }
    for (const id of placed.current) if (!drawn.has(id)) chart.removeOverlay(id);
    placed.current = drawn;
    placeLineItems(chart, list.current);
  }, [chart, lines, markers, historyReady, period]);

  useEffect(() => {
    if (!chart) return;
    const place = () => placeLineItems(chart, list.current);
    const moves = [ActionType.OnZoom, ActionType.OnScroll, ActionType.OnVisibleRangeChange];
    for (const action of moves) chart.subscribeAction(action, place);
    return () => {
      for (const action of moves) chart.unsubscribeAction(action, place);
    };
  }, [chart]);

  return (
    <>
      <div ref={container} className="kline-chart" role="img" aria-label={props.label} />
      <ul ref={list} className="visually-hidden" aria-label={props.linesLabel} data-testid="chart-lines">
        {lines.map((line) => (
          <li key={line.id} data-line-id={line.id} data-line-kind={line.kind} data-price={line.price} data-draggable={String(line.draggable)}>
            {line.look.label}
          </li>
        ))}
        {markers.map((marker) => (
          <li key={marker.id} data-line-id={marker.id} data-line-kind="optionEnd">
            {marker.look.label}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * Where each line is on the canvas (`data-y`, pixels from the chart's top), read onto the
 * list beside it after every move of the scale: for tests and the debug console.
 */
function placeLineItems(chart: Chart, list: HTMLUListElement | null) {
  if (!list) return;
  for (const item of list.querySelectorAll<HTMLElement>('[data-line-id]')) {
    const overlay = chart.getOverlayById(item.dataset.lineId ?? '');
    const value = overlay?.points[0]?.value;
    const pixel = value === undefined ? undefined : (chart.convertToPixel({ value }, { paneId: mainPaneId }) as { y?: number }).y;
    item.dataset.y = pixel === undefined || !Number.isFinite(pixel) ? '' : String(Math.round(pixel));
  }
}

/**
 * The trader's drawings of the shown symbol: drawn with the chart's tools, kept (per symbol)
 * after each one is finished, moved or removed, and drawn again after the symbol's history.
 */
function drawingKeeper(props: () => Pick<KlineChartProps, 'symbol' | 'onDrawingsChange'>, report: (count: number) => void) {
  const ids = new Set<string>();
  /** Removing the drawings to show another symbol's is no change of this one's. */
  let restoring = false;
  let chartOf: Chart | null = null;

  function keep() {
    if (restoring || !chartOf) return;
    const chart = chartOf;
    const kept: StoredDrawing[] = [];
    for (const id of ids) {
      const overlay = chart.getOverlayById(id);
      if (!overlay) {
        ids.delete(id);
        continue;
      }
      // A drawing still being drawn has fewer points than its tool needs: kept once finished.
      if (overlay.currentStep !== -1 && overlay.totalStep > 1 && overlay.points.length < overlay.totalStep - 1) continue;
      const points = overlay.points.flatMap((point) => (typeof point.timestamp === 'number' && typeof point.value === 'number' ? [{ timestamp: point.timestamp, value: point.value }] : []));
      if (points.length === overlay.points.length && points.length > 0) kept.push({ name: overlay.name as DrawingOverlay, points });
    }
    report(kept.length);
    props().onDrawingsChange(props().symbol, kept);
  }

  function create(chart: Chart, name: DrawingOverlay, points?: StoredDrawing['points']) {
    chartOf = chart;
    const id = chart.createOverlay({
      name,
      groupId: drawingsGroup,
      ...(points ? { points } : {}),
      onDrawEnd: () => {
        keep();
        return false;
      },
      onPressedMoveEnd: () => {
        keep();
        return false;
      },
      onRemoved: (event: OverlayEvent) => {
        ids.delete(event.overlay.id);
        keep();
        return false;
      },
    });
    if (typeof id === 'string') ids.add(id);
  }

  return {
    create,
    clear(chart: Chart) {
      chartOf = chart;
      chart.removeOverlay({ groupId: drawingsGroup });
      ids.clear();
      report(0);
      props().onDrawingsChange(props().symbol, []);
    },
    restore(chart: Chart, stored: readonly StoredDrawing[]) {
      chartOf = chart;
      restoring = true;
      chart.removeOverlay({ groupId: drawingsGroup });
      ids.clear();
      for (const drawing of stored) create(chart, drawing.name, drawing.points);
      restoring = false;
      report(ids.size);
    },
  };
}
