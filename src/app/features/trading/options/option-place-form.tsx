import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../shared/api/market';
import { addOptionOrder, addOptionOrderMock } from '../../../../shared/api/options';
import { tradeBlock } from '../../../../shared/market/tradability';
import type { MarketStatus } from '../../../../shared/market/market-hours';
import { formatMoney, money, parseMoney } from '../../../../shared/money/money';
import { optionAmountBounds, optionFee, optionPlacementViolation, optionProfit, OptionDirection, type OptionRule, type OptionTimeRate } from '../../../../shared/options/option-rules';
import { sanitizeDecimalInput } from '../../../../shared/trading/form-rules';
import { useBrandFormat } from '../../../format/use-brand-format';
import { useApp } from '../../../app-context';
import { useAccountBalance } from '../../account/account-balance';
import { FieldError, TextField } from '../../../components/text-field';
import { AnnounceOnce } from '../../../components/announce-once';
import { priceSignal, sessionSignal } from '../../../engine/signals';
import { useWatchedPrices } from '../../../engine/use-watched-prices';
import type { LoadedOptionProduct } from '../../catalogue/option-products';
import { stepOptionAmount } from './option-amount';
import { completionTriesFromForm } from './option-completion';
import { OptionOrderFlow, type OptionFlowOrder } from './option-order-flow';
import { SignInToTrade, useOrderSubmission } from '../order-submission';
import { TicketSubmitBar } from '../ticket-submit-bar';
import { Face, faceAria } from '../trade-buttons';
import { isDemoSession } from '../../../../shared/protocol/engine';
import { Icon } from '../../../components/icons';
import { changeTone } from '../../catalogue/price-tone';
import { MiniChart } from '../../chart/mini-chart';

/** Typed amounts keep at most this many decimals (the whole-number rule then names the mistake). */
const amountInputDecimals = 2;

type Field = 'delivery' | 'amount';

/** Which field shows a broken rule; configuration and closed states are shown by the form itself. */
const ruleField: Partial<Record<OptionRule, Field>> = {
  delivery_empty_rule: 'delivery',
  delivery_time_rule: 'delivery',
  amount_empty_rule: 'amount',
  amount_positive_int_rule: 'amount',
  amount_range_rule: 'amount',
  insufficient_balance: 'amount',
};

/** The profit rate as the fraction the server expects ("80" % → "0.8"); exact, a rate has at most 2 decimals. */
function rateFraction(profitRatePercent: string): string {
  return formatMoney(money(profitRatePercent) / 100n, 0);
}

/** The client's clock at submission, in unix seconds (informational; the server's clock rules). */
function unixSecondsNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** Our clock's lead over the server's: it stamped beginTime during the call, so this is at most the round trip late. */
function clockLeadMs(serverBeginTimeMs: number): number {
  return Date.now() - serverBeginTimeMs;
}

/** "30 s" unless the brand named the entry. */
/** The − or + beside the amount: one step down or up within the product's bounds. */
function AmountStepButton(props: { direction: -1 | 1; disabled: boolean; onStep: () => void }) {
  const { t } = useTranslation();
  const down = props.direction === -1;
  return (
    <button type="button" className="field-toggle option-step" aria-label={t(down ? 'option.decrease' : 'option.increase')} disabled={props.disabled} onClick={props.onStep}>
      <Icon name={down ? 'minus' : 'plus'} />
    </button>
  );
}

function useDeliveryLabel() {
  const { t } = useTranslation();
  return (entry: OptionTimeRate) => entry.name || t('option.seconds', { seconds: entry.timeLong });
}

/**
 * The option order form: delivery times with their profit rates, the amount (digits and
 * one dot, preset chips, a stepper kept within the entry's bounds), the expected profit
 * and fee, the live balance, and the closed reasons. Real sessions place
 * on the real book, demo sessions through the Mock path. After placing, the progress,
 * settling and result drawers follow the option.
 */
