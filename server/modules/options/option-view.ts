import { OptionStatus, type OptionOrder } from '../../../src/shared/api/options';
import { divideRounded, formatMoney, money } from '../../../src/shared/money/money';
import type { OptionOrderRow } from './options-repository';

/** An option order as the wire names its fields. */
export function optionView(row: OptionOrderRow, productName: string): OptionOrder {
  const decimal = (value: string) => formatMoney(money(String(value)));
  const time = (value: string | number | null) => (value === null ? null : Number(value));
  const status = row.status === OptionStatus.settled ? OptionStatus.settled : OptionStatus.running;
  return {
    id: row.id,
    uid: row.order_no,
    orderType: row.direction,
    tradePair: row.symbol,
    productName,
    optionsProductId: row.option_product_id,
    price: decimal(row.start_price),
    priceTime: Number(row.start_tick_ms),
    priceEnd: row.end_price === null ? null : decimal(row.end_price),
    priceEndTime: time(row.end_tick_ms),
    feeAmount: decimal(row.fee),
    timeLong: row.time_long,
    beginTime: Number(row.begin_ms),
    endTime: Number(row.end_ms),
    completeTime: time(row.settled_ms),
    amount: decimal(row.amount),
    // Stored in percent as placed; shown as the fraction the placement sent.
    rate: formatMoney(divideRounded(money(String(row.profit_rate)), 100n)),
    winLost: row.win_lost === null ? null : decimal(row.win_lost),
    status,
    positionStatus: status,
    result: row.outcome === 'win' || row.outcome === 'loss' || row.outcome === 'equal' || row.outcome === 'void' ? row.outcome : null,
    voidReason: row.void_reason,
  };
}
