import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Product } from '../../../shared/api/market';
import { addOrder, addOrderMock, orderList, orderListMock, type TradeOrder } from '../../../shared/api/trading';
import { tradeBlock } from '../../../shared/market/tradability';
import type { MarketStatus } from '../../../shared/market/market-hours';
import { formatMoney, parseMoney, type Units } from '../../../shared/money/money';
import { checkPendingPrice, checkProtection, checkVolume, previewFee, protectionOutcome, sanitizeDecimalInput, type FieldVerdict, type Protection } from '../../../shared/trading/form-rules';
import { Direction, fillPriceOf, leverageChoices, marginFor, PriceType } from '../../../shared/trading/order-rules';
import { useRewrittenField } from './rewritten-field';
import { useBrandFormat } from '../../format/use-brand-format';
import { useApp } from '../../app-context';
import { useAccountBalance } from '../account/account-balance';
import { showToast } from '../../components/toasts';
import { SignInToTrade, useOrderSubmission } from './order-submission';
import { FieldFrame, TextField } from '../../components/text-field';
import { AnnounceOnce } from '../../components/announce-once';
import { positionsSignal, priceSignal, sessionSignal } from '../../engine/signals';
import { useWatchedPrices } from '../../engine/use-watched-prices';
import { isDemoSession } from '../../../shared/protocol/engine';
import { Face, faceAria, useQuoteLine } from './trade-buttons';
import { TicketSubmitBar, useScrolledIntoView } from './ticket-submit-bar';
import { changeTone } from '../catalogue/price-tone';
import { useProductOrderTerms } from './use-product-order-terms';

type Field = 'volume' | 'price' | 'stopLoss' | 'takeProfit';

/** A price or volume field: digits and one decimal point, with limited decimals. */
function DecimalInput(props: { label: string; value: string; decimals: number; onChange: (value: string) => void; onBlur: () => void; error: string | null }) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      inputMode="decimal"
      autoComplete="off"
      inputClassName="numeric"
      error={props.error}
      onChange={(value) => props.onChange(sanitizeDecimalInput(value, props.decimals))}
      onBlur={props.onBlur}
    />
  );
}

/**
 * The market order form: market or pending price, volume in pip steps between the
 * product's bounds, optional stop loss and take profit on the right side of the price,
 * the margin and fee it will lock, and the closed reasons. Real sessions place on the
 * real book, demo sessions through the Mock path.
 */
