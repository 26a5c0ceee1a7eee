/**
 * The numeric error catalogue of the product, defined once for the app, the worker and
 * the server. Each code's message lives in every locale file under `errors.<code>`;
 * `tests/unit/shared/errors/catalogue.test.ts` proves that all 12 languages have all of them.
 *
 * Codes 1003, 1005–1007, 1011, 1015 and 1022 appear in the specification with internal
 * names only; we give them the specification's otherwise unnumbered server messages.
 * Codes 1066, 1067 and 1070 are the withdraw-status codes that block withdrawals.
 */
export const ErrorCode = {
  SUCCESS: 0,
  LIST_FAILURE: -1,
  GET_BALANCE_ERROR: 201,
  GET_CURRENT_PRICE_ERROR: 202,
  INSUFFICIENT_BALANCE: 203,
  MODIFY_BALANCE_ERROR: 204,
  LOCK_BALANCE_ERROR: 205,
  ROLLBACK_LOCKED_BALANCE_FAILED: 206,
  PENDING_PRICE_NOT_POSITIVE: 301,
  QUANTITY_NOT_POSITIVE: 302,
  TRADING_PAIR_CONFIG_NOT_FOUND: 303,
  PAIR_PROHIBITED: 304,
  LOT_SIZE_ABOVE_LIMIT: 305,
  LOT_SIZE_BELOW_LIMIT: 306,
  LOT_SIZE_NOT_POSITIVE: 307,
  TAKE_PROFIT_ABOVE_CURRENT: 308,
  STOP_LOSS_BELOW_CURRENT: 309,
  TAKE_PROFIT_BELOW_CURRENT: 310,
  STOP_LOSS_ABOVE_CURRENT: 311,
  TAKE_PROFIT_ABOVE_LIMIT: 312,
  STOP_LOSS_BELOW_LIMIT: 313,
  TAKE_PROFIT_BELOW_LIMIT: 314,
  STOP_LOSS_ABOVE_LIMIT: 315,
  FOREX_DEPOSIT_REQUIRED: 320,
  CLOSE_POSITION_FIRST: 321,
  NOT_LOGGED_IN: 400,
  USER_ID_ERROR: 401,
  ORDER_NOT_FOUND: 402,
  NOT_YOUR_ORDER: 403,
  ORDER_STATUS_NOT_CLOSABLE: 404,
  USER_PROHIBITED_FROM_TRADING: 405,
  UNREVIEWED_WITHDRAWAL: 406,
  ORDER_TYPE_NOT_CANCELLABLE: 407,
  ORDER_STATUS_NOT_CANCELLABLE: 408,
  MINIMUM_HOLDING_TIME: 409,
  // A close that lost to another (the stop-out, a trigger, another tab): the position is no longer open.
  POSITION_ALREADY_CLOSED: 410,
  INCORRECT_PARAMETER: 501,
  ORDER_SUBMISSION_FAILED: 502,
  OPTION_CURRENT_PRICE_ERROR: 601,
  OPTION_TIME_ERROR: 602,
  NO_OPTION_CONFIGURATION: 603,
  PAIR_DOES_NOT_EXIST: 604,
  PAIR_NOT_TRADABLE: 605,
  OPTION_CONFIG_FOR_PAIR_MISSING: 606,
  OPTION_ORDER_SUBMISSION_FAILED: 607,
  VIRTUAL_TRADING_ONLY_ONCE: 701,
  UNKNOWN_ERROR: 1000,
  INCORRECT_PARAMETER_CONTENT: 1001,
  USER_NOT_FOUND: 1002,
  INCORRECT_ACCOUNT_OR_PASSWORD: 1003,
  ACCOUNT_EXISTS: 1004,
  USER_BLOCKED: 1005,
  CONTACT_DUPLICATED: 1006,
  INVALID_INVITATION_CODE: 1007,
  DATA_NOT_FOUND: 1008,
  INCORRECT_URL: 1009,
  MAXIMUM_TARGET_VALUE_REACHED: 1010,
  IMAGE_CAPTCHA_FAILED: 1011,
  QUERY_FAILED: 1012,
  CURRENCY_LIST_UPDATE_FAILED: 1013,
  WRONG_REAL_NAME_STATUS: 1014,
  ILLEGAL_SPECIAL_CHARACTERS: 1015,
  INCORRECT_PARAMETER_VALUE: 1016,
  STATUS_UNCHANGED: 1017,
  AMOUNT_DUPLICATED: 1018,
  WALLET_DEPOSIT_ERROR: 1019,
  INVALID_VERIFICATION_CODE: 1020,
  QR_KEY_MISSING: 1021,
  ACCOUNT_ANOMALY: 1022,
  CURRENCY_NOT_FOUND: 1030,
  CURRENCY_DUPLICATED: 1031,
  UNKNOWN_DEPOSIT_ERROR: 1032,
  TRY_AGAIN_LATER: 1033,
  // The account's credentials: e-mail binding (p_bind_email_first and its availability).
  BIND_EMAIL_FIRST: 1040,
  EMAIL_BINDING_UNAVAILABLE: 1041,
  // Identity verification (issue 17): an approved level is closed; the junior level may be switched off.
  VERIFICATION_ALREADY_APPROVED: 1050,
  JUNIOR_VERIFICATION_UNAVAILABLE: 1051,
  // One person, one verified identity (issue 31): a document number verifies one account.
  DOCUMENT_VERIFIED_ELSEWHERE: 1052,
  WITHDRAWAL_UNAVAILABLE: 1066,
  WITHDRAWAL_NEEDS_VERIFICATION: 1067,
  WITHDRAWAL_UNDER_REVIEW: 1070,
  // Money controls (issue 31): limits by verification level, cooling-off, destinations, deposit maximum, second factor.
  WITHDRAWAL_OVER_LIMIT: 1071,
  WITHDRAWAL_ON_HOLD: 1072,
  DESTINATION_ADDRESS_INVALID: 1073,
  DESTINATION_NOT_SAVED: 1074,
  DEPOSIT_OVER_MAXIMUM: 1075,
  SECOND_FACTOR_REQUIRED: 1076,
  // Loans and repayments (issue 17).
  LOAN_UNAVAILABLE: 1080,
  LOAN_GUARANTOR_INVALID: 1081,
  LOAN_ALREADY_OPEN: 1082,
  LOAN_NOT_ACTIVE: 1083,
  REPAYMENT_WAITING: 1084,
  REPAYMENT_ABOVE_OWED: 1085,
  // Staff back office (../shared/API.md "Staff back office").
  STAFF_ROLE_REQUIRED: 2001,
  STAFF_PASSWORD_CHANGE_REQUIRED: 2002,
  REVIEW_ALREADY_DECIDED: 2003,
  REVIEW_SAME_APPROVER: 2004,
  REVIEW_REASON_REQUIRED: 2005,
  STAFF_SELF_PROTECTED: 2006,
  PASSWORD_UNCHANGED: 2007,
  // Staff enrolment, segregation of duties and dual control (issue 31).
  STAFF_INVITATION_INVALID: 2008,
  STAFF_INVITATION_EXPIRED: 2009,
  STAFF_INVITATION_USED: 2010,
  STAFF_DUTIES_RELATED: 2011,
  PROPOSAL_OWN: 2012,
  PROPOSAL_STALE: 2013,
  PROPOSAL_ALREADY_DECIDED: 2014,
  VALUATION_SOURCE_MISMATCH: 2015,
  // A staff invitation sent again (the older link voided).
  STAFF_INVITATION_REPLACED: 2016,
  STAFF_NOT_INVITABLE: 2017,
  // Conflict of interest (src/shared/staff/conflict-of-interest.ts).
  STAFF_CUSTOMER_LINKED: 2018,
  STAFF_DOCUMENT_UNDECLARED: 2019,
  STAFF_DOCUMENT_DECLARED: 2020,
  STAFF_CUSTOMER_LINKED_RELATED: 2021,
  SESSION_ENDED: 23519,
  VERIFICATION_CODE_EXPIRED: 23555,
} as const;

