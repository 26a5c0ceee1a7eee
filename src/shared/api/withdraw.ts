import * as z from 'zod/mini';
import { verificationLevels } from '../money/withdrawal-limits';
import { withdrawalFeeTypes } from '../money/withdrawal-quote';
import { contract, noBody } from './contract';
import { decimalString } from './envelope';

/**
 * Saved crypto addresses (`wallet/crypto/*`), bank cards (`bankCard/*`) and withdrawals
 * (`withdraw/*`), ../shared/API.md. Fields marked "encoded" travel AES-ECB/PKCS7 base64
 * under the session's `aesKey` (src/shared/money/encoded-field.ts); the server stores them
 * sealed with its own key. Money is exact decimal strings. `wallet/crypto/insert`,
 * `bankCard/insert`, `withdraw/submit` and `withdraw/bankSubmit` need an `Idempotency-Key`.
 */

/** Text inputs are at most 140 characters (spec §9); an encoded one is longer on the wire. */
const textField = z.string().check(z.trim(), z.maxLength(140));
/** An encoded field: base64 of at most 140 characters' worth, or empty. */
const encodedField = z.string().check(z.trim(), z.maxLength(400), z.regex(/^[A-Za-z0-9+/]*={0,2}$/));
/** Amounts are typed with at most 5 decimals (spec §9). */
const withdrawalAmount = z.string().check(z.trim(), z.regex(/^\d{1,22}(\.\d{1,5})?$/));
/** An amount the rules computed (the practical amount the customer saw): up to 8 decimals. */
const computedAmount = z.string().check(z.trim(), z.regex(/^\d{1,22}(\.\d{1,8})?$/));
/** The authenticator's 6-digit code: asked for a withdrawal and a new destination when the second factor is on (1076 without it). */
const totpCode = z.optional(z.string().check(z.trim(), z.regex(/^\d{6}$/)));

// ---- saved crypto addresses -------------------------------------------------------------

/**
 * A saved address. `currencyId` is the coin-network option it was saved for (the id of
 * `wallet/coinNetworks`' entry: a coin on one network); `cryptocurrencyAddress` is encoded.
 */
export const savedCryptoWallet = z.object({
  walletId: z.int(),
  currencyId: z.int(),
  currencyName: z.string(),
  protocol: z.string(),
  cryptocurrencyAddress: z.string(),
  logoUrl: z.string(),
});
export type SavedCryptoWallet = z.infer<typeof savedCryptoWallet>;

export const cryptoWalletList = contract(
  '/v1/waa/wallet/crypto/all',
  z.strictObject({ pageNum: z._default(z.int().check(z.minimum(1)), 1), pageSize: z._default(z.int().check(z.minimum(1), z.maximum(1000)), 1000) }),
  z.object({ list: z.array(savedCryptoWallet), pages: z.int().check(z.minimum(0)) }),
);
export const cryptoWalletInsert = contract(
  '/v1/waa/wallet/crypto/insert',
  z.strictObject({ currencyId: z.int().check(z.positive()), cryptocurrencyAddress: encodedField.check(z.minLength(1)), totpCode }),
  z.null(),
);
export const cryptoWalletDelete = contract('/v1/waa/wallet/crypto/delete', z.strictObject({ walletId: z.int().check(z.positive()) }), z.null());

// ---- bank cards ---------------------------------------------------------------------------

/** The fields a customer types; name, account, address, idNumber and phoneNumber encoded. */
export const bankCardFields = z.strictObject({
  bankName: textField.check(z.minLength(1)),
  bankCode: z._default(textField, ''),
  bankAddress: z._default(textField, ''),
  swiftCode: z._default(textField, ''),
  branchCode: z._default(textField, ''),
  bankCountry: z._default(textField, ''),
  name: encodedField.check(z.minLength(1)),
  account: encodedField.check(z.minLength(1)),
  address: z._default(encodedField, ''),
  postCode: z._default(textField, ''),
  idNumber: z._default(encodedField, ''),
  phoneNumber: z._default(encodedField, ''),
  accountType: z._default(textField, ''),
  /** Institution and transit numbers: only where the bank-info flag shows them. */
  insNum: z._default(textField, ''),
  traNum: z._default(textField, ''),
  totpCode,
});
export type BankCardFields = z.input<typeof bankCardFields>;