export function PlaceForm(props: {
  product: Product;
  status: MarketStatus;
  direction: Direction;
  /** Desktop: the buy/sell tab. */
  onDirection?: (direction: Direction) => void;
  /** Where "view position" goes; the positions page unless the workspace shows its own list. */
  onViewPosition?: () => void;
}) {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const [, navigate] = useLocation();
  const { direction } = props;
  const session = sessionSignal.value;
  // The limits the order is checked against: the signed-in trading info over the catalogue's.
  const { terms: product, loading: termsLoading } = useProductOrderTerms(props.product, session.signedIn);
  const symbol = product.productCode;
  useWatchedPrices([symbol]);
  const row = priceSignal(symbol).value;
  const balance = useAccountBalance();

  const [priceType, setPriceType] = useState<PriceType>(PriceType.market);
  const [volume, setVolume] = useState(product.minCount);
  // The product's leverage by default; a lower step locks more margin.
  const [leverage, setLeverage] = useState(product.multiple);
  const leverageId = useId();
  const [price, setPrice] = useState('');
  const [stopLossOn, setStopLossOn] = useState(false);
  const [takeProfitOn, setTakeProfitOn] = useState(false);
  const [stopLoss, setStopLoss] = useState('');
  const [takeProfit, setTakeProfit] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [placed, setPlaced] = useState<PlacedOrder | null>(null);
  const { submitting, submit: send } = useOrderSubmission();

  const buy = direction === Direction.buy;
  const current = row ? parseMoney(fillPriceOf(direction, { bid: row[2], ask: row[3] })) : null;
  const blocked = tradeBlock([product], props.status);
  const decimals = product.pricePrecision;

  function message(verdict: FieldVerdict): string | null {
    return verdict.ok ? null : t(verdict.messageKey, verdict.params ?? {});
  }

  const rewritten = useRewrittenField();
  function settle(field: Field, typed: string, verdict: FieldVerdict, set: (value: string) => void): boolean {
    rewritten.checked(typed, verdict);
    set(verdict.value);
    setErrors((previous) => ({ ...previous, [field]: message(verdict) ?? undefined }));
    return verdict.ok;
  }

  function protection(kind: Protection, typed: string, set: (value: string) => void): boolean {
    const reference = priceType === PriceType.pending ? parseMoney(price) : current;
    return reference !== null && settle(kind, typed, checkProtection(typed, kind, direction, reference, decimals), set);
  }

  const checks = {
    volume: () => settle('volume', volume, checkVolume(volume, product), setVolume),
    // A buy limit waits at or below the price, a sell limit at or above it, both within the band.
    price: () => current !== null && settle('price', price, checkPendingPrice(price, current, buy, decimals), setPrice),
    // Each on its side of the price the order fills at (the limit for a pending order); a wrong side is set to that price, saying the maximum or minimum.
    stopLoss: () => protection('stopLoss', stopLoss, setStopLoss),
    takeProfit: () => protection('takeProfit', takeProfit, setTakeProfit),
  };

  const fillPrice = priceType === PriceType.pending ? parseMoney(price) : current;
  const lots = parseMoney(volume);
  const margin = fillPrice !== null && lots !== null ? marginFor(fillPrice, lots, { contractSize: product.contractSize, multiple: leverage }) : null;
  // A pending order pays its fee when it fills: previewed at its limit, not as 0.
  const fee = previewFee(fillPrice, lots, product);
  const amount = format.units;
  const outcome = (typed: string) => protectionOutcome(typed, direction, fillPrice, lots, product);
  const quote = useQuoteLine(product);
  const submitId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting || blocked || termsLoading || current === null || rewritten.holdsSubmit()) return;
    const ok = [checks.volume(), priceType === PriceType.pending ? checks.price() : true, stopLossOn ? checks.stopLoss() : true, takeProfitOn ? checks.takeProfit() : true].every(Boolean);
    if (!ok) return;
    const contract = isDemoSession(session) ? addOrderMock : addOrder;
    const orderNo = await send((clientOrderId, requestOptions) =>
      http.call(contract, {
        tradePair: symbol,
        price: priceType === PriceType.pending ? price : '0',
        ...(stopLossOn ? { stopPrice: stopLoss } : {}),
        ...(takeProfitOn ? { takeProfitPrice: takeProfit } : {}),
        orderQuantity: volume,
        multiple: leverage,
        orderType: direction,
        buyPoint: priceType,
        clientOrderId,
      }, requestOptions),
    );
    if (orderNo !== null) setPlaced({ orderNo, priceType });
  }

  if (!session.signedIn) return <SignInToTrade returnPath={`/${symbol}/place?direction=${direction}`} />;

  return (
    <form className="place-form" noValidate onSubmit={(event) => void submit(event)}>
      {props.onDirection ? (
        <div className="segmented direction-tabs" role="group" aria-label={t('trade.direction')}>
          {([Direction.buy, Direction.sell] as const).map((each) => (
            <button key={each} type="button" aria-pressed={each === direction} onClick={() => props.onDirection?.(each)}>
              {t(each === Direction.buy ? 'market.buy' : 'market.sell')}
            </button>
          ))}
        </div>
      ) : null}
      <div className="segmented price-type-tabs" role="group" aria-label={t('trade.price_type')}>
        {([PriceType.market, PriceType.pending] as const).map((each) => (
          <button key={each} type="button" aria-pressed={each === priceType} onClick={() => setPriceType(each)}>
            {t(each === PriceType.market ? 'trade.market_price' : 'trade.pending_order')}
          </button>
        ))}
      </div>
      <p className="place-quote numeric" data-testid="place-quote">
        <span>
          {t('market.sell')} <strong className="down">{quote.bid}</strong>
        </span>
        <span>
          {t('trade.spread')} <strong>{quote.spread}</strong>
        </span>
        <span>
          {t('market.buy')} <strong className="up">{quote.ask}</strong>
        </span>
      </p>
      <p className="place-current numeric">
        {t(buy ? 'trade.current_ask' : 'trade.current_bid')}: <strong data-testid="place-current">{current !== null ? format.price(formatMoney(current), decimals) : '—'}</strong>
      </p>
      <AnnounceOnce
        subject={`${symbol}|${direction}`}
        text={current !== null ? `${product.productName || symbol}, ${t(buy ? 'trade.current_ask' : 'trade.current_bid')}: ${format.price(formatMoney(current), decimals)}` : null}
      />
      {priceType === PriceType.pending ? (
        <DecimalInput label={t('trade.limit_price')} value={price} decimals={decimals} onChange={setPrice} onBlur={() => void checks.price()} error={errors.price ?? null} />
      ) : null}
      <DecimalInput label={t('trade.volume')} value={volume} decimals={product.countNum} onChange={setVolume} onBlur={() => void checks.volume()} error={errors.volume ?? null} />
      <FieldFrame id={leverageId} label={t('trade.leverage')} controlClassName="field-control">
        <select id={leverageId} className="leverage-select numeric" data-testid="place-leverage" value={leverage} onChange={(event) => setLeverage(Number(event.target.value))}>
          {leverageChoices(product.multiple).map((each) => (
            <option key={each} value={each}>
              1:{each}
            </option>
          ))}
        </select>
      </FieldFrame>
      <label className="toggle-row">
        <input type="checkbox" checked={stopLossOn} onChange={(event) => setStopLossOn(event.target.checked)} />
        {t('trade.stop_loss')}
      </label>
      {stopLossOn ? (
        <>
          <DecimalInput label={t('trade.stop_loss_price')} value={stopLoss} decimals={decimals} onChange={setStopLoss} onBlur={() => void checks.stopLoss()} error={errors.stopLoss ?? null} />
          <ProtectionOutcome label={t('trade.result_at_stop_loss')} value={outcome(stopLoss)} testId="place-stop-loss-result" />
        </>
      ) : null}
      <label className="toggle-row">
        <input type="checkbox" checked={takeProfitOn} onChange={(event) => setTakeProfitOn(event.target.checked)} />
        {t('trade.take_profit')}
      </label>
      {takeProfitOn ? (
        <>
          <DecimalInput label={t('trade.take_profit_price')} value={takeProfit} decimals={decimals} onChange={setTakeProfit} onBlur={() => void checks.takeProfit()} error={errors.takeProfit ?? null} />
          <ProtectionOutcome label={t('trade.result_at_take_profit')} value={outcome(takeProfit)} testId="place-take-profit-result" />
        </>
      ) : null}
      <dl className="place-preview numeric">
        <div>
          <dt>{t('trade.margin')}</dt>
          <dd data-testid="place-margin">{margin !== null ? amount(margin) : '—'}</dd>
        </div>
        <div>
          <dt>{t('trade.fee')}</dt>
          <dd data-testid="place-fee">{fee !== null ? amount(fee) : '—'}</dd>
        </div>
        <div>
          <dt>{t('desktop.available_balance')}</dt>
          <dd data-testid="place-available">{balance ? format.amount(balance.balanceAmount) : '…'}</dd>
        </div>
      </dl>
      {placed ? (
        <OrderConfirmation
          key={placed.orderNo}
          placed={placed}
          product={product}
          direction={direction}
          onClose={() => setPlaced(null)}
          onViewPosition={() => {
            setPlaced(null);
            if (props.onViewPosition) props.onViewPosition();
            else navigate('/position');
          }}
        />
      ) : null}
      <TicketSubmitBar>
        <button
          type="submit"
          className={`button ${buy ? 'buy' : 'sell'} place-submit`}
          disabled={Boolean(blocked) || submitting || termsLoading || current === null}
          {...rewritten.submitPress}
          {...(blocked ? {} : faceAria(submitId))}
        >
          {blocked ? (
            t(blocked === 'closed' ? 'chart.closed' : 'chart.market_closed')
          ) : (
            <Face id={submitId} label={t(buy ? 'market.buy' : 'market.sell')} price={buy ? quote.ask : quote.bid} testId="place-submit-price" />
          )}
        </button>
      </TicketSubmitBar>
    </form>
  );
}

