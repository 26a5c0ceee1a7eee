import { describe, expect, it } from 'vitest';
import { forgetDraft, keepDraftForAgreement, takeDraft } from '../../../../../src/app/features/money/deposit/deposit-draft';
import { appendRecords } from '../../../../../src/app/features/money/records/fund-records';
import type { FundRecord } from '../../../../../src/shared/api/deposit';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    size: () => items.size,
  };
}

describe('the deposit draft while the agreement is open', () => {
  it('comes back once to the form, then is gone', () => {
    const storage = memoryStorage();
    keepDraftForAgreement({ step: 2, method: 0, coinId: 3, amount: '1500.5', agreed: false }, storage);
    expect(takeDraft(storage)).toEqual({ step: 2, method: 0, coinId: 3, amount: '1500.5', agreed: false });
    expect(takeDraft(storage)).toBeNull();
    expect(storage.size()).toBe(0);
  });

  it('is forgotten when the agreement is left for another page, and a damaged one is ignored', () => {
    const storage = memoryStorage();
    keepDraftForAgreement({ step: 1, method: 1, coinId: null, amount: '', agreed: true }, storage);
    forgetDraft(storage);
    expect(takeDraft(storage)).toBeNull();
    storage.setItem('tradeweb.depositDraft', '{"step":7}');
    expect(takeDraft(storage)).toBeNull();
  });
});

describe('records pages', () => {
  const record = (id: string): FundRecord => ({
    id,
    actionType: 0,
    currency: 'USDT',
    network: 'TRC20',
    payPrice: '100.00',
    depositUsdPrice: '100.00',
    withdrawUsdPrice: null,
    submitTimeTs: 1,
    decidedTimeTs: null,
    payState: 0,
    failReason: null,
    canceled: false,
    fee: null,
    practical: null,
    destination: null,
  });

  it('shows a record once when a new one shifted the next page', () => {
    expect(appendRecords([record('deposit:3'), record('deposit:2')], [record('deposit:2'), record('deposit:1')]).map((item) => item.id)).toEqual(['deposit:3', 'deposit:2', 'deposit:1']);
  });
});