/** A card as `bankCard/one` answers it (the encoded fields under the caller's session key). */
export const bankCard = z.object({
  id: z.int(),
  bankName: z.string(),
  bankCode: z.string(),
  bankAddress: z.string(),
  swiftCode: z.string(),
  branchCode: z.string(),
  bankCountry: z.string(),
  name: z.string(),
  account: z.string(),
  address: z.string(),
  postCode: z.string(),
  idNumber: z.string(),
  phoneNumber: z.string(),
  accountType: z.string(),
  insNum: z.string(),
  traNum: z.string(),
});
export type BankCard = z.infer<typeof bankCard>;

/** A card in a list: what the list and the withdraw picker show (the bank and the account's last 4). */
export const bankCardSummary = z.object({ id: z.int(), bankName: z.string(), accountMasked: z.string() });
export type BankCardSummary = z.infer<typeof bankCardSummary>;

export const bankCardList = contract(
  '/v1/waa/bankCard/all',
  /** API.md names page and limit, the specification pageNum and pageSize: either pair is taken (not both). */
  z.strictObject({
    page: z.optional(z.int().check(z.minimum(1))),
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(1000))),
    pageNum: z.optional(z.int().check(z.minimum(1))),
    pageSize: z.optional(z.int().check(z.minimum(1), z.maximum(1000))),
  }),
  z.object({ list: z.array(bankCardSummary), pages: z.int().check(z.minimum(0)) }),
);
export type BankCardListBody = z.infer<typeof bankCardList.body>;

/** The page asked for by either pair of names; null when both pairs are sent and disagree. */
export function bankCardPaging(body: BankCardListBody): { page: number; limit: number } | null {
  if (body.page !== undefined && body.pageNum !== undefined && body.page !== body.pageNum) return null;
  if (body.limit !== undefined && body.pageSize !== undefined && body.limit !== body.pageSize) return null;
  return { page: body.pageNum ?? body.page ?? 1, limit: body.pageSize ?? body.limit ?? 1000 };
}
export const bankCardOne = contract('/v1/waa/bankCard/one', z.strictObject({ id: z.int().check(z.positive()) }), bankCard);
export const bankCardInsert = contract('/v1/waa/bankCard/insert', bankCardFields, z.null());
export const bankCardUpdate = contract('/v1/waa/bankCard/update', z.extend(bankCardFields, { id: z.int().check(z.positive()) }), z.null());
export const bankCardDelete = contract('/v1/waa/bankCard/delete', z.strictObject({ id: z.int().check(z.positive()) }), z.null());

// ---- withdrawals --------------------------------------------------------------------------

/** `withdraw/status`: code 0 with these flags, or the blocked codes 1066 / 1067 / 1070 as the answer's code. */
export const withdrawStatus = contract(
  '/v1/waa/withdraw/status',
  noBody,
  z.object({ cryptoEnabled: z.boolean(), bankCardEnabled: z.boolean() }),
);

/** The bank card channel: its currency, bounds (0 where it names none) and fee. */
export const bankWithdrawMeta = z.object({
  currencyId: z.int(),
  currency: z.string(),
  minWithdrawAmount: decimalString,
  maxWithdrawAmount: decimalString,
  feeType: z.enum(withdrawalFeeTypes),
  feeNum: decimalString,
});
export type BankWithdrawMeta = z.infer<typeof bankWithdrawMeta>;
/** The data of a refusal for want of verification (1067): the level the customer must reach, for the screen to lead there. */
export const withdrawalNeedsVerification = z.object({ requiredLevel: z.enum(verificationLevels) });
export type WithdrawalNeedsVerification = z.infer<typeof withdrawalNeedsVerification>;
export const withdrawBankMeta = contract('/v1/waa/withdraw/bankMeta', noBody, bankWithdrawMeta);

export const withdrawalQuoteData = z.object({
  feeType: z.enum(withdrawalFeeTypes),
  feeNum: decimalString,
  feeUsd: decimalString,
  practical: decimalString,
  isOver: z.boolean(),
  afterBalance: decimalString,
  /** What arrives and the balance after in USD; optional: a back end naming only the specification's fields is shown in the coin. */
  practicalUsd: z.optional(decimalString),
  afterBalanceUsd: z.optional(decimalString),
});
export type WithdrawalQuoteData = z.infer<typeof withdrawalQuoteData>;

