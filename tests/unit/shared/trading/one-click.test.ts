import { describe, expect, it } from 'vitest';
import { oneClickLotsOf, oneClickOrder } from '../../../../src/shared/trading/one-click';
import { Direction } from '../../../../src/shared/trading/order-rules';

const bitcoin = { productCode: 'BTCUSDT', minCount: '0.01', maxCount: '50.00', pip: '0.01', countNum: 2, multiple: 100 };

describe('one-click trading', () => {
  it('places a market order of the typed lots at the product’s leverage, on the step', () => {
    expect(oneClickOrder(bitcoin, '0.257', Direction.buy)).toEqual({
      ok: true,
      lots: '0.25',
      body: { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.25', multiple: 100, orderType: Direction.buy, buyPoint: 2 },
    });
    expect(oneClickOrder(bitcoin, '1', Direction.sell)).toMatchObject({ ok: true, body: { orderType: Direction.sell, orderQuantity: '1.00' } });
  });

  it('sends nothing for lots outside the product’s bounds or empty, and says which bound, correcting the field to it', () => {
    expect(oneClickOrder(bitcoin, '0.001', Direction.buy)).toEqual({ ok: false, lots: '0.01', messageKey: 'trade.volume_min', params: { min: '0.01' } });
    expect(oneClickOrder(bitcoin, '80', Direction.buy)).toEqual({ ok: false, lots: '50.00', messageKey: 'trade.volume_max', params: { max: '50.00' } });
    expect(oneClickOrder(bitcoin, '', Direction.sell)).toMatchObject({ ok: false, messageKey: 'trade.volume_empty' });
  });

  it('uses the lots last typed for the symbol, else the product’s minimum', () => {
    expect(oneClickLotsOf({ BTCUSDT: '0.30' }, bitcoin)).toBe('0.30');
    expect(oneClickLotsOf({ ETHUSDT: '2.00' }, bitcoin)).toBe('0.01');
    expect(oneClickLotsOf(undefined, bitcoin)).toBe('0.01');
  });
});
