import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import {
  candleTypes,
  chartPeriods,
  mainIndicators,
  screenshotFileName,
  shiftDistancePx,
  subIndicators,
  zoomInScale,
  zoomOutScale,
  type CandleType,
  type IndicatorKind,
} from '../../../shared/market/chart-rules';
import type { DrawingOverlay } from '../../../shared/market/chart-layout';
import { Dialog } from '../../components/dialog';
import { Icon } from '../../components/icons';
import { SchemeToggle, ThemeColourControl } from '../../components/theme-controls';
import { showToast } from '../../components/toasts';
import { chartSettingsSignal, toggleChartIndicator, updateChartSettings } from './chart-settings';
import type { KlineChartHandle } from './kline-chart';

/** The drawing tools, as KLineChart's built-in overlays (`drawingOverlays`), with their names' keys. */
const drawingTools: readonly { overlay: DrawingOverlay; key: string }[] = [
  { overlay: 'horizontalStraightLine', key: 'horizontal_line' },
  { overlay: 'horizontalRayLine', key: 'horizontal_ray' },
  { overlay: 'horizontalSegment', key: 'horizontal_segment' },
  { overlay: 'verticalStraightLine', key: 'vertical_line' },
  { overlay: 'verticalRayLine', key: 'vertical_ray' },
  { overlay: 'verticalSegment', key: 'vertical_segment' },
  { overlay: 'straightLine', key: 'straight_line' },
  { overlay: 'rayLine', key: 'ray' },
  { overlay: 'segment', key: 'segment' },
  { overlay: 'priceLine', key: 'price_line' },
  { overlay: 'parallelStraightLine', key: 'parallel_line' },
  { overlay: 'priceChannelLine', key: 'price_channel' },
  { overlay: 'fibonacciLine', key: 'fibonacci' },
] as const;

/** The period buttons (default 1min). */
export function PeriodPicker() {
  useSignals();
  const { t } = useTranslation();
  const current = chartSettingsSignal.value.period;
  return (
    <div className="segmented chart-periods" role="group" aria-label={t('chart.period')}>
      {chartPeriods.map((period) => (
        <button key={period} type="button" aria-pressed={period === current} onClick={() => updateChartSettings({ period })}>
          {t(`chart.period_${period}`)}
        </button>
      ))}
    </div>
  );
}

