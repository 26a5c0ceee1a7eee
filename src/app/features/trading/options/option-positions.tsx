import { useSignals } from '@preact/signals-react/runtime';
import { OptionDirection, OptionStatus } from '../../../../shared/options/option-rules';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RunningOption } from '../../../../shared/protocol/engine';
import { useBrandFormat } from '../../../format/use-brand-format';
import { VirtualGrid, type GridColumn } from '../../../components/virtual-grid';
import { VirtualList, type VirtualRowProps } from '../../../components/virtual-list';
import { optionsSignal } from '../../../engine/signals';
import { completionTriesFromList } from './option-completion';
import { CountdownBar, LivePrice, OptionOrderFlow, OptionStandingText, type OptionFlowOrder } from './option-order-flow';
import { StatusBadge } from '../../../components/status-badge';
import { optionStatusTone } from '../../../../shared/trading/status-tones';
import { pricePrecisionOf, useProducts } from '../../catalogue/products';

/**
 * The running options of the signed-in account, from the engine's countdowns: rows with
 * a countdown bar that leave at 0, and the running-order drawer (progress, settling,
 * result with up to 40 completion checks).
 */

function useRunningOptions() {
  useSignals();
  // Prices are shown at their products' digits: the catalogue comes with the list (a direct load has none yet).
  useProducts();
  const state = optionsSignal.value;
  return { loaded: state.loaded, running: state.running };
}

function RunningState(props: { loaded: boolean; empty: boolean }) {
  const { t } = useTranslation();
  if (!props.loaded) {
    return (
      <p className="list-state" aria-busy="true">
        {t('option.waiting')}
      </p>
    );
  }
  return props.empty ? <p className="list-state">{t('option.empty_running')}</p> : null;
}

/** A running option's row, its countdown bar under the name and prices; measured, as a long name wraps. */
const optionRowEstimatePx = 84;

function OptionRow(props: { running: RunningOption; onOpen: (order: OptionFlowOrder) => void; row: VirtualRowProps }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { order, progress, remainingMs } = props.running;
  const up = order.orderType === OptionDirection.up;
  return (
    <li {...props.row} className="order-row option-row" data-testid={`option-row-${order.uid}`}>
      <button type="button" className="order-row-button option-row-button" onClick={() => props.onOpen(order)} aria-label={`${order.productName} ${order.uid}`}>
        <span className="order-name">
          <strong>{order.productName}</strong>
          <span className={`order-direction ${up ? 'up' : 'down'}`}>{t(up ? 'option.buy_up' : 'option.buy_down')}</span>
          <span className="numeric">{format.amount(order.amount)}</span>
          <StatusBadge text={t('option.unsettled')} tone={optionStatusTone(OptionStatus.running)} />
        </span>
        <span className="order-prices numeric">
          <span>{format.price(order.price, pricePrecisionOf(order.tradePair))}</span>
          <span>
            <LivePrice symbol={order.tradePair} />
          </span>
          <OptionStandingText order={order} />
        </span>
        <CountdownBar progress={progress} remainingMs={remainingMs} label={t('option.time_left')} />
      </button>
    </li>
  );
}

/** Phones: the running options as a virtualized list. */
export function OptionPositionList() {
  const { t } = useTranslation();
  const { loaded, running } = useRunningOptions();
  // The drawer keeps its own copy: the row leaves at 0 while the drawer goes on to the result.
  const [open, setOpen] = useState<OptionFlowOrder | null>(null);
  return (
    <>
      <RunningState loaded={loaded} empty={running.length === 0} />
      {running.length > 0 ? (
        <VirtualList
          label={t('option.running')}
          items={running}
          itemKey={(each) => each.order.uid}
          sizing={{ estimatePx: optionRowEstimatePx }}
          scrollerClassName="order-scroller"
          listClassName="order-rows"
          renderRow={(row) => <OptionRow key={row.key} running={row.item} onOpen={setOpen} row={row.props} />}
        />
      ) : null}
      {open ? <OptionOrderFlow key={open.uid} start={open} maxTries={completionTriesFromList} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

/** The specification's desktop columns in option mode. */
function useOptionColumns(): GridColumn<RunningOption>[] {
  const { t } = useTranslation();
  const format = useBrandFormat();
  return useMemo(() => {
    const amount = format.amount;
    return [
      { key: 'symbol', label: t('position.symbol'), width: 'minmax(90px, 1.1fr)', pin: 'start', cell: ({ order }) => <strong>{order.productName}</strong> },
      { key: 'uid', label: t('position.order_id'), width: 'minmax(150px, 1.3fr)', numeric: true, hidePriority: 1, cell: ({ order }) => order.uid },
      {
        key: 'direction',
        label: t('position.direction'),
        width: 'minmax(70px, 0.7fr)',
        cell: ({ order }) => <span className={order.orderType === OptionDirection.up ? 'up' : 'down'}>{t(order.orderType === OptionDirection.up ? 'option.buy_up' : 'option.buy_down')}</span>,
      },
      { key: 'delivery', label: t('option.delivery_time'), width: 'minmax(64px, 0.6fr)', numeric: true, hidePriority: 4, cell: ({ order }) => t('option.seconds', { seconds: order.timeLong }) },
      { key: 'placePrice', label: t('option.place_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: ({ order }) => format.price(order.price, pricePrecisionOf(order.tradePair)) },
      { key: 'current', label: t('position.current_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: ({ order }) => <LivePrice symbol={order.tradePair} /> },
      { key: 'standing', label: t('option.standing'), width: 'minmax(72px, 0.7fr)', cell: ({ order }) => <OptionStandingText order={order} /> },
      { key: 'amount', label: t('option.order_amount'), width: 'minmax(70px, 0.8fr)', numeric: true, cell: ({ order }) => amount(order.amount) },
      { key: 'fee', label: t('position.fee'), width: 'minmax(56px, 0.6fr)', numeric: true, hidePriority: 2, cell: ({ order }) => amount(order.feeAmount) },
      { key: 'time', label: t('option.place_time'), width: 'minmax(148px, 1.2fr)', numeric: true, hidePriority: 3, cell: ({ order }) => format.time(order.beginTime) },
      {
        // The time left stays in view at the end, as profit and loss does for positions.
        key: 'progress',
        label: t('option.progress'),
        width: 'minmax(130px, 1.2fr)',
        pin: 'end',
        cell: ({ progress, remainingMs }) => <CountdownBar progress={progress} remainingMs={remainingMs} label={t('option.time_left')} />,
      },
    ] satisfies GridColumn<RunningOption>[];
  }, [t, format]);
}

/** Desktop: the running options as a grid with the option columns (a tab of the positions board), and the running-order drawer. */
export function RunningOptionsGrid() {
  const { t } = useTranslation();
  const { loaded, running } = useRunningOptions();
  const columns = useOptionColumns();
  const [open, setOpen] = useState<OptionFlowOrder | null>(null);
  return (
    <>
      <RunningState loaded={loaded} empty={running.length === 0} />
      {running.length > 0 ? (
        <VirtualGrid
          label={t('option.running')}
          columns={columns}
          items={running}
          rowKey={({ order }) => order.uid}
          rowLabel={({ order }) => `${order.productName} ${order.uid}`}
          onOpen={({ order }) => setOpen(order)}
        />
      ) : null}
      {open ? <OptionOrderFlow key={open.uid} start={open} maxTries={completionTriesFromList} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
