import { describe, expect, it } from 'vitest';
import { maskedDestinationOf } from '../../../../../server/modules/withdrawals/withdrawals-service';

describe('a withdrawal destination in the records', () => {
  it('shows an address by its first 6 and last 4 characters', () => {
    expect(maskedDestinationOf('crypto', 'TXkq9wZ8vU4bQ1m2n3p4r5s6t7u8v9w0xY')).toBe('TXkq9w****w0xY');
  });

  it('shows a bank card by its bank and swift code and the account’s last 4 digits, never the payee', () => {
    const masked = maskedDestinationOf('bank', 'kb CZNBKRSE · Mina Park · 110-234-567890');
    expect(masked).toBe('kb CZNBKRSE ****7890');
    expect(masked).not.toContain('Mina');
  });

  it('shows a short value only by its tail', () => {
    expect(maskedDestinationOf('crypto', 'abc123')).toBe('****c123');
  });
});
