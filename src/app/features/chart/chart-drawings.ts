import { readStoredDrawings, type StoredDrawing } from '../../../shared/market/chart-layout';
import { preferences, savePreferences } from '../../preferences/preferences';

// Apart from chart-settings.ts, which the app's start reads: these go with the chart's own chunk.

/** The drawings kept for a symbol's chart (none when the store has none or holds something else). */
export function readChartDrawings(symbol: string): StoredDrawing[] {
  return readStoredDrawings(preferences().chartDrawings?.[symbol]);
}

/** Keeps a symbol's drawings with the rest of the chart's layout; no drawings leaves no entry. */
export function saveChartDrawings(symbol: string, drawings: readonly StoredDrawing[]) {
  const { [symbol]: _previous, ...others } = preferences().chartDrawings ?? {};
  void savePreferences({ chartDrawings: drawings.length === 0 ? others : { ...others, [symbol]: drawings.map((drawing) => ({ name: drawing.name, points: drawing.points.map((point) => ({ ...point })) })) } });
}
