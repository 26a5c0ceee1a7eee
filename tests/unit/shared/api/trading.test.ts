import { describe, expect, it } from 'vitest';
import { levelEditOf, updateOrderBody } from '../../../../src/shared/api/trading';

describe('what an order edit sends for a stop loss or take profit', () => {
  it('a typed price moves the level; an emptied level the order had is removed; an empty one it never had is left out', () => {
    expect(levelEditOf('1.084', '1.07')).toBe('1.084');
    expect(levelEditOf('1.084', null)).toBe('1.084');
    expect(levelEditOf('  ', '1.07')).toBe('');
    expect(levelEditOf('', null)).toBeUndefined();
  });

  it('the body takes "" as removal and still refuses other text', () => {
    expect(updateOrderBody.safeParse({ orderId: 'A1', stopPrice: '' }).success).toBe(true);
    expect(updateOrderBody.safeParse({ orderId: 'A1', stopPrice: 'none' }).success).toBe(false);
    expect(updateOrderBody.safeParse({ orderId: 'A1', takeProfitPrice: null }).success).toBe(false);
  });
});
