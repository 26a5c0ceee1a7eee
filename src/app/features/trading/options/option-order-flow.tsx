import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { optionCompleted, optionOrderByUid, OptionStatus, type OptionOrder } from '../../../../shared/api/options';
import { countdownMilestone, OptionDirection, optionStanding, progressPercent } from '../../../../shared/options/option-rules';
import { useBrandFormat } from '../../../format/use-brand-format';
import { useApp } from '../../../app-context';
import { Dialog } from '../../../components/dialog';
import { FloatingDialog } from '../../../components/floating-dialog';
import { useIsDesktop } from '../../../layouts/use-viewport';
import { pricePrecisionOf } from '../../catalogue/products';
import { showToast } from '../../../components/toasts';
import { optionsSignal, priceSignal } from '../../../engine/signals';
import { useWatchedPrices } from '../../../engine/use-watched-prices';
import { changeTone } from '../../catalogue/price-tone';
import { watchOptionCompletion } from './option-completion';

/** The specification's mobile drawer heights: the option success (progress) drawer and the settlement drawer. */
const progressDrawerHeightPx = 420;
const settlementDrawerHeightPx = 400;
/** The fallback countdown's refresh, the engine's cadence. */
const localTickMs = 200;

/** What the flow needs of an option: a running order, or what the form knows right after placing one. */
export type OptionFlowOrder = Pick<OptionOrder, 'uid' | 'tradePair' | 'productName' | 'orderType' | 'amount' | 'timeLong' | 'endTime'> & {
  /** The start price; null until the server's order is known. */
  price: string | null;
};

type Phase = { kind: 'running'; remainingMs: number; progress: number } | { kind: 'settling' } | { kind: 'result'; order: OptionOrder };

/**
 * One option from its countdown to its result: the countdown from the engine's running
 * list (or, until its push arrives, from the order's end time), then the settlement
 * check, then the settled order. A settlement pushed by the server is taken at once.
 */
