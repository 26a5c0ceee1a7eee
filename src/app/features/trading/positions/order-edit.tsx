import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { levelEditOf, updateOrder, updateOrderMock, type TradeOrder, type UpdateOrderBody } from '../../../../shared/api/trading';
import { formatMoney, parseMoney } from '../../../../shared/money/money';
import { isDemoSession } from '../../../../shared/protocol/engine';
import { checkPendingPrice, checkProtection, protectionOutcome, sanitizeDecimalInput, type FieldVerdict, type Protection } from '../../../../shared/trading/form-rules';
import { Direction, fillPriceOf, holdTimeLeft, OrderStatus } from '../../../../shared/trading/order-rules';
import { serverClock, useApp } from '../../../app-context';
import { Dialog } from '../../../components/dialog';
import { TextField } from '../../../components/text-field';
import { showToast } from '../../../components/toasts';
import { priceSignal, sessionSignal } from '../../../engine/signals';
import { useWatchedPrices } from '../../../engine/use-watched-prices';
import { productsSignal, useProducts } from '../../catalogue/products';
import { ProtectionOutcome } from '../place-form';
import { useRewrittenField } from '../rewritten-field';

/**
 * The time left before an open position may be closed by hand (the server's
 * `closableAfterTime`), counted down each second; null once it may be (or for an order
 * that is not an open position).
 */
export function useHoldCountdown(order: Pick<TradeOrder, 'closableAfterTime'>): string | null {
  const until = order.closableAfterTime;
  // The server set the time; the device's clock may be off, so the count runs on the server's as estimated.
  const [now, setNow] = useState(() => serverClock.serverNowMs());
  const left = holdTimeLeft(until, now);
  useEffect(() => {
    if (until === null) return undefined;
    // Ticks for as long as the row shows: the estimate of the server's clock may arrive after the row
    // (a device clock ahead would have said "closable" until then). An unchanged text keeps the old time: nothing renders.
    const timer = setInterval(() => {
      const current = serverClock.serverNowMs();
      setNow((previous) => (holdTimeLeft(until, previous) === holdTimeLeft(until, current) ? previous : current));
    }, 1_000);
    return () => clearInterval(timer);
  }, [until]);
  return left;
}

type EditField = 'price' | Protection;

/** The typed value of a level the order has, or empty. */
const typedOf = (value: string | null) => value ?? '';

/**
 * Changes an open position's stop loss and take profit, or a pending order's price and
 * levels, with the place form's rules and previews; the server checks again with the same
 * shared rules. Emptying a level the order has removes it.
 */
