import { useSignals } from '@preact/signals-react/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Product } from '../../../shared/api/market';
import { addOrder, addOrderMock } from '../../../shared/api/trading';
import { tradeBlock } from '../../../shared/market/tradability';
import type { MarketStatus } from '../../../shared/market/market-hours';
import { formatMoney, parseMoney } from '../../../shared/money/money';
import { checkPendingPrice, checkSidedPrice, checkVolume, sanitizeDecimalInput, type FieldVerdict } from '../../../shared/trading/form-rules';
import { Direction, feeFor, fillPriceOf, marginFor, PriceType } from '../../../shared/trading/order-rules';
import { useBrandFormat } from '../../format/use-brand-format';
import { useApp } from '../../app-context';
import { useAccountBalance } from '../account/account-balance';
import { Dialog } from '../../components/dialog';
import { SignInToTrade, useOrderSubmission } from './order-submission';
import { TextField } from '../../components/text-field';
import { priceSignal, sessionSignal } from '../../engine/signals';
import { useWatchedPrices } from '../../engine/use-watched-prices';
import { isDemoSession } from '../../../shared/protocol/engine';

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
  const { product, direction } = props;
  const symbol = product.productCode;
  useWatchedPrices([symbol]);
  const row = priceSignal(symbol).value;
  const session = sessionSignal.value;
  const balance = useAccountBalance();

  const [priceType, setPriceType] = useState<PriceType>(PriceType.market);
  const [volume, setVolume] = useState(product.minCount);
  const [price, setPrice] = useState('');
  const [stopLossOn, setStopLossOn] = useState(false);
  const [takeProfitOn, setTakeProfitOn] = useState(false);
  const [stopLoss, setStopLoss] = useState('');
  const [takeProfit, setTakeProfit] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [placed, setPlaced] = useState<string | null>(null);
  const { submitting, submit: send } = useOrderSubmission();

  const buy = direction === Direction.buy;
  const current = row ? parseMoney(fillPriceOf(direction, { bid: row[2], ask: row[3] })) : null;
  const blocked = tradeBlock([product], props.status);
  const decimals = product.pricePrecision;

  function message(verdict: FieldVerdict): string | null {
    return verdict.ok ? null : t(verdict.messageKey, verdict.params ?? {});
  }

  function settle(field: Field, verdict: FieldVerdict, set: (value: string) => void): boolean {
    set(verdict.value);
    setErrors((previous) => ({ ...previous, [field]: message(verdict) ?? undefined }));
    return verdict.ok;
  }

  const checks = {
    volume: () => settle('volume', checkVolume(volume, product), setVolume),
    // A buy limit waits at or below the price, a sell limit at or above it, both within the band.
    price: () => current !== null && settle('price', checkPendingPrice(price, current, buy, decimals), setPrice),
    stopLoss: () => {
      const reference = priceType === PriceType.pending ? parseMoney(price) : current;
      return reference !== null && settle('stopLoss', checkSidedPrice(stopLoss, reference, buy ? 'max' : 'min', decimals, 'trade.stoploss_empty_rule'), setStopLoss);
    },
    takeProfit: () => {
      const reference = priceType === PriceType.pending ? parseMoney(price) : current;
      return reference !== null && settle('takeProfit', checkSidedPrice(takeProfit, reference, buy ? 'min' : 'max', decimals, 'trade.takeprofit_empty_rule'), setTakeProfit);
    },
  };

  const fillPrice = priceType === PriceType.pending ? parseMoney(price) : current;
  const lots = parseMoney(volume);
  const margin = fillPrice !== null && lots !== null ? marginFor(fillPrice, lots, product) : null;
  const fee = fillPrice !== null && lots !== null && priceType === PriceType.market ? feeFor(fillPrice, lots, product) : 0n;
  const amount = format.units;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting || blocked || current === null) return;
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
        multiple: product.multiple,
        orderType: direction,
        buyPoint: priceType,
        clientOrderId,
      }, requestOptions),
    );
    if (orderNo !== null) setPlaced(orderNo);
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
      <p className="place-current numeric">
        {t(buy ? 'trade.current_ask' : 'trade.current_bid')}: <strong data-testid="place-current">{current !== null ? formatMoney(current, decimals) : '—'}</strong>
      </p>
      {priceType === PriceType.pending ? (
        <DecimalInput label={t('trade.limit_price')} value={price} decimals={decimals} onChange={setPrice} onBlur={() => void checks.price()} error={errors.price ?? null} />
      ) : null}
      <DecimalInput label={t('trade.volume')} value={volume} decimals={product.countNum} onChange={setVolume} onBlur={() => void checks.volume()} error={errors.volume ?? null} />
      <label className="toggle-row">
        <input type="checkbox" checked={stopLossOn} onChange={(event) => setStopLossOn(event.target.checked)} />
        {t('trade.stop_loss')}
      </label>
      {stopLossOn ? (
        <DecimalInput label={t('trade.stop_loss_price')} value={stopLoss} decimals={decimals} onChange={setStopLoss} onBlur={() => void checks.stopLoss()} error={errors.stopLoss ?? null} />
      ) : null}
      <label className="toggle-row">
        <input type="checkbox" checked={takeProfitOn} onChange={(event) => setTakeProfitOn(event.target.checked)} />
        {t('trade.take_profit')}
      </label>
      {takeProfitOn ? (
        <DecimalInput label={t('trade.take_profit_price')} value={takeProfit} decimals={decimals} onChange={setTakeProfit} onBlur={() => void checks.takeProfit()} error={errors.takeProfit ?? null} />
      ) : null}
      <dl className="place-preview numeric">
        <div>
          <dt>{t('trade.margin')}</dt>
          <dd data-testid="place-margin">{margin !== null ? amount(margin) : '—'}</dd>
        </div>
        <div>
          <dt>{t('trade.fee')}</dt>
          <dd data-testid="place-fee">{margin !== null ? amount(fee) : '—'}</dd>
        </div>
        <div>
          <dt>{t('desktop.available_balance')}</dt>
          <dd data-testid="place-available">{balance ? format.amount(balance.balanceAmount) : '…'}</dd>
        </div>
      </dl>
      <button type="submit" className={`button ${buy ? 'buy' : 'sell'} place-submit`} disabled={Boolean(blocked) || submitting || current === null}>
        {blocked ? t(blocked === 'closed' ? 'chart.closed' : 'chart.market_closed') : t(buy ? 'market.buy' : 'market.sell')}
      </button>
      {placed ? (
        <Dialog title={t('trade.placed_title')} onClose={() => setPlaced(null)}>
          <p>
            {t('trade.order_number')}: <strong className="numeric" data-testid="placed-order">{placed}</strong>
          </p>
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => setPlaced(null)}>
              {t('common.close')}
            </button>
            <button type="button" className="button primary" onClick={() => {
                setPlaced(null);
                if (props.onViewPosition) props.onViewPosition();
                else navigate('/position');
              }}
            >
              {t('trade.view_position')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </form>
  );
}
