import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { preferences, savePreferences } from '../../preferences/preferences';
import { chartShareAfterDrag, chartShareAfterKey, chartShareBounds, measuredChartShare, storedChartShare } from './board-split';

/** The chart's share of the workspace column chosen in this visit; undefined: the remembered one (preferences), if any. */
const chartShareSignal = signal<number | undefined>(undefined, { name: 'chartShare' });

/** The chart's share the trader chose (in this visit or before), or null for the automatic layout. */
export function useChartShare(): number | null {
  useSignals();
  return chartShareSignal.value ?? storedChartShare(preferences().workspaceChartShare);
}

function chooseChartShare(share: number, remember: boolean) {
  chartShareSignal.value = share;
  if (remember) void savePreferences({ workspaceChartShare: share });
}

/**
 * The separator between the chart (above) and the order board (below): dragged with a
 * pointer, or focused and moved with the arrow keys (Home and End to its ends). Its value is
 * the chart's share of the column in percent; before any move, the share the layout shows.
 */
export function BoardSeparator(props: { column: RefObject<HTMLElement | null>; chart: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  const chosen = useChartShare();
  const [measured, setMeasured] = useState<number>(chartShareBounds.max);
  const drag = useRef<{ startY: number; startShare: number; columnPx: number } | null>(null);
  const { column, chart } = props;

  useEffect(() => {
    const columnElement = column.current;
    const chartElement = chart.current;
    if (!columnElement || !chartElement) return undefined;
    const measure = () => setMeasured(measuredChartShare(chartElement.getBoundingClientRect().height, columnElement.getBoundingClientRect().height));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(columnElement);
    observer.observe(chartElement);
    return () => observer.disconnect();
  }, [column, chart]);

  const share = chosen ?? measured;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = chartShareAfterKey(share, event.key);
    if (next === null) return;
    event.preventDefault();
    chooseChartShare(next, true);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const columnPx = column.current?.getBoundingClientRect().height ?? 0;
    drag.current = { startY: event.clientY, startShare: share, columnPx };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    chooseChartShare(chartShareAfterDrag(start.startShare, event.clientY - start.startY, start.columnPx), false);
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    drag.current = null;
    event.currentTarget.releasePointerCapture(event.pointerId);
    // Remembered once, where the drag ends.
    chooseChartShare(chartShareAfterDrag(start.startShare, event.clientY - start.startY, start.columnPx), true);
  };
  return (
    <div
      className="board-separator"
      role="separator"
      aria-orientation="horizontal"
      aria-label={t('desktop.board_separator')}
      aria-valuenow={share}
      aria-valuemin={chartShareBounds.min}
      aria-valuemax={chartShareBounds.max}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
    />
  );
}
