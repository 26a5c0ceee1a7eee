import { describe, expect, it } from 'vitest';
import { forgetDraft, keepDraftForAgreement, takeDraft } from '../../../../../src/app/features/money/deposit/deposit-draft';

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
