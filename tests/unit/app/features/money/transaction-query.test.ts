import { describe, expect, it } from 'vitest';
import { transactionQueryOf } from '../../../../../src/app/features/money/records/transaction-query';

describe('the transaction list address query', () => {
  it('opens a market order for ?uid= and an option for ?optionUID=', () => {
    expect(transactionQueryOf('uid=T2026112400001')).toEqual({ market: 'T2026112400001' });
    expect(transactionQueryOf('?optionUID=O77')).toEqual({ option: 'O77' });
  });

  it('prefers the option id when both are given, and ignores empty or blank ids', () => {
    expect(transactionQueryOf('uid=T1&optionUID=O1')).toEqual({ option: 'O1' });
    expect(transactionQueryOf('uid=&optionUID=%20')).toBeNull();
    expect(transactionQueryOf('')).toBeNull();
    expect(transactionQueryOf('other=1')).toBeNull();
  });

  it('decodes the id as the address carries it', () => {
    expect(transactionQueryOf('uid=A%2FB')).toEqual({ market: 'A/B' });
  });
});
