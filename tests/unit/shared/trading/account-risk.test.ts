import { describe, expect, it } from 'vitest';
import { money, parseScaled } from '../../../../src/shared/money/money';
import { accountEquity, belowStopOut, closeShortfall, groupCostScale, groupProfitLoss, groupQuantityScale, lockedMargin, marginLevelPercent } from '../../../../src/shared/trading/account-risk';
import { profitLossFor } from '../../../../src/shared/trading/order-rules';
import { OrderStatus } from '../../../../src/shared/trading/order-rules';

const position = (margin: string, profitLoss: string) => ({ status: OrderStatus.position, margin: money(margin), profitLoss: money(profitLoss) });
const pending = (margin: string) => ({ status: OrderStatus.pending, margin: money(margin), profitLoss: null });

describe('the account risk formula (feed, stop-out and negative-balance protection)', () => {
  it('counts cash, every open order\'s margin and only the positions\' profit and loss in equity', () => {
    const holdings = [position('1085.12', '-16287'), position('1085', '16263'), pending('110')];
    expect(accountEquity(money('2.70976'), holdings)).toBe(money('2258.82976'));
    expect(lockedMargin(holdings)).toBe(money('2280.12'));
  });

  it('gives the margin level in percent to two decimals, none without margin', () => {
    expect(marginLevelPercent(money('53.582976'), money('108.512'))).toBe(money('49.38'));
    expect(marginLevelPercent(money('100'), 0n)).toBeNull();
  });

  it('stops out strictly below the level, never an account without margin', () => {
    expect(belowStopOut(money('54.256'), money('108.512'), 50)).toBe(false);
    expect(belowStopOut(money('54.255'), money('108.512'), 50)).toBe(true);
    expect(belowStopOut(money('-5'), 0n, 50)).toBe(false);
  });

  it('leaves a shortfall only when cash and the position\'s own margin cannot carry its loss', () => {
    expect(closeShortfall(money('25.53976'), money('1085.12'), money('-16287'))).toBe(money('15176.34024'));
    expect(closeShortfall(money('25.53976'), money('1085.12'), money('-1110.65976'))).toBe(0n);
    expect(closeShortfall(0n, money('100'), money('5'))).toBe(0n);
  });
});

describe('positions summed by symbol and direction (the free-margin read)', () => {
  it('value exactly as the positions one by one when each result is exact', () => {
    // Two buys of EUR/USD (0.1 at 1.08512, 0.35 at 1.08), closing at the bid 1.07.
    const rows = [
      { open: '1.08512', volume: '0.1' },
      { open: '1.08', volume: '0.35' },
    ];
    const quantity = parseScaled(String(0.45 * 100000), groupQuantityScale)!;
    const cost = parseScaled('48651.2', groupCostScale)!; // 1.08512 × 10000 + 1.08 × 35000
    const summed = groupProfitLoss({ direction: 0, quantity, cost }, money('1.07'));
    const oneByOne = rows.reduce((sum, row) => sum + profitLossFor(0, money(row.open), money('1.07'), money(row.volume), { contractSize: '100000' }), 0n);
    expect(summed).toBe(oneByOne);
    expect(summed).toBe(money('-501.2'));
    // A sell gains what a buy loses.
    expect(groupProfitLoss({ direction: 1, quantity, cost }, money('1.07'))).toBe(money('501.2'));
  });

  it('read database sums of any scale exactly, refusing more decimals than the scale', () => {
    expect(parseScaled('48662.000000000000000000', groupCostScale)).toBe(48662n * 10n ** 24n);
    expect(parseScaled('-0.5', 2)).toBe(-50n);
    expect(parseScaled('0.001', 2)).toBeNull();
    expect(parseScaled('1e5', 8)).toBeNull();
  });
});
