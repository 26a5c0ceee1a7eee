import { describe, expect, it } from 'vitest';
import { formatMoney, money } from '../../../../src/shared/money/money';
import { parseTransferAmount, quoteStillHolds, quoteTransfer, TransferType } from '../../../../src/shared/money/transfer-quote';

const shown = (quote: { fee: bigint; practical: bigint; currencyAmount: bigint; usdAmount: bigint }) => ({
  fee: formatMoney(quote.fee, 4),
  practical: formatMoney(quote.practical, 4),
  currencyAmount: formatMoney(quote.currencyAmount, 4),
  usdAmount: formatMoney(quote.usdAmount, 4),
});

describe('transfer quotes', () => {
  it('a transfer in keeps the fee in the currency (rounded up) and pays USD at the bid (rounded down)', () => {
    const quote = quoteTransfer({ type: TransferType.in, num: money('0.5'), feeRate: money('0.001'), price: money('67000.12') });
    expect(shown(quote)).toEqual({ fee: '0.0005', practical: '33466.5599', currencyAmount: '0.5000', usdAmount: '33466.5599' });
  });

  it('a transfer out keeps the fee in USD and buys the currency at the ask, rounded down to 4 decimals', () => {
    const quote = quoteTransfer({ type: TransferType.out, num: money('1000'), feeRate: money('0.001'), price: money('67001.12') });
    expect(shown(quote)).toEqual({ fee: '1.0000', practical: '0.0149', currencyAmount: '0.0149', usdAmount: '1000.0000' });
  });

  it('rounds any fraction of a fee up to the next 0.0001, never down', () => {
    // 0.0001 × 0.001 = 0.0000001: the house still takes 0.0001.
    expect(formatMoney(quoteTransfer({ type: TransferType.in, num: money('0.0001'), feeRate: money('0.001'), price: money('2') }).fee, 4)).toBe('0.0001');
    expect(formatMoney(quoteTransfer({ type: TransferType.in, num: money('1.2345'), feeRate: money('0.001'), price: money('1') }).fee, 4)).toBe('0.0013');
  });

  it('a pegged coin without a fee moves one for one', () => {
    const quote = quoteTransfer({ type: TransferType.out, num: money('150'), feeRate: 0n, price: money('1') });
    expect(shown(quote)).toEqual({ fee: '0.0000', practical: '150.0000', currencyAmount: '150.0000', usdAmount: '150.0000' });
  });

  it('an amount eaten by its fee carries nothing', () => {
    expect(quoteTransfer({ type: TransferType.in, num: money('0.0001'), feeRate: money('0.5'), price: money('1') }).practical).toBe(0n);
  });

  it('accepts positive amounts of at most 4 decimals only', () => {
    expect(parseTransferAmount('12.3456')).toBe(money('12.3456'));
    expect(parseTransferAmount('12.34567')).toBeNull();
    expect(parseTransferAmount('0')).toBeNull();
    expect(parseTransferAmount('0.0000')).toBeNull();
    expect(parseTransferAmount('-1')).toBeNull();
    expect(parseTransferAmount('1e3')).toBeNull();
  });

  it('a quote holds only while both its fee and what arrives are unchanged', () => {
    const seen = quoteTransfer({ type: TransferType.in, num: money('1'), feeRate: money('0.001'), price: money('3500') });
    expect(quoteStillHolds(seen, quoteTransfer({ type: TransferType.in, num: money('1'), feeRate: money('0.001'), price: money('3500') }))).toBe(true);
    expect(quoteStillHolds(seen, quoteTransfer({ type: TransferType.in, num: money('1'), feeRate: money('0.001'), price: money('3500.01') }))).toBe(false);
    expect(quoteStillHolds(seen, quoteTransfer({ type: TransferType.in, num: money('1'), feeRate: money('0.002'), price: money('3500') }))).toBe(false);
  });
});
