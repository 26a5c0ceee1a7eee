import type { LanguageCode } from '../i18n/languages';
import { isLanguageCode } from '../i18n/languages';
import { parseMoney, type Units } from './money';

/**
 * The deposit form's rules (specification section 5 "Deposit"), one definition for the
 * app's form and the server's refusals.
 */

/** At most 5 decimals in a deposit (and withdrawal) amount. */
export const depositAmountDecimals = 5;

/**
 * The minimum deposit in USD by the customer's language: 1000 in the English and
 * Indonesian texts, 30 in the Thai, Japanese and German ones. The specification names no
 * other language; they take the English text's minimum (its reference text).
 */
const minimumUsdByLanguage: Partial<Record<LanguageCode, string>> = { th: '30', ja: '30', de: '30' };
const defaultMinimumUsd = '1000';

export function minimumDepositUsd(locale: string): string {
  const language = locale.toLowerCase();
  return (isLanguageCode(language) ? minimumUsdByLanguage[language] : undefined) ?? defaultMinimumUsd;
}

/** Why an amount as typed cannot be submitted, as the form's message key; null when it can. */
export type DepositAmountProblem = 'required' | 'leadingDot' | 'tooManyDecimals' | 'notPositive';

const amountShape = /^\d+(\.\d+)?$/;

export function depositAmountProblem(typed: string): DepositAmountProblem | null {
  const amount = typed.trim();
  if (amount === '') return 'required';
  if (amount.startsWith('.')) return 'leadingDot';
  if (!amountShape.test(amount)) return 'required';
  const decimals = amount.split('.')[1]?.length ?? 0;
  if (decimals > depositAmountDecimals) return 'tooManyDecimals';
  const units = parseMoney(amount);
  if (units === null || units <= 0n) return 'notPositive';
  return null;
}

/** The exact amount of a typed deposit that has no problem. */
export function depositAmountUnits(typed: string): Units {
  const units = parseMoney(typed.trim());
  if (units === null || depositAmountProblem(typed) !== null) throw new RangeError(`not a valid deposit amount: ${typed}`);
  return units;
}

/** The message key of each problem (under `deposit.*`). */
export const depositAmountProblemKeys: Record<DepositAmountProblem, string> = {
  required: 'deposit.enter_amount',
  leadingDot: 'deposit.enter_amount',
  tooManyDecimals: 'deposit.max_decimals',
  notPositive: 'deposit.not_positive',
};

/** payState of a deposit or withdrawal record. */
export const PayState = { waiting: 0, success: 1, fail: 2 } as const;
export type PayState = (typeof PayState)[keyof typeof PayState];

/** actionType of a record. */
export const FundActionType = { deposit: 0, withdraw: 1 } as const;
export type FundActionType = (typeof FundActionType)[keyof typeof FundActionType];

/** The records lists' page size (notifications, wallet records and record lists). */
export const fundRecordsPageSize = 10;
