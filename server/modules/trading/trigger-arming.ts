import { money, type Units } from '../../../src/shared/money/money';
import { closeSide, Direction, fillSide, OrderStatus } from '../../../src/shared/trading/order-rules';
import type { RawTick } from '../market/sources/market-data-source';
import { priceUnits } from './order-view';
import type { OrderRow } from './trading-repository';
import { createTriggerIndex, type Crossing, type PriceSide, type Trigger, type TriggerIndex } from './trigger-index';

export type TriggerKind = 'stop_loss' | 'take_profit' | 'fill';
export interface TriggerPayload {
  orderId: number;
  kind: TriggerKind;
  /**
   * The level this trigger was armed at, in exact units: an edit may move or remove it
   * between the tick that fires the trigger and its execution, which then acts only if
   * the order still holds this level under its lock (the edit armed the new one).
   */
  armedLevel: Units;
}
export type OrderTrigger = Trigger<TriggerPayload>;

const triggerKinds: readonly TriggerKind[] = ['fill', 'stop_loss', 'take_profit'];

/**
 * Which prices each open order waits on, one trigger index per symbol: a pending order
 * fills when the side it fills at reaches its limit; a position's stop loss and take
 * profit watch the side it closes at.
 */
export function createTriggerArming() {
  const indexes = new Map<string, TriggerIndex<TriggerPayload>>();
  /** The orders armed here, by account ("uid|book"): what a re-read of the account replaces. */
  const armedByAccount = new Map<string, Map<number, OrderRow>>();
  const accountOf = (row: Pick<OrderRow, 'uid' | 'book'>) => `${row.uid}|${row.book}`;

  function indexOf(symbol: string) {
    let index = indexes.get(symbol);
    if (!index) {
      index = createTriggerIndex<TriggerPayload>();
      indexes.set(symbol, index);
    }
    return index;
  }

  return {
    /** Arms an open order's triggers (levels in units of the product's `precision`). */
    arm(row: OrderRow, precision: number) {
      const index = indexOf(row.symbol);
      const direction = row.direction as Direction;
      const buy = direction === Direction.buy;
      const add = (kind: TriggerKind, side: PriceSide, crossing: Crossing, level: string | null) => {
        if (level === null) return;
        const armedLevel = money(String(level));
        index.add({ id: `${row.id}:${kind}`, side, crossing, level: priceUnits(armedLevel, precision), payload: { orderId: row.id, kind, armedLevel } });
      };
      // A buy limit waits for the ask to fall to it, a sell limit for the bid to rise to it.
      if (row.status === OrderStatus.pending) add('fill', fillSide(direction), buy ? 'below' : 'above', row.limit_price);
      if (row.status === OrderStatus.position) {
        add('stop_loss', closeSide(direction), buy ? 'below' : 'above', row.stop_loss);
        add('take_profit', closeSide(direction), buy ? 'above' : 'below', row.take_profit);
      }
      const key = accountOf(row);
      const armed = armedByAccount.get(key) ?? new Map<number, OrderRow>();
      armed.set(row.id, row);
      armedByAccount.set(key, armed);
    },

    disarm(row: OrderRow) {
      const index = indexes.get(row.symbol);
      for (const kind of triggerKinds) index?.remove(`${row.id}:${kind}`);
      const key = accountOf(row);
      const armed = armedByAccount.get(key);
      armed?.delete(row.id);
      if (armed?.size === 0) armedByAccount.delete(key);
    },

    /** The orders of an account armed here. */
    armedOf(uid: number, book: OrderRow['book']): OrderRow[] {
      return [...(armedByAccount.get(`${uid}|${book}`)?.values() ?? [])];
    },

    /** Takes out and answers the triggers a tick crosses, in firing order. */
    fire(tick: RawTick): OrderTrigger[] {
      const index = indexes.get(tick.symbol);
      if (!index || index.size === 0) return [];
      return index.fire(tick.bid, tick.ask);
    },
  };
}

export type TriggerArming = ReturnType<typeof createTriggerArming>;
