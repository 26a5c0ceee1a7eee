import { parsePhoneNumberWithError, ParseError } from 'libphonenumber-js/min';

/**
 * The bank card form's rules (spec §5 "Bank card save"), for the app: the required fields'
 * messages, and the phone number (libphonenumber-js, the metadata-light build): a typed
 * number without a country, without a national number or not valid is `wrong_phone_number`;
 * a valid one is sent without the "+" and without spaces, anything else as empty.
 */
/** The specification's bank list, offered as the bank name is typed (stored as written; another bank may be typed). */
export const listedBankNames = ['aib', 'vib', 'hkib', 'jbic', 'kb', 'bnm', 'cba'] as const;

export interface BankCardDraft {
  bankName: string;
  name: string;
  account: string;
  phoneNumber: string;
}

export type BankCardFieldErrors = Partial<Record<keyof BankCardDraft, string>>;

/** The phone as the card stores it ("+44 7400 123456" → "447400123456"); null when it is not a valid number. */
export function normalizedPhone(typed: string): string | null {
  const value = typed.trim();
  if (value === '') return '';
  try {
    const parsed = parsePhoneNumberWithError(value.startsWith('+') ? value : `+${value}`);
    if (!parsed.isValid()) return null;
    return parsed.number.replace(/^\+/, '').replace(/\s+/g, '');
  } catch (error) {
    // Missing country, missing national number, too short: the library's ParseError.
    if (error instanceof ParseError) return null;
    throw error;
  }
}

/** The translation keys of what is wrong with a draft; empty when it may be saved. */
export function bankCardErrors(draft: BankCardDraft): BankCardFieldErrors {
  const errors: BankCardFieldErrors = {};
  if (draft.bankName.trim() === '') errors.bankName = 'withdraw.p_t_bank_name';
  if (draft.name.trim() === '') errors.name = 'withdraw.p_t_payee_name';
  if (draft.account.trim() === '') errors.account = 'withdraw.p_t_bank_account';
  if (normalizedPhone(draft.phoneNumber) === null) errors.phoneNumber = 'withdraw.wrong_phone_number';
  return errors;
}
