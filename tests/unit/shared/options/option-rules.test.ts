import { describe, expect, it } from 'vitest';
import { formatMoney, money } from '../../../../src/shared/money/money';
import {
  countdownMilestone,
  optionAmountBounds,
  optionRefund,
  optionStanding,
  OptionDirection,
  optionFee,
  optionPlacementViolation,
  optionProfit,
  parseTimeRateEntry,
  parseTimeRatePayload,
  progressPercent,
  settleOption,
  type OptionPlacementInput,
} from '../../../../src/shared/options/option-rules';

describe('timeRatePayload entries', () => {
  it('parses duration, profit rate, chips, max, min and the optional name', () => {
    expect(parseTimeRateEntry('1', '30;80;10|50|100|500;10000;10;30s')).toEqual({ key: '1', timeLong: 30, profitRate: '80', chips: [10, 50, 100, 500], max: 10000, min: 10, name: '30s' });
    expect(parseTimeRateEntry('2', ' 60 ; 87.5 ; 5 | 20 ; 0 ; 1 ')).toEqual({ key: '2', timeLong: 60, profitRate: '87.5', chips: [5, 20], max: 0, min: 1, name: '' });
    expect(parseTimeRateEntry('3', '120;088;;500;10')).toEqual({ key: '3', timeLong: 120, profitRate: '88', chips: [], max: 500, min: 10, name: '' });
  });

  it('rejects malformed entries', () => {
    for (const text of [
      '',
      '30;80;10|50;10000', // too few fields
      '30;80;10|50;10000;10;name;extra', // too many
      '0;80;10;100;10', // no duration
      '30.5;80;10;100;10', // fractional seconds
      '30;0;10;100;10', // no profit
      '30;80.125;10;100;10', // more than 2 decimals of percent
      '30;80;10|x;100;10', // a chip that is not a whole amount
      '30;80;10||50;100;10', // an empty chip
      '30;80;0;100;10', // a zero chip
      '30;80;10;100;200', // min above max
      '30;80;10;-1;10',
      '30,80,10,100,10', // the wrong delimiter
    ]) {
      expect(parseTimeRateEntry('k', text), text).toBeNull();
    }
  });

  it('orders entries by key (numerically when the keys are numbers) and rejects bad and repeated ones', () => {
    const parsed = parseTimeRatePayload({ '10': '300;90;;0;10', '2': '60;85;;0;10', '1': '30;80;;0;10', '3': 'broken', '4': '60;70;;0;10' });
    expect(parsed.entries.map((entry) => [entry.key, entry.timeLong])).toEqual([
      ['1', 30],
      ['2', 60],
      ['10', 300],
    ]);
    expect(parsed.rejected).toEqual(['3', '4']);
    expect(parseTimeRatePayload({ b: '60;85;;0;10', a: '30;80;;0;10' }).entries.map((entry) => entry.key)).toEqual(['a', 'b']);
  });
});

