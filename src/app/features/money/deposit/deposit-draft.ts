/**
 * The deposit form while the customer reads the agreement (specification: the form is kept
 * in session storage only while /user/agreement is visited, otherwise cleared on leaving).
 * The proof image is not kept: a File does not survive session storage; it is picked again.
 */
export interface DepositDraft {
  step: 1 | 2;
  method: 0 | 1;
  coinId: number | null;
  amount: string;
  agreed: boolean;
}

const draftKey = 'tradeweb.depositDraft';

/** Kept as the customer opens the agreement from the form. */
export function keepDraftForAgreement(draft: DepositDraft, storage: Pick<Storage, 'setItem'> = sessionStorage) {
  storage.setItem(draftKey, JSON.stringify(draft));
}

/** The draft kept for the agreement, read once: it is removed as it is read, so leaving any other way forgets it. */
export function takeDraft(storage: Pick<Storage, 'getItem' | 'removeItem'> = sessionStorage): DepositDraft | null {
  const text = storage.getItem(draftKey);
  storage.removeItem(draftKey);
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<DepositDraft>;
    if ((value.step !== 1 && value.step !== 2) || (value.method !== 0 && value.method !== 1)) return null;
    return {
      step: value.step,
      method: value.method,
      coinId: typeof value.coinId === 'number' ? value.coinId : null,
      amount: typeof value.amount === 'string' ? value.amount : '',
      agreed: value.agreed === true,
    };
  } catch {
    return null;
  }
}

/** Forgets a kept draft (the agreement page left for anywhere but the form). */
export function forgetDraft(storage: Pick<Storage, 'removeItem'> = sessionStorage) {
  storage.removeItem(draftKey);
}