function useOptionLifecycle(props: { start: OptionFlowOrder; maxTries: number; localOffsetMs: number; onGiveUp: () => void }) {
  useSignals();
  const { http } = useApp();
  const { start, maxTries, localOffsetMs } = props;
  const uid = start.uid;
  const options = optionsSignal.value;
  const entry = options.running.find((each) => each.order.uid === uid);
  const pushed = options.settled.find((each) => each.uid === uid && each.status === OptionStatus.settled);
  const [fetched, setFetched] = useState<OptionOrder | null>(null);
  const [polled, setPolled] = useState<OptionOrder | null>(null);
  // Once the engine has counted this option, its leaving the running list means its time is up;
  // the order it counted (start price included) stays on show while it settles.
  const [counted, setCounted] = useState<OptionOrder | null>(null);
  if (entry && counted === null) setCounted(entry.order);
  const [nowMs, setNowMs] = useState(() => Date.now());

  const result = pushed ?? polled ?? (fetched?.status === OptionStatus.settled ? fetched : null);
  const remainingMs = entry ? entry.remainingMs : counted !== null ? 0 : start.endTime + localOffsetMs - nowMs;
  const ended = result !== null || remainingMs <= 0;

  // The local countdown runs only while the engine has not counted the option (or never will).
  const needsLocalTick = !entry && !ended;
  useEffect(() => {
    if (!needsLocalTick) return;
    const timer = setInterval(() => setNowMs(Date.now()), localTickMs);
    return () => clearInterval(timer);
  }, [needsLocalTick]);

  // Right after placing, the start price comes with the server's order (its push usually comes first).
  const needsOrder = start.price === null && !entry;
  useEffect(() => {
    if (!needsOrder) return;
    let stopped = false;
    http
      .call(optionOrderByUid, { uid }, { silent: true })
      .then((order) => !stopped && setFetched(order))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
    // One look is enough: the push or the settlement will follow.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uid]);

  const giveUp = useEffectEvent(() => props.onGiveUp());
  const waiting = ended && result === null;
  useEffect(() => {
    if (!waiting) return;
    const current = watchOptionCompletion({
      uid,
      maxTries,
      isCompleted: async (id) => (await http.call(optionCompleted, { uid: id }, { silent: true })).completed,
      fetchOrder: (id) => http.call(optionOrderByUid, { uid: id }, { silent: true }),
      timers: { setTimeout: (run, ms) => window.setTimeout(run, ms), clearTimeout: (handle) => window.clearTimeout(handle as number) },
      onResult: setPolled,
      onGiveUp: giveUp,
    });
    // A result pushed meanwhile ends the wait, and with it the polling.
    return () => current.cancel();
  }, [waiting, uid, maxTries, http]);

  const order: OptionFlowOrder = result ?? entry?.order ?? counted ?? fetched ?? start;
  const phase: Phase = result
    ? { kind: 'result', order: result }
    : ended
      ? { kind: 'settling' }
      : { kind: 'running', remainingMs, progress: entry ? entry.progress : progressPercent(remainingMs, start.timeLong) };
  return { order, phase };
}

/** A label and its value, in the drawers' detail lists. */
function Detail(props: { label: string; value: string; testId?: string; tone?: string }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd className={props.tone} data-testid={props.testId}>
        {props.value}
      </dd>
    </div>
  );
}

/** The live price of a symbol at its product's digits, watched while shown. */
export function LivePrice(props: { symbol: string }) {
  useSignals();
  const format = useBrandFormat();
  useWatchedPrices([props.symbol]);
  return <>{format.price(priceSignal(props.symbol).value?.[1], pricePrecisionOf(props.symbol))}</>;
}

/**
 * How a running option stands at the live price, in words and the up/down tone (winning,
 * losing, even); nothing while a price is unknown.
 */
export function OptionStandingText(props: { order: Pick<OptionFlowOrder, 'orderType' | 'price' | 'tradePair' | 'uid'> }) {
  useSignals();
  const { t } = useTranslation();
  useWatchedPrices([props.order.tradePair]);
  const standing = optionStanding(props.order.orderType === OptionDirection.up ? OptionDirection.up : OptionDirection.down, props.order.price, priceSignal(props.order.tradePair).value?.[1]);
  if (standing === null) return null;
  const tone = standing === 'winning' ? 'up' : standing === 'losing' ? 'down' : '';
  return (
    <span className={`option-standing ${tone}`} data-standing={standing} data-testid={`option-standing-${props.order.uid}`}>
      {t(`option.standing_${standing}`)}
    </span>
  );
}

/**
 * Where the flow shows: a drawer (the specification's) on phones; on desktop a panel that
 * floats beside the terminal without blocking it, so trading goes on while an option runs.
 */
function FlowSurface(props: { title: string; onClose: () => void; heightPx: number; describe?: boolean; children: ReactNode }) {
  const desktop = useIsDesktop();
  if (desktop) {
    return (
      <FloatingDialog title={props.title} onClose={props.onClose} widthPx={340} describe={props.describe}>
        {props.children}
      </FloatingDialog>
    );
  }
  return (
    <Dialog title={props.title} onClose={props.onClose} heightPx={props.heightPx} describe={props.describe}>
      {props.children}
    </Dialog>
  );
}

/** The countdown bar: a progressbar whose value falls from 100 to 0. */
export function CountdownBar(props: { progress: number; remainingMs: number; label: string }) {
  const { t } = useTranslation();
  const seconds = Math.max(0, Math.ceil(props.remainingMs / 1000));
  // Spans: the bar also sits inside row buttons and grid cells, which take phrasing content only.
  return (
    <span className="option-countdown">
      <span
        className="option-countdown-track"
        role="progressbar"
        aria-label={props.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={props.progress}
        aria-valuetext={t('option.seconds_left', { seconds })}
      >
        <span className="option-countdown-fill" style={{ width: `${props.progress}%` }} />
      </span>
      <span className="option-countdown-seconds numeric" data-testid="option-seconds-left">
        {t('option.seconds_left', { seconds })}
      </span>
    </span>
  );
}

/**
 * What a screen reader hears of the countdown: a polite status that changes only at the
 * milestones (60, 30 and 10 seconds left), never every second. Only the open option's
 * drawer has one, not every row of a list.
 */
function CountdownAnnouncer(props: { remainingMs: number }) {
  const { t } = useTranslation();
  const milestone = countdownMilestone(Math.max(0, Math.ceil(props.remainingMs / 1000)));
  return (
    <span className="visually-hidden" role="status" data-testid="option-countdown-announced">
      {milestone === null ? '' : t('option.seconds_left', { seconds: milestone })}
    </span>
  );
}

/** The win/loss label of a settled option. */
export function resultKey(order: Pick<OptionOrder, 'result'>): string {
  return `option.result_${order.result ?? 'void'}`;
}

/**
 * After placing, or from the position list: the progress drawer with the countdown,
 * the settling drawer once it reaches 0, then the result drawer. With no result after
 * the tries, the user is told to check the history and taken there.
 */
export function OptionOrderFlow(props: {
  start: OptionFlowOrder;
  maxTries: number;
  /** Local clock minus server clock, for the countdown before the engine counts the option. */
  localOffsetMs?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const [, navigate] = useLocation();
  const { onClose } = props;
  const { order, phase } = useOptionLifecycle({
    start: props.start,
    maxTries: props.maxTries,
    localOffsetMs: props.localOffsetMs ?? 0,
    onGiveUp: () => {
      showToast('error', t('notice.fail_result_check_history'));
      onClose();
      navigate('/history');
    },
  });
  const amount = format.amount;
  const price = (value: string | null) => format.price(value, pricePrecisionOf(order.tradePair));
  const up = order.orderType === OptionDirection.up;
  const direction = <Detail label={t('position.direction')} value={t(up ? 'option.buy_up' : 'option.buy_down')} tone={up ? 'up' : 'down'} />;

  if (phase.kind === 'result') {
    const settled = phase.order;
    const winLost = settled.winLost ?? '0';
    const tone = settled.result === 'win' ? 'up' : settled.result === 'loss' ? 'down' : '';
    return (
      <FlowSurface title={t('option.result_title')} onClose={onClose} heightPx={settlementDrawerHeightPx} describe>
        <div className="option-result" data-result={settled.result ?? 'void'}>
          <strong className={`option-result-label ${tone}`} data-testid="option-result">
            {t(resultKey(settled))}
          </strong>
          <span className={`option-result-amount numeric ${changeTone(winLost)}`} data-testid="option-win-lost">
            {changeTone(winLost) === 'up' ? '+' : ''}
            {amount(winLost)}
          </span>
        </div>
        <dl className="order-details numeric">
          <Detail label={t('position.order_id')} value={settled.uid} testId="option-order-id" />
          {direction}
          <Detail label={t('option.start_price')} value={price(settled.price)} />
          <Detail label={t('option.end_price')} value={price(settled.priceEnd)} testId="option-end-price" />
          <Detail label={t('option.amount')} value={amount(settled.amount)} />
          <Detail label={t('option.fee')} value={amount(settled.feeAmount)} />
          <Detail label={t('option.settlement_time')} value={format.time(settled.completeTime)} />
        </dl>
      </FlowSurface>
    );
  }

  if (phase.kind === 'settling') {
    return (
      <FlowSurface title={t('option.settling_title')} onClose={onClose} heightPx={settlementDrawerHeightPx}>
        <div className="option-settling" role="status" aria-busy="true">
          <span className="spinner" aria-hidden="true" />
          <p>{t('option.settling_text')}</p>
        </div>
        <dl className="order-details numeric">
          <Detail label={t('position.order_id')} value={order.uid} testId="option-order-id" />
          {direction}
          <Detail label={t('option.amount')} value={amount(order.amount)} />
          <Detail label={t('option.start_price')} value={price(order.price)} />
        </dl>
      </FlowSurface>
    );
  }

  return (
    <FlowSurface title={t('option.progress_title')} onClose={onClose} heightPx={progressDrawerHeightPx}>
      <dl className="order-details numeric">
        <Detail label={t('option.product')} value={order.productName} />
        <Detail label={t('position.order_id')} value={order.uid} testId="option-order-id" />
        {direction}
        <Detail label={t('option.amount')} value={amount(order.amount)} />
        <Detail label={t('option.delivery_time')} value={t('option.seconds', { seconds: order.timeLong })} />
        <Detail label={t('option.start_price')} value={price(order.price)} testId="option-start-price" />
        <div>
          <dt>{t('option.live_price')}</dt>
          <dd data-testid="option-live-price">
            <LivePrice symbol={order.tradePair} />
          </dd>
        </div>
        <div>
          <dt>{t('option.standing')}</dt>
          <dd>
            <OptionStandingText order={order} />
          </dd>
        </div>
      </dl>
      <CountdownBar progress={phase.progress} remainingMs={phase.remainingMs} label={t('option.time_left')} />
      <CountdownAnnouncer remainingMs={phase.remainingMs} />
    </FlowSurface>
  );
}
