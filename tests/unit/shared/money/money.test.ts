import { describe, expect, it } from 'vitest';
import { divideMoney, divideRounded, formatMoney, money, multiplyMoney, parseMoney } from '../../../../src/shared/money/money';

describe('money arithmetic', () => {
  it('reads and writes exact decimals', () => {
    expect(formatMoney(money('100000'))).toBe('100000.00');
    expect(formatMoney(money('0.1') + money('0.2'))).toBe('0.30');
    expect(formatMoney(money('-12.345678901'.slice(0, 12)))).toBe('-12.3456789');
    expect(formatMoney(money('0.00000001'))).toBe('0.00000001');
    expect(formatMoney(0n)).toBe('0.00');
    for (const bad of ['', '1e5', '1.123456789', 'abc', '--1', '1.']) expect(parseMoney(bad)).toBeNull();
  });

  it('multiplies and divides with rounding half away from zero at 8 decimals', () => {
    // Margin of 0.1 lot of EUR/USD at 1.08512 with a 100 000 contract and 1:100 leverage.
    const notional = multiplyMoney(multiplyMoney(money('1.08512'), money('0.1')), money('100000'));
    expect(formatMoney(divideMoney(notional, money('100')))).toBe('108.512');
    expect(divideRounded(5n, 2n)).toBe(3n);
    expect(divideRounded(-5n, 2n)).toBe(-3n);
    expect(formatMoney(divideMoney(money('1'), money('3')))).toBe('0.33333333');
    expect(formatMoney(divideMoney(money('2'), money('3')))).toBe('0.66666667');
  });
});
