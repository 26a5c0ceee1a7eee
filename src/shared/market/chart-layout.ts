/**
 * How the chart lays itself out and what it keeps: the sub-indicator panes' heights, the
 * legend's room above the candles, the drawing tools and the drawings kept per symbol.
 * Apart from chart-rules.ts, whose periods and indicators the app's start reads: these go
 * with the chart's own chunk (the first-load budget).
 */

/** The tallest a sub-indicator pane is drawn: the candles keep the rest of a tall chart. */
export const subPaneMaxHeightPx = 110;

/** The shortest a sub-indicator pane is drawn, so that its curve and scale stay readable (RSI was squeezed into about 40 px). */
export const subPaneMinHeightPx = { phone: 64, desktop: 80 } as const;
/** The share of the chart's height the sub panes may take together: the candles keep the rest. */
export const subPanesShareMax = 0.4;

export interface SubPaneLayout {
  /** How many of the chosen sub indicators get a pane (the first ones); the others wait for room. */
  shown: number;
  height: number;
}

/**
 * The sub panes on a chart of that height: each at least the readable minimum, together at
 * most their share; when not all fit, fewer panes (the first chosen) rather than thinner ones.
 */
export function subPaneLayout(chartHeightPx: number, subPanes: number, phone: boolean): SubPaneLayout {
  if (subPanes <= 0) return { shown: 0, height: 0 };
  const min = phone ? subPaneMinHeightPx.phone : subPaneMinHeightPx.desktop;
  const room = Math.floor(Math.max(0, chartHeightPx) * subPanesShareMax);
  const shown = Math.min(subPanes, Math.floor(room / min));
  if (shown === 0) return { shown: 0, height: 0 };
  return { shown, height: Math.min(subPaneMaxHeightPx, Math.floor(room / shown)) };
}

/** A legend row's height (the library's 12 px text with its 4 px margins above and below), and the room under the last row (the highest bar's price mark prints above it). */
export const legendRowPx = 20;
export const legendBottomMarginPx = 20;
/** Below this chart width the bar's legend (time, open, high, low, close, volume) may take two rows (German and Thai titles are long). */
export const legendOneRowMinWidthPx = 1100;
/** The time axis under the candles (the library's), apart from the candle pane's height. */
export const timeAxisHeightPx = 28;
/** The library's own room under the lowest candle, as a share of the price range. */
export const candleBottomGapRate = 0.1;

/**
 * The room kept above the highest candle while the legends always show, as the price scale's
 * top gap (a share of the price range), on a chart whose candles and time axis are that tall: the bar's legend and one row per main indicator
 * print there, never over a candle. `0.2`, the library's default, on a chart without legends.
 */
export function candleTopGapRate(legend: ChartLegendRule, chartWidthPx: number, mainIndicators: number, candleAndAxisHeightPx: number): number {
  const candlePaneHeightPx = candleAndAxisHeightPx - timeAxisHeightPx;
  if (legend !== 'always' || candlePaneHeightPx <= 0) return 0.2;
  const rows = (chartWidthPx >= legendOneRowMinWidthPx ? 1 : 2) + mainIndicators;
  const fraction = Math.min(0.6, (rows * legendRowPx + legendBottomMarginPx) / candlePaneHeightPx);
  // The scale spans range × (1 + top + bottom); the top gap is that share of the pane.
  return (fraction * (1 + candleBottomGapRate)) / (1 - fraction);
}

/** When the price legends (the bar's open, high, low, close; the indicators' values) are drawn over the candles. */
export type ChartLegendRule = 'always' | 'follow_cross';

/** Below this width the legends wrap into rows that cover the candles. */
export const legendMinWidthPx = 600;
/** Below this height of the candle pane three legend rows would cover most of it. */
export const legendMinCandleHeightPx = 120;

/**
 * The legends stay on a roomy chart; on a narrow or short one they show only while the
 * crosshair is on a bar (the trader's pointer or finger), leaving the candles visible.
 */
export function chartLegendRule(chartWidthPx: number, candlePaneHeightPx: number): ChartLegendRule {
  return chartWidthPx >= legendMinWidthPx && candlePaneHeightPx >= legendMinCandleHeightPx ? 'always' : 'follow_cross';
}

/** The drawing tools, as the chart library's built-in overlays (kept per symbol with the layout). */
export const drawingOverlays = [
  'horizontalStraightLine',
  'horizontalRayLine',
  'horizontalSegment',
  'verticalStraightLine',
  'verticalRayLine',
  'verticalSegment',
  'straightLine',
  'rayLine',
  'segment',
  'priceLine',
  'parallelStraightLine',
  'priceChannelLine',
  'fibonacciLine',
] as const;
export type DrawingOverlay = (typeof drawingOverlays)[number];

/** A drawing as kept: its tool and its points (bar time and price, numbers of the drawing, not money). */
export interface StoredDrawing {
  name: DrawingOverlay;
  points: { timestamp: number; value: number }[];
}

/** At most this many drawings are kept per symbol (the oldest give way). */
export const drawingsPerSymbolMax = 50;

/** The stored drawings of a symbol, each checked: an old or edited store cannot break the chart. */
export function readStoredDrawings(value: unknown): StoredDrawing[] {
  if (!Array.isArray(value)) return [];
  const drawings: StoredDrawing[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, points } = item as { name?: unknown; points?: unknown };
    if (!(drawingOverlays as readonly unknown[]).includes(name) || !Array.isArray(points) || points.length === 0 || points.length > 5) continue;
    const kept = (points as unknown[]).flatMap((point) => {
      const { timestamp, value: price } = (point ?? {}) as { timestamp?: unknown; value?: unknown };
      return typeof timestamp === 'number' && Number.isFinite(timestamp) && typeof price === 'number' && Number.isFinite(price) ? [{ timestamp, value: price }] : [];
    });
    if (kept.length === points.length) drawings.push({ name: name as DrawingOverlay, points: kept });
  }
  return drawings.slice(-drawingsPerSymbolMax);
}