/** What the user placed, until its confirmation is dismissed. */
interface PlacedOrder {
  orderNo: string;
  priceType: PriceType;
}

/** What a stop loss or take profit would gain or lose, in the account's currency. */
export function ProtectionOutcome(props: { label: string; value: Units | null; testId: string }) {
  const format = useBrandFormat();
  const value = props.value;
  return (
    <p className="protection-outcome numeric">
      {props.label}:{' '}
      <strong className={value !== null ? changeTone(formatMoney(value)) : ''} data-testid={props.testId}>
        {value !== null ? format.units(value) : '—'}
      </strong>
    </p>
  );
}

/** How long the confirmation waits for the live feed before it looks the order up. */
const feedWaitMs = 2_000;

/**
 * The placed order as the live feed holds it (an open position or a pending order). If the
 * feed has not brought it in time (its socket is reconnecting, or a stop already closed it),
 * the account's latest orders are asked once instead.
 */
function usePlacedOrder(orderNo: string): TradeOrder | undefined {
  const { http } = useApp();
  const positions = positionsSignal.value;
  const fed = [...(positions.holt?.orderList ?? []), ...(positions.pending?.orderList ?? [])].find((order) => order.uid === orderNo);
  const [looked, setLooked] = useState<TradeOrder | undefined>(undefined);
  const arrived = fed !== undefined;
  useEffect(() => {
    if (arrived) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      const contract = isDemoSession(sessionSignal.peek()) ? orderListMock : orderList;
      http
        .call(contract, { page: 1, limit: 10 }, { silent: true })
        .then(({ list }) => {
          if (live) setLooked(list.find((order) => order.uid === orderNo));
        })
        .catch(() => {
          // The specification's order-result lookups are silent; the order number is on screen.
        });
    }, feedWaitMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [arrived, http, orderNo]);
  return fed ?? looked;
}