export function EditOrderDialog(props: { order: TradeOrder; onClose: () => void }) {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const { order } = props;
  // The product's precision and contract size (the previews); the positions page may not have loaded the catalogue.
  useProducts();
  const pending = order.status === OrderStatus.pending;
  const direction = order.orderType === Direction.buy ? Direction.buy : Direction.sell;
  const product = productsSignal.value.list.find((each) => each.productCode === order.tradePair);
  useWatchedPrices([order.tradePair]);
  const row = priceSignal(order.tradePair).value;
  const decimals = product?.pricePrecision ?? 5;
  const [price, setPrice] = useState(typedOf(order.limitPrice));
  const [stopLoss, setStopLoss] = useState(typedOf(order.stopPrice));
  const [takeProfit, setTakeProfit] = useState(typedOf(order.takeProfitPrice));
  const [errors, setErrors] = useState<Partial<Record<EditField, string>>>({});
  const [busy, setBusy] = useState(false);

  // A position's levels are checked against the price it closes at now (the feed's), a pending order's against its limit.
  const reference = pending ? parseMoney(price) : order.currentPrice === null ? null : parseMoney(order.currentPrice);
  const openPrice = pending ? parseMoney(price) : order.openingPrice === null ? null : parseMoney(order.openingPrice);
  const volume = parseMoney(order.orderQuantity);
  const terms = { contractSize: product?.contractSize ?? '0' };
  const outcome = (typed: string) => (product ? protectionOutcome(typed, direction, openPrice, volume, terms) : null);

  const rewritten = useRewrittenField();
  function settle(field: EditField, typed: string, verdict: FieldVerdict, set: (value: string) => void): boolean {
    rewritten.checked(typed, verdict);
    set(verdict.value);
    setErrors((previous) => ({ ...previous, [field]: verdict.ok ? undefined : t(verdict.messageKey, verdict.params ?? {}) }));
    return verdict.ok;
  }

  /** A typed level is checked; an empty one is none (removed if the order had it). */
  function checkLevel(kind: Protection, typed: string, set: (value: string) => void): boolean {
    if (typed.trim() === '') {
      setErrors((previous) => ({ ...previous, [kind]: undefined }));
      return true;
    }
    return reference !== null && settle(kind, typed, checkProtection(typed, kind, direction, reference, decimals), set);
  }

  const checks = {
    price: () => {
      const current = row ? parseMoney(fillPriceOf(direction, { bid: row[2], ask: row[3] })) : null;
      return current !== null && settle('price', price, checkPendingPrice(price, current, direction === Direction.buy, decimals), setPrice);
    },
    stopLoss: () => checkLevel('stopLoss', stopLoss, setStopLoss),
    takeProfit: () => checkLevel('takeProfit', takeProfit, setTakeProfit),
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy || rewritten.holdsSubmit()) return;
    if (![pending ? checks.price() : true, checks.stopLoss(), checks.takeProfit()].every(Boolean)) return;
    const stopPrice = levelEditOf(stopLoss, order.stopPrice);
    const takeProfitPrice = levelEditOf(takeProfit, order.takeProfitPrice);
    const body: UpdateOrderBody = {
      orderId: order.uid,
      ...(pending ? { price } : {}),
      ...(stopPrice === undefined ? {} : { stopPrice }),
      ...(takeProfitPrice === undefined ? {} : { takeProfitPrice }),
    };
    setBusy(true);
    try {
      await http.call(isDemoSession(sessionSignal.value) ? updateOrderMock : updateOrder, body);
      showToast('success', t('position.updated'));
      props.onClose();
    } catch {
      // The request client has told the user why.
    } finally {
      setBusy(false);
    }
  }

  const field = (name: EditField, label: string, value: string, set: (value: string) => void) => (
    <TextField
      label={label}
      value={value}
      inputMode="decimal"
      autoComplete="off"
      inputClassName="numeric"
      error={errors[name] ?? null}
      onChange={(typed) => set(sanitizeDecimalInput(typed, decimals))}
      onBlur={() => void checks[name]()}
    />
  );

  return (
    <Dialog title={`${order.productName} · ${t('position.edit_title')}`} onClose={props.onClose}>
      <form className="place-form" noValidate onSubmit={(event) => void save(event)}>
        <p className="place-current numeric">
          {t(pending ? 'position.limit_price' : 'position.current_price')}:{' '}
          <strong>{pending ? typedOf(order.limitPrice) : reference !== null ? formatMoney(reference, decimals) : '—'}</strong>
        </p>
        {pending ? field('price', t('trade.limit_price'), price, setPrice) : null}
        {field('stopLoss', t('trade.stop_loss_price'), stopLoss, setStopLoss)}
        <ProtectionOutcome label={t('trade.result_at_stop_loss')} value={outcome(stopLoss)} testId="edit-stop-loss-result" />
        {field('takeProfit', t('trade.take_profit_price'), takeProfit, setTakeProfit)}
        <ProtectionOutcome label={t('trade.result_at_take_profit')} value={outcome(takeProfit)} testId="edit-take-profit-result" />
        <button type="submit" className="button primary" disabled={busy} {...rewritten.submitPress}>
          {t('position.save')}
        </button>
      </form>
    </Dialog>
  );
}