export function OptionPlaceForm(props: {
  product: Product;
  optionProduct: LoadedOptionProduct;
  status: MarketStatus;
  direction: OptionDirection;
  /** Desktop: the up/down tab. */
  onDirection?: (direction: OptionDirection) => void;
}) {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const deliveryLabel = useDeliveryLabel();
  const { product, optionProduct, direction } = props;
  const symbol = product.productCode;
  useWatchedPrices([symbol]);
  const row = priceSignal(symbol).value;
  const session = sessionSignal.value;
  const balance = useAccountBalance();
  const deliveryId = useId();
  const submitId = useId();

  // What the trader chose; until then the first delivery time and its minimum amount are chosen for them.
  const [timeLong, setTimeLong] = useState<number | null>(null);
  const [typedAmount, setAmount] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [flow, setFlow] = useState<{ start: OptionFlowOrder; localOffsetMs: number } | null>(null);
  const { submitting, submit: send } = useOrderSubmission();

  const entries = optionProduct.entries;
  // A refresh may drop the chosen entry: then the first is chosen again.
  const entry = entries.find((each) => each.timeLong === timeLong) ?? entries[0] ?? null;
  const amount = typedAmount ?? (entry ? String(optionAmountBounds(entry).min) : '');
  const up = direction === OptionDirection.up;
  const livePrice = row?.[1] ?? null;
  const shownPrice = format.price(livePrice, product.pricePrecision);
  // The option product's status and the underlying product's both gate trading.
  const blocked = tradeBlock([optionProduct, product], props.status);
  const units = parseMoney(amount);
  const fee = units !== null && units > 0n ? optionFee(units, optionProduct.feeRate) : null;
  const profit = units !== null && units > 0n && entry ? optionProfit(units, entry.profitRate) : null;
  const shown = (value: bigint | null) => (value === null ? '—' : format.units(value));

  function ruleMessage(rule: OptionRule, bounds: OptionTimeRate | null): string {
    if (rule === 'delivery_time_rule') return t('option.delivery_empty_rule');
    if (rule === 'amount_range_rule' && bounds) {
      const { min, max } = optionAmountBounds(bounds);
      return max !== null ? t('option.amount_range_rule', { min: String(min), max: String(max) }) : t('option.amount_min_rule', { min: String(min) });
    }
    return t(`option.${rule}`);
  }

  function amountHint(bounds: OptionTimeRate): string {
    const { min, max } = optionAmountBounds(bounds);
    return max === null ? '' : t('option.amount_hint', { min: String(min), max: String(max) });
  }

  function setField(field: Field, message: string | null) {
    setErrors((previous) => ({ ...previous, [field]: message ?? undefined }));
  }

  /** The placement rules (shared with the server); true when the order may go. */
  function validate(): boolean {
    const violation = optionPlacementViolation({
      anyConfiguration: true,
      pairExists: true,
      product: { tradeStatus: optionProduct.tradeStatus, feeRate: optionProduct.feeRate, entries },
      marketOpen: blocked === null,
      timeLong: entry?.timeLong ?? null,
      rate: null,
      amount,
      balance: balance ? money(balance.balanceAmount) : null,
    });
    const field = violation ? ruleField[violation.rule] : undefined;
    setErrors(field && violation ? { [field]: ruleMessage(violation.rule, entry) } : {});
    return violation === null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting || blocked || livePrice === null || !validate() || !entry) return;
    const contract = isDemoSession(session) ? addOptionOrderMock : addOptionOrder;
    const placedAmount = formatMoney(money(amount), 0);
    const placed = await send((clientOrderId, requestOptions) =>
      http.call(contract, {
        tradePair: symbol,
        optionsProductId: optionProduct.id,
        price: livePrice,
        timeLong: entry.timeLong,
        btime: unixSecondsNow(),
        rate: rateFraction(entry.profitRate),
        amount: placedAmount,
        orderType: direction,
        clientOrderId,
      }, requestOptions),
    );
    if (placed === null) return;
    setFlow({
      start: {
        uid: placed.uid,
        tradePair: symbol,
        productName: product.productName,
        orderType: direction,
        amount: placedAmount,
        timeLong: entry.timeLong,
        endTime: placed.beginTime + entry.timeLong * 1000,
        price: null,
      },
      localOffsetMs: clockLeadMs(placed.beginTime),
    });
  }

  if (!session.signedIn) return <SignInToTrade returnPath={`/${symbol}/placeOption?direction=${direction}`} />;

  const bounds = entry ?? entries[0] ?? null;
  return (
    <form className="place-form option-form" noValidate onSubmit={(event) => void submit(event)}>
      {props.onDirection ? (
        <div className="segmented direction-tabs" role="group" aria-label={t('trade.direction')}>
          {[OptionDirection.up, OptionDirection.down].map((each) => (
            <button key={each} type="button" aria-pressed={each === direction} onClick={() => props.onDirection?.(each)}>
              {t(each === OptionDirection.up ? 'option.buy_up' : 'option.buy_down')}
            </button>
          ))}
        </div>
      ) : null}
      <div className="option-quote">
        <p className="place-current numeric">
          {t('option.live_price')}: <strong data-testid="option-current">{shownPrice}</strong>
          <AnnounceOnce subject={symbol} text={livePrice !== null ? `${symbol}, ${t('option.live_price')}: ${shownPrice}` : null} />
        </p>
        <MiniChart symbol={symbol} tone={row ? changeTone(row[4]) : ''} />
      </div>
      <fieldset className="option-delivery" aria-describedby={errors.delivery ? `${deliveryId}-error` : undefined}>
        <legend className="field-label">{t('option.delivery_time')}</legend>
        <div className="option-times">
          {entries.map((each) => (
            <label key={each.key} className="option-time">
              <input
                type="radio"
                className="option-time-input"
                name={`${deliveryId}-time`}
                checked={each.timeLong === entry?.timeLong}
                onChange={() => {
                  setTimeLong(each.timeLong);
                  setField('delivery', null);
                }}
              />
              <span className="option-time-duration">{deliveryLabel(each)}</span>
              <span className="option-time-rate up">{t('option.profit_rate', { rate: each.profitRate })}</span>
            </label>
          ))}
        </div>
        <FieldError id={`${deliveryId}-error`} message={errors.delivery} />
      </fieldset>
      <TextField
        label={t('option.amount')}
        value={amount}
        inputMode="decimal"
        autoComplete="off"
        inputClassName="numeric option-amount-input"
        placeholder={bounds ? amountHint(bounds) : ''}
        error={errors.amount ?? null}
        onChange={(value) => {
          setAmount(sanitizeDecimalInput(value, amountInputDecimals));
          setField('amount', null);
        }}
        before={<AmountStepButton direction={-1} disabled={!bounds} onStep={() => bounds && setAmount(stepOptionAmount(amount, -1, bounds))} />}
        after={<AmountStepButton direction={1} disabled={!bounds} onStep={() => bounds && setAmount(stepOptionAmount(amount, 1, bounds))} />}
      />
      {bounds && bounds.chips.length > 0 ? (
        <div className="option-chips" role="group" aria-label={t('option.chips')}>
          {bounds.chips.map((chip) => (
            <button
              key={chip}
              type="button"
              className="chip numeric"
              aria-pressed={parseMoney(amount) === money(String(chip))}
              onClick={() => {
                setAmount(String(chip));
                setField('amount', null);
              }}
            >
              {chip}
            </button>
          ))}
        </div>
      ) : null}
      <dl className="place-preview numeric">
        <div>
          <dt>{t('option.expected_profit')}</dt>
          <dd className={profit !== null ? 'up' : undefined} data-testid="option-expected-profit">
            {shown(profit)}
          </dd>
        </div>
        <div>
          <dt>{t('option.fee')}</dt>
          <dd data-testid="option-fee">{shown(fee)}</dd>
        </div>
        <div>
          <dt>{t('desktop.available_balance')}</dt>
          <dd data-testid="option-available">{balance ? format.amount(balance.balanceAmount) : '…'}</dd>
        </div>
      </dl>
      <TicketSubmitBar>
        <button type="submit" className={`button ${up ? 'buy' : 'sell'} place-submit`} disabled={Boolean(blocked) || submitting || livePrice === null} {...(blocked ? {} : faceAria(submitId))}>
          {blocked ? (
            t(blocked === 'closed' ? 'chart.closed' : 'chart.market_closed')
          ) : (
            <Face id={submitId} label={t(up ? 'option.buy_up' : 'option.buy_down')} price={livePrice ?? '—'} testId="option-submit-price" />
          )}
        </button>
      </TicketSubmitBar>
      {flow ? <OptionOrderFlow start={flow.start} localOffsetMs={flow.localOffsetMs} maxTries={completionTriesFromForm} onClose={() => setFlow(null)} /> : null}
    </form>
  );
}