describe('option placement rules and their codes', () => {
  const entries = parseTimeRatePayload({ '1': '30;80;10|50|100;1000;10', '2': '60;85;;0;5' }).entries;
  const valid: OptionPlacementInput = {
    anyConfiguration: true,
    pairExists: true,
    product: { tradeStatus: 1, feeRate: '0.01', entries },
    marketOpen: true,
    timeLong: 30,
    rate: '0.8',
    amount: '100',
    balance: money('101'),
  };
  const check = (change: Partial<OptionPlacementInput>) => optionPlacementViolation({ ...valid, ...change });

  it('accepts a valid placement, amount and fee exactly within the balance', () => {
    expect(check({})).toBeNull();
    expect(check({ rate: null, balance: null })).toBeNull();
  });

  it('checks the configuration in order: 603, 604, 606, 605', () => {
    expect(check({ anyConfiguration: false, pairExists: false })).toEqual({ rule: 'no_option_configuration', code: 603 });
    expect(check({ pairExists: false })).toEqual({ rule: 'pair_missing', code: 604 });
    expect(check({ product: null })).toEqual({ rule: 'option_config_missing', code: 606 });
    expect(check({ product: { tradeStatus: 1, feeRate: '0', entries: [] } })).toEqual({ rule: 'option_config_missing', code: 606 });
    expect(check({ product: { tradeStatus: 0, feeRate: '0.01', entries } })).toEqual({ rule: 'closed', code: 605 });
    expect(check({ marketOpen: false })).toEqual({ rule: 'closed', code: 605 });
  });

  it('checks the delivery time and the rate on offer (602)', () => {
    expect(check({ timeLong: null })).toEqual({ rule: 'delivery_empty_rule', code: 602 });
    expect(check({ timeLong: 45 })).toEqual({ rule: 'delivery_time_rule', code: 602 });
    expect(check({ rate: '0.85' })).toEqual({ rule: 'rate_rule', code: 602 });
    expect(check({ rate: 'x' })).toEqual({ rule: 'rate_rule', code: 602 });
    expect(check({ rate: '0.80' })).toBeNull();
    expect(check({ timeLong: 60, rate: '0.85' })).toBeNull();
  });

  it('checks the amount: present, a whole number, within min and max (max 0: none), within the balance (203)', () => {
    expect(check({ amount: ' ' })).toEqual({ rule: 'amount_empty_rule', code: 1016 });
    expect(check({ amount: '10.5' })).toEqual({ rule: 'amount_positive_int_rule', code: 1016 });
    expect(check({ amount: '0' })).toEqual({ rule: 'amount_positive_int_rule', code: 1016 });
    expect(check({ amount: '1e3' })).toEqual({ rule: 'amount_positive_int_rule', code: 1016 });
    expect(check({ amount: '100.00' })).toBeNull();
    expect(check({ amount: '9' })).toEqual({ rule: 'amount_range_rule', code: 1016 });
    expect(check({ amount: '1001', balance: null })).toEqual({ rule: 'amount_range_rule', code: 1016 });
    expect(check({ amount: '1000', balance: null })).toBeNull();
    expect(check({ timeLong: 60, rate: null, amount: '1000000', balance: null })).toBeNull();
    expect(check({ timeLong: 60, rate: null, amount: '4' })).toEqual({ rule: 'amount_range_rule', code: 1016 });
    // 100 + 1 % fee is 101: one unit short of it fails.
    expect(check({ balance: money('100.99999999') })).toEqual({ rule: 'insufficient_balance', code: 203 });
  });
});

describe('option money', () => {
  it('charges the fee on the amount', () => {
    expect(formatMoney(optionFee(money('100'), '0.01'))).toBe('1.00');
    expect(formatMoney(optionFee(money('333'), '0.015'))).toBe('4.995');
    expect(optionFee(money('100'), '0')).toBe(0n);
  });

  it('pays amount + amount × rate on a win, nothing on a loss, the amount when equal', () => {
    const amount = money('100');
    const start = money('67000.5');
    expect(settleOption(0, amount, '80', start, money('67000.51'))).toEqual({ outcome: 'win', payout: money('180'), winLost: money('80') });
    expect(settleOption(1, amount, '80', start, money('67000.49'))).toEqual({ outcome: 'win', payout: money('180'), winLost: money('80') });
    expect(settleOption(0, amount, '80', start, money('67000.49'))).toEqual({ outcome: 'loss', payout: 0n, winLost: -amount });
    expect(settleOption(1, amount, '80', start, money('67000.51'))).toEqual({ outcome: 'loss', payout: 0n, winLost: -amount });
    expect(settleOption(0, amount, '80', start, start)).toEqual({ outcome: 'equal', payout: amount, winLost: 0n });
    expect(settleOption(1, amount, '80', start, start)).toEqual({ outcome: 'equal', payout: amount, winLost: 0n });
  });

  it('computes profits exactly, with no float', () => {
    expect(formatMoney(optionProfit(money('333'), '87.5'))).toBe('291.375');
    expect(formatMoney(optionProfit(money('7'), '88'))).toBe('6.16');
    expect(formatMoney(optionProfit(money('9999999'), '99.99'))).toBe('9998999.0001');
  });
});

describe('countdown progress', () => {
  it('is ceil(remaining seconds ÷ timeLong × 100), clamped to 0..100', () => {
    expect(progressPercent(30_000, 30)).toBe(100);
    expect(progressPercent(29_999, 30)).toBe(100);
    expect(progressPercent(29_700, 30)).toBe(99);
    expect(progressPercent(15_000, 30)).toBe(50);
    expect(progressPercent(14_999, 30)).toBe(50);
    expect(progressPercent(1, 30)).toBe(1);
    expect(progressPercent(0, 30)).toBe(0);
    expect(progressPercent(-500, 30)).toBe(0);
    expect(progressPercent(45_000, 30)).toBe(100);
    expect(progressPercent(1_000, 0)).toBe(0);
    expect(progressPercent(150_000, 300)).toBe(50);
  });
});