/**
 * The in-place confirmation, as terminals show one: side, volume, product, fill price (the
 * open price the live feed pushes with the new order; "pending at" the limit for a
 * pending order) and time, with a toast saying the same once the feed has it. It blocks
 * nothing: the form stays usable beside it.
 */
function OrderConfirmation(props: { placed: PlacedOrder; product: Product; direction: Direction; onClose: () => void; onViewPosition: () => void }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { placed, product } = props;
  const order = usePlacedOrder(placed.orderNo);
  const buy = props.direction === Direction.buy;
  const pending = placed.priceType === PriceType.pending;
  const priceOf = (value: string | null) => {
    const units = value === null ? null : parseMoney(value);
    return units === null ? '—' : formatMoney(units, product.pricePrecision);
  };
  const summary = order
    ? t(pending ? (buy ? 'trade.buy_pending_at' : 'trade.sell_pending_at') : buy ? 'trade.bought_at' : 'trade.sold_at', {
        volume: order.orderQuantity,
        product: product.productName,
        price: priceOf(pending ? order.limitPrice : order.openingPrice),
      })
    : null;
  const told = useRef(false);
  const card = useScrolledIntoView<HTMLElement>();
  useEffect(() => {
    if (summary === null || told.current) return;
    told.current = true;
    showToast('success', summary);
  }, [summary]);
  return (
    <section ref={card} className={`order-confirmation ${buy ? 'buy' : 'sell'}`} role="region" aria-label={t('trade.placed_title')}>
      <h2>{t('trade.placed_title')}</h2>
      <p className="order-confirmation-summary" data-testid="placed-summary" aria-busy={summary === null}>
        {summary ?? t('trade.confirming')}
      </p>
      <dl className="place-preview numeric">
        <div>
          <dt>{pending ? t('trade.limit_price') : t('trade.fill_price')}</dt>
          <dd data-testid="placed-price">{order ? (pending ? t('trade.pending_at', { price: priceOf(order.limitPrice) }) : priceOf(order.openingPrice)) : '—'}</dd>
        </div>
        <div>
          <dt>{t('position.order_time')}</dt>
          <dd data-testid="placed-time">{order ? format.time(order.transactionTime ?? order.orderTime) : '—'}</dd>
        </div>
        <div>
          <dt>{t('trade.order_number')}</dt>
          <dd data-testid="placed-order">{placed.orderNo}</dd>
        </div>
      </dl>
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={props.onClose}>
          {t('common.close')}
        </button>
        <button type="button" className="button primary" onClick={props.onViewPosition}>
          {t('trade.view_position')}
        </button>
      </div>
    </section>
  );
}
