import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src/shared/errors/catalogue';
import { money } from '../../../../src/shared/money/money';
import {
  parseWithdrawalAmount,
  typedWithdrawalBounds,
  withdrawalAmountInput,
  withdrawalBounds,
  withdrawalMaxAmount,
  withdrawalQuote,
  withdrawalRefusal,
  type WithdrawalChannel,
} from '../../../../src/shared/money/withdrawal-quote';
import { decodeField, encodeField, maskedTail } from '../../../../src/shared/money/encoded-field';
import { bankCardErrors, normalizedPhone } from '../../../../src/shared/money/bank-card-rules';

const usdtTrc20: WithdrawalChannel = { minAmount: money('10'), maxAmount: money('200000'), feeType: 'FIX_AMOUNT', feeNum: money('25') };
const btc: WithdrawalChannel = { minAmount: money('0.001'), maxAmount: money('500'), feeType: 'PERCENTAGE', feeNum: money('0.5') };

describe('the withdrawal amount field', () => {
  it('strips a leading point, letters and a second point, and keeps five decimals', () => {
    expect(withdrawalAmountInput('.5')).toBe('5');
    expect(withdrawalAmountInput('12a.3.4')).toBe('12.34');
    expect(withdrawalAmountInput('1.1234567')).toBe('1.12345');
  });
  it('accepts positive amounts of at most five decimals only', () => {
    expect(parseWithdrawalAmount('100.12345')).toBe(money('100.12345'));
    expect(parseWithdrawalAmount('100.123456')).toBeNull();
    expect(parseWithdrawalAmount('0')).toBeNull();
    expect(parseWithdrawalAmount('-5')).toBeNull();
  });
});

describe('withdrawal bounds', () => {
  it('raises a coin minimum below 50 USD to 50 USD', () => {
    expect(withdrawalBounds(usdtTrc20, money('1'))).toEqual({ min: money('50'), max: money('200000') });
  });
  it('keeps a coin maximum below 10,000,000 USD and converts the USD minimum at the rate, rounded up', () => {
    // 50 USD at 30,000 USD per BTC is 0.0016666…, rounded up to the next 10^-8.
    expect(withdrawalBounds(btc, money('30000'))).toEqual({ min: money('0.00166667'), max: money('333.33333333') });
  });
  it('gives the bank channel 0 as its bound where it names none: nothing is in range', () => {
    const bounds = withdrawalBounds({ minAmount: null, maxAmount: null }, money('1'));
    expect(bounds.min > bounds.max).toBe(true);
  });
});

describe('the bounds as amounts are typed', () => {
  it('round the minimum up and cut the maximum down to 5 decimals, keeping whole ones as they are', () => {
    expect(typedWithdrawalBounds({ min: money('0.00100001'), max: money('166.66666666') })).toEqual({ min: money('0.00101'), max: money('166.66666') });
    expect(typedWithdrawalBounds({ min: money('50'), max: money('10000000') })).toEqual({ min: money('50'), max: money('10000000') });
  });
});

describe('the fee quote', () => {
  it('charges a fixed fee in the coin and values it in USD', () => {
    expect(withdrawalQuote({ amount: money('100'), channel: usdtTrc20, usdRate: money('1'), available: money('1000') })).toEqual({
      feeType: 'FIX_AMOUNT',
      feeNum: '25.00',
      feeUsd: '25.00',
      practical: '75.00',
      isOver: false,
      afterBalance: '900.00',
      practicalUsd: '75.00',
      afterBalanceUsd: '900.00',
    });
  });
  it('charges nothing when the fee type is empty (the specification: PERCENTAGE, FIX_AMOUNT or empty)', () => {
    const free: WithdrawalChannel = { ...usdtTrc20, feeType: '', feeNum: money('25') };
    expect(withdrawalQuote({ amount: money('100'), channel: free, usdRate: money('1'), available: money('1000') })).toEqual({
      feeType: '',
      feeNum: '0.00',
      feeUsd: '0.00',
      practical: '100.00',
      isOver: false,
      afterBalance: '900.00',
      practicalUsd: '100.00',
      afterBalanceUsd: '900.00',
    });
    expect(withdrawalRefusal({ amount: money('100'), practicalSeen: money('100'), channel: free, usdRate: money('1'), available: money('500') })).toBeNull();
  });
  it('charges a percentage of the amount and says when the amount is over the balance', () => {
    const quote = withdrawalQuote({ amount: money('2'), channel: btc, usdRate: money('30000'), available: money('1.5') });
    expect(quote).toMatchObject({ feeType: 'PERCENTAGE', feeNum: '0.01', feeUsd: '300.00', practical: '1.99', isOver: true, afterBalance: '-0.50' });
    // What arrives and the balance after, valued in USD at the quote's rate.
    expect(quote).toMatchObject({ practicalUsd: '59700.00', afterBalanceUsd: '-15000.00' });
  });
});