/** The period as a select (the desktop top bar). */
export function PeriodSelect() {
  useSignals();
  const { t } = useTranslation();
  return (
    <label className="chart-select">
      <span className="visually-hidden">{t('chart.period')}</span>
      <select
        value={chartSettingsSignal.value.period}
        aria-label={t('chart.period')}
        onChange={(event) => updateChartSettings({ period: event.target.value as (typeof chartPeriods)[number] })}
      >
        {chartPeriods.map((period) => (
          <option key={period} value={period}>
            {t(`chart.period_${period}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function CandleTypePicker() {
  useSignals();
  const { t } = useTranslation();
  return (
    <label className="chart-select">
      <span className="visually-hidden">{t('chart.candle_type')}</span>
      <select
        value={chartSettingsSignal.value.candleType}
        aria-label={t('chart.candle_type')}
        onChange={(event) => updateChartSettings({ candleType: event.target.value as CandleType })}
      >
        {candleTypes.map((type) => (
          <option key={type} value={type}>
            {t(`chart.candle_${type}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

function IndicatorGroup(props: { kind: IndicatorKind; names: readonly string[] }) {
  useSignals();
  const { t } = useTranslation();
  const active = chartSettingsSignal.value.indicators[props.kind];
  return (
    <fieldset className="indicator-group">
      <legend>{t(props.kind === 'main' ? 'chart.main_indicators' : 'chart.sub_indicators')}</legend>
      {props.names.map((name) => (
        <button
          key={name}
          type="button"
          role="switch"
          aria-checked={active.includes(name)}
          className="chip"
          onClick={() => {
            const result = toggleChartIndicator(props.kind, name);
            if (!result.ok && result.reason === 'limit') showToast('error', t(props.kind === 'main' ? 'chart.limit_main' : 'chart.limit_sub'));
          }}
        >
          {name}
        </button>
      ))}
    </fieldset>
  );
}

/** The indicator dialog: main (on the candles) and sub (own panes), at most 3 of each. */
export function IndicatorDialog(props: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('chart.indicators')} onClose={props.onClose}>
      <IndicatorGroup kind="main" names={mainIndicators} />
      <IndicatorGroup kind="sub" names={subIndicators} />
    </Dialog>
  );
}

/** The indicators button; `iconOnly` in the phone's one row (named by its label, with the same words as its tooltip). */
export function IndicatorButton(props: { iconOnly?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      {props.iconOnly ? (
        <button type="button" className="icon-button" aria-label={t('chart.indicators')} title={t('chart.indicators')} onClick={() => setOpen(true)}>
          <Icon name="indicators" />
        </button>
      ) : (
        <button type="button" className="tool-button" onClick={() => setOpen(true)}>
          {t('chart.indicators')}
        </button>
      )}
      {open ? <IndicatorDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function DrawingTools(props: { chart: RefObject<KlineChartHandle | null> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="tool-button" onClick={() => setOpen(true)}>
        {t('chart.drawing_tools')}
      </button>
      {open ? (
        <Dialog title={t('chart.drawing_tools')} onClose={() => setOpen(false)}>
          <div className="tool-grid">
            {drawingTools.map((tool) => (
              <button
                key={tool.overlay}
                type="button"
                className="chip"
                onClick={() => {
                  props.chart.current?.draw(tool.overlay);
                  setOpen(false);
                }}
              >
                {t(`chart.tool_${tool.key}`)}
              </button>
            ))}
            <button
              type="button"
              className="chip danger"
              onClick={() => {
                props.chart.current?.clearDrawings();
                setOpen(false);
              }}
            >
              {t('chart.delete_drawings')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}

/**
 * The phone's "More" of the chart: what does not fit its one row, in a panel under the button
 * (Escape or the button closes it; focus goes to its first control as it opens).
 */
function ChartMoreMenu(props: { children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  useLayoutEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>('.chart-more-panel button')?.focus();
    const closeOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOutside);
    return () => document.removeEventListener('mousedown', closeOutside);
  }, [open]);
  return (
    <div
      className="chart-more"
      ref={root}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }}
    >
      <button ref={button} type="button" className="icon-button" aria-label={t('chart.more')} title={t('chart.more')} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <Icon name="more" />
      </button>
      {open ? (
        <div id={panelId} className="chart-more-panel" role="group" aria-label={t('chart.more')}>
          {props.children}
        </div>
      ) : null}
    </div>
  );
}

/**
 * Zoom, shift, drawings, screenshot, full screen, scheme and colour: the chart's toolbar. On
 * the phone (`compact`) one row: period, chart type, indicators and "More" with the rest.
 */
export function ChartTools(props: {
  chart: RefObject<KlineChartHandle | null>;
  symbol: string;
  fullScreenTarget: RefObject<HTMLElement | null>;
  /** false on desktop, where the indicators, scheme and colour are in the top bar. */
  withPageControls?: boolean;
  /** The phone's one row. */
  compact?: boolean;
}) {
  useSignals();
  const { t } = useTranslation();
  const [fullScreen, setFullScreen] = useState(false);
  useEffect(() => {
    const onChange = () => setFullScreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  async function screenshot() {
    const url = await props.chart.current?.picture();
    if (!url) return;
    const link = document.createElement('a');
    link.href = url;
    link.download = screenshotFileName(props.symbol, chartSettingsSignal.peek().period, Date.now());
    link.click();
  }

  async function toggleFullScreen() {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await props.fullScreenTarget.current?.requestFullscreen();
    } catch {
      showToast('error', t('chart.full_screen_refused'));
    }
  }

  const tools = (
    <>
      <button type="button" className="icon-button" aria-label={t('chart.zoom_in')} title={t('chart.zoom_in')} onClick={() => props.chart.current?.zoom(zoomInScale)}>
        <Icon name="plus" />
      </button>
      <button type="button" className="icon-button" aria-label={t('chart.zoom_out')} title={t('chart.zoom_out')} onClick={() => props.chart.current?.zoom(zoomOutScale)}>
        <Icon name="minus" />
      </button>
      <button type="button" className="icon-button" aria-label={t('chart.shift_left')} title={t('chart.shift_left')} onClick={() => props.chart.current?.shift(shiftDistancePx)}>
        <Icon name="chevron-left" />
      </button>
      <button type="button" className="icon-button" aria-label={t('chart.shift_right')} title={t('chart.shift_right')} onClick={() => props.chart.current?.shift(-shiftDistancePx)}>
        <Icon name="chevron-right" />
      </button>
      {props.withPageControls === false || props.compact ? null : <IndicatorButton />}
      <DrawingTools chart={props.chart} />
      <button type="button" className="icon-button" aria-label={t('chart.screenshot')} title={t('chart.screenshot')} onClick={() => void screenshot()}>
        <Icon name="camera" />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={t(fullScreen ? 'chart.exit_full_screen' : 'chart.full_screen')}
        title={t(fullScreen ? 'chart.exit_full_screen' : 'chart.full_screen')}
        onClick={() => void toggleFullScreen()}
      >
        <Icon name={fullScreen ? 'shrink' : 'expand'} />
      </button>
      {props.withPageControls === false ? null : (
        <>
          <SchemeToggle />
          <ThemeColourControl folded={!props.compact} />
        </>
      )}
    </>
  );

  if (props.compact) {
    return (
      <div className="chart-tools compact" role="toolbar" aria-label={t('chart.tools')}>
        <PeriodSelect />
        <CandleTypePicker />
        <IndicatorButton iconOnly />
        <ChartMoreMenu>{tools}</ChartMoreMenu>
      </div>
    );
  }
  return (
    <div className="chart-tools" role="toolbar" aria-label={t('chart.tools')}>
      {tools}
    </div>
  );
}
