import type { PriceTick } from '../../../src/shared/api/market';

/** A price tick with bid, ask, low and high all at `price`; `fields` sets the rest where a test cares. */
export function priceTick(symbol: string, price: string, lastUpdate: number, fields: Partial<PriceTick> = {}): PriceTick {
  return {
    symbol, name: symbol, price, bidPrice: price, askPrice: price, volume: '1', lastUpdate,
    type: 'Forex', priceChangePercent: '0.00', low: price, high: price, ...fields,
  };
}