describe('option amount bounds', () => {
  it('keeps the minimum at 1 or more and reads a maximum of 0 as none', () => {
    expect(optionAmountBounds({ min: 10, max: 10_000 })).toEqual({ min: 10, max: 10_000 });
    expect(optionAmountBounds({ min: 0, max: 500 })).toEqual({ min: 1, max: 500 });
    expect(optionAmountBounds({ min: 5, max: 0 })).toEqual({ min: 5, max: null });
  });

  it('are the bounds the placement rule checks', () => {
    const place = (text: string, amount: string) => {
      const entry = parseTimeRateEntry('1', text);
      if (!entry) throw new Error('entry expected');
      return (
      optionPlacementViolation({
        anyConfiguration: true,
        pairExists: true,
        product: { tradeStatus: 1, feeRate: '0', entries: [entry] },
        marketOpen: true,
        timeLong: 30,
        rate: null,
        amount,
        balance: null,
      })?.rule ?? null
      );
    };
    // min 0 and max 0: from 1, no ceiling.
    expect(place('30;80;;0;0', '1')).toBeNull();
    expect(place('30;80;;0;0', '123456789')).toBeNull();
    expect(place('30;80;;0;0', '0')).toBe('amount_positive_int_rule');
    // min 10, max 100.
    expect(place('30;80;;100;10', '9')).toBe('amount_range_rule');
    expect(place('30;80;;100;10', '10')).toBeNull();
    expect(place('30;80;;100;10', '100')).toBeNull();
    expect(place('30;80;;100;10', '101')).toBe('amount_range_rule');
  });
});

describe('the countdown a screen reader hears', () => {
  it('names only the milestones 60, 30 and 10 seconds, each from the moment it is reached', () => {
    expect(countdownMilestone(120)).toBeNull();
    expect(countdownMilestone(61)).toBeNull();
    expect(countdownMilestone(60)).toBe(60);
    expect(countdownMilestone(45)).toBe(60);
    expect(countdownMilestone(30)).toBe(30);
    expect(countdownMilestone(11)).toBe(30);
    expect(countdownMilestone(10)).toBe(10);
    expect(countdownMilestone(0)).toBe(10);
  });
});

describe('a running option’s standing', () => {
  it('is winning when the live price is on its side of the start price, losing on the other, even on it, compared exactly', () => {
    expect(optionStanding(OptionDirection.up, '1.08400', '1.08401')).toBe('winning');
    expect(optionStanding(OptionDirection.up, '1.08400', '1.08399')).toBe('losing');
    expect(optionStanding(OptionDirection.down, '1.08400', '1.08399')).toBe('winning');
    expect(optionStanding(OptionDirection.down, '1.08400', '1.084')).toBe('even');
    // Beyond a float's digits the comparison stays exact.
    expect(optionStanding(OptionDirection.up, '12345678.12345678', '12345678.12345679')).toBe('winning');
  });

  it('is unknown while a price is missing', () => {
    expect(optionStanding(OptionDirection.up, null, '1.1')).toBeNull();
    expect(optionStanding(OptionDirection.up, '1.1', undefined)).toBeNull();
  });
});

describe('what a settled option gave back', () => {
  const order = { amount: '100', feeAmount: '2.5', voidReason: null };
  it('is the amount on a draw and the amount with the fee on a void', () => {
    expect(optionRefund({ ...order, result: 'equal' })).toBe(money('100'));
    expect(optionRefund({ ...order, result: 'void', voidReason: 'no-price' })).toBe(money('102.5'));
  });

  it('is nothing for a win, a loss, or a void of a demo reset (no money moved)', () => {
    expect(optionRefund({ ...order, result: 'win' })).toBeNull();
    expect(optionRefund({ ...order, result: 'loss' })).toBeNull();
    expect(optionRefund({ ...order, result: 'void', voidReason: 'demo-reset' })).toBeNull();
  });
});
