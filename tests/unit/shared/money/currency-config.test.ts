import { describe, expect, it } from 'vitest';
import { coinNetworkTermsViolation, currencyTermsViolation, type CoinNetworkTerms, type CurrencyTerms } from '../../../../src/shared/money/currency-config';

const solana: CurrencyTerms = { code: 'SOL', name: 'Solana', decimals: 8, icon: '/icons/coins/sol.svg', valuedByProduct: 'SOLUSDT', transferFeeRate: '0.001', enabled: true, sort: 4 };
const tron: CoinNetworkTerms = {
  network: 'TRC20',
  depositAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  minWithdraw: '50',
  maxWithdraw: '10000',
  withdrawFeeType: 'FIX_AMOUNT',
  withdrawFee: '1',
  enabled: true,
};

describe('currency terms', () => {
  it('accepts a priced coin and a USD-pegged one with a zero fee', () => {
    expect(currencyTermsViolation(solana)).toBeNull();
    expect(currencyTermsViolation({ ...solana, code: 'USDC', valuedByProduct: null, transferFeeRate: '0', decimals: 0 })).toBeNull();
  });

  it.each([
    [{ code: 'sol' }, 'code'],
    [{ code: 'S' }, 'code'],
    [{ code: 'SOLANA-COIN' }, 'code'],
    [{ name: '' }, 'name'],
    [{ name: ' Solana' }, 'name'],
    [{ decimals: 9 }, 'decimals'],
    [{ decimals: 1.5 }, 'decimals'],
    [{ decimals: -1 }, 'decimals'],
    [{ transferFeeRate: '1' }, 'transferFeeRate'],
    [{ transferFeeRate: '-0.01' }, 'transferFeeRate'],
    [{ transferFeeRate: '0.000000001' }, 'transferFeeRate'],
    [{ transferFeeRate: '1e-3' }, 'transferFeeRate'],
    [{ valuedByProduct: 'sol usdt' }, 'valuedByProduct'],
    [{ sort: -1 }, 'sort'],
  ] as [Partial<CurrencyTerms>, keyof CurrencyTerms][])('refuses %j on %s', (change, field) => {
    expect(currencyTermsViolation({ ...solana, ...change })?.field).toBe(field);
  });

  it('accepts a fee rate just below 1', () => {
    expect(currencyTermsViolation({ ...solana, transferFeeRate: '0.99999999' })).toBeNull();
  });
});

describe('network terms', () => {
  it('accepts a fixed fee and a percentage fee with equal bounds', () => {
    expect(coinNetworkTermsViolation(tron)).toBeNull();
    expect(coinNetworkTermsViolation({ ...tron, minWithdraw: '0.5', maxWithdraw: '0.5', withdrawFeeType: 'PERCENTAGE', withdrawFee: '0.5' })).toBeNull();
  });

  it('accepts the empty fee type (no fee) with a fee of 0, and refuses a fee beside it', () => {
    expect(coinNetworkTermsViolation({ ...tron, withdrawFeeType: '', withdrawFee: '0' })).toBeNull();
    expect(coinNetworkTermsViolation({ ...tron, withdrawFeeType: '', withdrawFee: '1' })?.field).toBe('withdrawFee');
  });

  it.each([
    [{ network: '' }, 'network'],
    [{ network: 'TRC<20>' }, 'network'],
    [{ depositAddress: '' }, 'depositAddress'],
    [{ depositAddress: ' TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' }, 'depositAddress'],
    [{ depositAddress: 'TQn9Y2khEs LJW1ChVWF' }, 'depositAddress'],
    [{ depositAddress: '<script>alert(1)</script>' }, 'depositAddress'],
    [{ depositAddress: 'short' }, 'depositAddress'],
    [{ minWithdraw: '-1' }, 'minWithdraw'],
    [{ minWithdraw: 'abc' }, 'minWithdraw'],
    [{ maxWithdraw: '49.99999999' }, 'maxWithdraw'],
    [{ withdrawFeeType: 'FLAT' }, 'withdrawFeeType'],
    [{ withdrawFee: '-0.1' }, 'withdrawFee'],
    [{ withdrawFeeType: 'PERCENTAGE', withdrawFee: '100' }, 'withdrawFee'],
  ] as [Partial<CoinNetworkTerms>, keyof CoinNetworkTerms][])('refuses %j on %s', (change, field) => {
    expect(coinNetworkTermsViolation({ ...tron, ...change })?.field).toBe(field);
  });
});
