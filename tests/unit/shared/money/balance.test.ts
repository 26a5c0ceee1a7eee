import { describe, expect, it } from 'vitest';
import { totalAssets, totalBalance } from '../../../../src/shared/money/balance';
import { money } from '../../../../src/shared/money/money';

describe('the total balance', () => {
  it('adds the available balance and the locked margin exactly', () => {
    expect(totalBalance({ balanceAmount: '1000', lockMargin: '0' })).toBe('1000.00');
    expect(totalBalance({ balanceAmount: '0.1', lockMargin: '0.2' })).toBe('0.30');
    expect(totalBalance({ balanceAmount: '9999999999999.99999999', lockMargin: '0.00000001' })).toBe('10000000000000.00');
    expect(totalBalance({ balanceAmount: '12.345', lockMargin: '7.00000001' })).toBe('19.34500001');
  });

  it('shows a negative available balance as it is (protection may leave one briefly)', () => {
    expect(totalBalance({ balanceAmount: '-5', lockMargin: '2.5' })).toBe('-2.50');
  });
});

describe('the total assets', () => {
  it('are the wallets and the trading account (available and locked) added up, so the lines shown beneath add up to it', () => {
    expect(money(totalAssets('250.5', { balanceAmount: '1000', lockMargin: '200.25' }))).toBe(money('1450.75'));
    expect(money(totalAssets('0', { balanceAmount: '0.1', lockMargin: '0.2' }))).toBe(money('0.3'));
    expect(money(totalAssets('12.34', { balanceAmount: '0', lockMargin: '0' }))).toBe(money('12.34'));
  });

  it('are never less than the trading account', () => {
    const account = { balanceAmount: '5000', lockMargin: '10' };
    expect(money(totalAssets('0', account)) >= money(totalBalance(account))).toBe(true);
  });

  it('count only the wallets while the trading account is not known', () => {
    expect(money(totalAssets('99.99', null))).toBe(money('99.99'));
  });
});