export const withdrawWalletCalculate = contract(
  '/v1/waa/withdraw/walletCalculate',
  /** `coinId` is optional (the specification's wording): without it, the currency's one enabled network. */
  z.strictObject({ currencyId: z.int().check(z.positive()), coinId: z.optional(z.int().check(z.positive())), num: withdrawalAmount }),
  withdrawalQuoteData,
);
export const withdrawBankCalculate = contract(
  '/v1/waa/withdraw/bankCalculate',
  z.strictObject({ currencyId: z.int().check(z.positive()), coinId: z.optional(z.int().check(z.positive())), num: withdrawalAmount }),
  withdrawalQuoteData,
);

/**
 * `withdraw/bounds`: the amounts a withdrawal on a channel may have now, as the server
 * enforces them: the coin's (with `coinId`) or the bank card channel's (without) bounds
 * within the general 50 – 10,000,000 USD at the currency's live rate. The range hint shows
 * these, not the coin's own bounds, which the USD limits may narrow (BTC's 200 is above
 * 10,000,000 USD).
 */
export const withdrawBounds = contract(
  '/v1/waa/withdraw/bounds',
  z.strictObject({ currencyId: z.int().check(z.positive()), coinId: z.optional(z.int().check(z.positive())) }),
  z.object({ min: decimalString, max: decimalString }),
);
export type WithdrawBoundsData = z.infer<typeof withdrawBounds.data>;

const localeField = z.string().check(z.trim(), z.minLength(2), z.maxLength(16));

export const withdrawSubmit = contract(
  '/v1/waa/withdraw/submit',
  z.strictObject({
    num: withdrawalAmount,
    practicalNum: computedAmount,
    currencyId: z.int().check(z.positive()),
    coinId: z.int().check(z.positive()),
    /** Encoded: one of the customer's saved addresses for this coin network (anything else is refused, 1074). */
    paymentAddress: encodedField.check(z.minLength(1)),
    locale: localeField,
    totpCode,
  }),
  z.null(),
);
export const withdrawBankSubmit = contract(
  '/v1/waa/withdraw/bankSubmit',
  z.strictObject({
    num: withdrawalAmount,
    practicalNum: computedAmount,
    userBankId: z.int().check(z.positive()),
    withdrawType: z.literal(1),
    locale: localeField,
    totpCode,
  }),
  z.null(),
);

/**
 * What the customer may still withdraw (issue 31): their verification level, the USD left of
 * the rolling 24-hour and 30-day limits, and the end of a cooling-off hold (null: none runs).
 */
export const withdrawLimits = contract(
  '/v1/waa/withdraw/limits',
  noBody,
  z.object({ level: z.enum(verificationLevels), dailyLeftUsd: decimalString, monthlyLeftUsd: decimalString, holdUntilTs: z.nullable(z.int()) }),
);
export type WithdrawLimitsData = z.infer<typeof withdrawLimits.data>;

/** The customer withdraws a withdrawal still under review: its hold is released. */
export const withdrawCancel = contract('/v1/waa/withdraw/cancel', z.strictObject({ id: z.int().check(z.positive()) }), z.null());

/** A withdrawal as the records and the cancel button need it (payState 0 waiting, 1 success, 2 fail). */
export const withdrawalRecord = z.object({
  id: z.int(),
  actionType: z.literal(1),
  currency: z.string(),
  payPrice: decimalString,
  withdrawUsdPrice: decimalString,
  fee: decimalString,
  practical: decimalString,
  payState: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  submitTimeTs: z.int(),
});
export type WithdrawalRecord = z.infer<typeof withdrawalRecord>;
export const withdrawList = contract(
  '/v1/waa/withdraw/list',
  z.strictObject({ pageNum: z._default(z.int().check(z.minimum(1)), 1), pageSize: z._default(z.int().check(z.minimum(1), z.maximum(100)), 10) }),
  z.object({ list: z.array(withdrawalRecord), pages: z.int().check(z.minimum(0)) }),
);