export type ErrorName = keyof typeof ErrorCode;
export type ErrorCode = (typeof ErrorCode)[ErrorName];

/** Every code that carries a user-facing message (all but success). */
export const errorCodes: readonly ErrorCode[] = Object.values(ErrorCode).filter(
  (code) => code !== ErrorCode.SUCCESS,
);

const knownCodes = new Set<number>(errorCodes);

export function isKnownErrorCode(code: number): code is ErrorCode {
  return knownCodes.has(code);
}

/** Whether an answer's Content-Language is the reader's language ("de" for "de", "zh-TW" for "zh-tw"). */
export function isReadersLanguage(contentLanguage: string | null | undefined, readerLanguage: string): boolean {
  return !!contentLanguage && contentLanguage.trim().toLowerCase() === readerLanguage.trim().toLowerCase();
}

/** The i18n key of a code's message; unknown codes fall back to "unknown error". */
export function errorMessageKey(code: number): string {
  return `errors.${isKnownErrorCode(code) ? code : ErrorCode.UNKNOWN_ERROR}`;
}

/** Server codes are shown as the translated message followed by the code in brackets. */
export function formatCodedMessage(message: string, code: number): string {
  return `${message} (${code})`;
}

/** What the user is told about a refused call: a catalogue message with its parameters, or the server's own words. */
export type CodedFailureMessage =
  | { kind: 'catalogue'; key: string; params: Record<string, number>; code: number }
  | { kind: 'server'; text: string };

/** The seconds to wait a rate-limited answer (1033) carries in its data; null when it names none. */
export function retryAfterSecondsOf(data: unknown): number | null {
  if (typeof data !== 'object' || data === null || !('retryAfterSeconds' in data)) return null;
  const seconds = data.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}

/**
 * How a refused call is worded: 1033 with the seconds to wait; the server's own words when
 * it wrote them in the reader's language (its answer's Content-Language): they name the
 * reason ("The minimum deposit is 1000 USD"), where the code's text is generic ("Incorrect
 * parameter content"); else a code of the catalogue in the user's language (a brand's back end
 * may word its messages in another language); a code the catalogue has no text for in the
 * server's own message (a brand's back end may add codes), and "unknown error" only when the
 * server said nothing.
 */
export function codedFailureMessage(code: number, serverMessage: string, data: unknown, wordedForReader = false): CodedFailureMessage {
  const seconds = code === ErrorCode.TRY_AGAIN_LATER ? retryAfterSecondsOf(data) : null;
  if (seconds !== null) return { kind: 'catalogue', key: 'notice.request_frequency_high', params: { seconds }, code };
  const spoken = serverMessage.trim() !== '' && (wordedForReader || !isKnownErrorCode(code));
  if (!spoken) return { kind: 'catalogue', key: errorMessageKey(code), params: {}, code };
  const text = serverMessage.trim();
  return { kind: 'server', text: text.endsWith(`(${code})`) ? text : formatCodedMessage(text, code) };
}

/** A refused call's text in the user's language: the catalogue's message followed by its code, or the server's own words. */
export function codedFailureText(
  code: number,
  serverMessage: string,
  data: unknown,
  translate: (key: string, params: Record<string, number>) => string,
  wordedForReader = false,
): string {
  const message = codedFailureMessage(code, serverMessage, data, wordedForReader);
  return message.kind === 'server' ? message.text : formatCodedMessage(translate(message.key, message.params), message.code);
}