describe('a submission is refused', () => {
  const base = { channel: usdtTrc20, usdRate: money('1'), available: money('500') };
  it('outside the bounds, naming both', () => {
    expect(withdrawalRefusal({ ...base, amount: money('49'), practicalSeen: money('24') })).toEqual({
      code: ErrorCode.INCORRECT_PARAMETER_VALUE,
      reason: 'amount_range',
      min: '50.00',
      max: '200000.00',
    });
  });
  it('when nothing would arrive after the fee', () => {
    const channel: WithdrawalChannel = { ...usdtTrc20, feeNum: money('60') };
    expect(withdrawalRefusal({ ...base, channel, amount: money('60'), practicalSeen: money('0') })?.reason).toBe('practical_rule');
  });
  it('when the practical amount seen is not what the fee gives now', () => {
    expect(withdrawalRefusal({ ...base, amount: money('100'), practicalSeen: money('80') })?.reason).toBe('practical_mismatch');
  });
  it('when the balance is not enough, and accepts what fits', () => {
    expect(withdrawalRefusal({ ...base, amount: money('600'), practicalSeen: money('575') })?.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(withdrawalRefusal({ ...base, amount: money('500'), practicalSeen: money('475') })).toBeNull();
  });
});

describe('encoded fields', () => {
  const key = 'k3y0fTh1sS3ss10n';
  it('round-trip under the session key and stay empty when empty', () => {
    const encoded = encodeField('GB33BUKB20201555555555', key);
    expect(encoded).not.toContain('GB33');
    expect(decodeField(encoded, key)).toBe('GB33BUKB20201555555555');
    expect(encodeField('', key)).toBe('');
    expect(decodeField('', key)).toBe('');
  });
  it('do not decode under another session key or from plain text', () => {
    expect(decodeField(encodeField('12345678', key), 'another16bytekey')).toBeNull();
    expect(decodeField('12345678', key)).toBeNull();
  });
  it('refuse a value encoded under any other key, not just most of them (the padding is checked whole)', () => {
    // Under 3,000 other keys a loosely unpadded decode lets about 1 in 250 through as a few stray characters.
    const address = encodeField('TNVxs1q6jQ7qE3gk2Ph7wT5rK9uYdZ4m8F', key);
    const accepted = Array.from({ length: 3_000 }, (_, index) => `other-key-${String(index).padStart(6, '0')}`).filter((other) => decodeField(address, other) !== null);
    expect(accepted).toEqual([]);
  });
  it('show an account by its last four characters', () => {
    expect(maskedTail('GB33BUKB20201555555555')).toBe('****5555');
    expect(maskedTail('123')).toBe('123');
  });
});

describe('the bank card form', () => {
  it('asks for the bank, the payee and the account', () => {
    expect(bankCardErrors({ bankName: ' ', name: '', account: '', phoneNumber: '' })).toEqual({
      bankName: 'withdraw.p_t_bank_name',
      name: 'withdraw.p_t_payee_name',
      account: 'withdraw.p_t_bank_account',
    });
  });
  it('sends a valid phone without the plus and spaces, and refuses an invalid one', () => {
    expect(normalizedPhone('+44 7400 123456')).toBe('447400123456');
    expect(normalizedPhone('')).toBe('');
    expect(normalizedPhone('+44 12')).toBeNull();
    expect(normalizedPhone('12345')).toBeNull();
    expect(bankCardErrors({ bankName: 'KB', name: 'A', account: '1', phoneNumber: '+1 555' }).phoneNumber).toBe('withdraw.wrong_phone_number');
  });
});

describe('the withdrawal Max', () => {
  const bounds = { min: money('10'), max: money('200000') };
  it('fills the whole available balance, cut to five decimals, never rounded up', () => {
    expect(withdrawalMaxAmount(money('1234.56789999'), bounds, usdtTrc20)).toBe(money('1234.56789'));
    expect(withdrawalMaxAmount(money('100'), bounds, btc)).toBe(money('100'));
  });
  it('stops at the channel maximum', () => {
    expect(withdrawalMaxAmount(money('300000'), bounds, usdtTrc20)).toBe(money('200000'));
  });
  it('offers nothing below the minimum, or when the fee would take it all', () => {
    expect(withdrawalMaxAmount(money('9.99999'), bounds, usdtTrc20)).toBeNull();
    expect(withdrawalMaxAmount(money('0'), { min: 0n, max: money('100') }, btc)).toBeNull();
    expect(withdrawalMaxAmount(money('20'), bounds, usdtTrc20)).toBeNull();
    expect(withdrawalMaxAmount(money('25.00001'), bounds, usdtTrc20)).toBe(money('25.00001'));
  });
});
