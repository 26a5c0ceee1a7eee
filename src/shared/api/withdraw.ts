import { z } from 'zod';
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
const textField = z.string().trim().max(140);
/** An encoded field: base64 of at most 140 characters' worth, or empty. */
const encodedField = z.string().trim().max(400).regex(/^[A-Za-z0-9+/]*={0,2}$/);
/** Amounts are typed with at most 5 decimals (spec §9). */
const withdrawalAmount = z.string().trim().regex(/^\d{1,22}(\.\d{1,5})?$/);
/** An amount the rules computed (the practical amount the customer saw): up to 8 decimals. */
const computedAmount = z.string().trim().regex(/^\d{1,22}(\.\d{1,8})?$/);

// ---- saved crypto addresses -------------------------------------------------------------

/**
 * A saved address. `currencyId` is the coin-network option it was saved for (the id of
 * `wallet/coinNetworks`' entry: a coin on one network); `cryptocurrencyAddress` is encoded.
 */
export const savedCryptoWallet = z.object({
  walletId: z.number().int(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  protocol: z.string(),
  cryptocurrencyAddress: z.string(),
  logoUrl: z.string(),
});
export type SavedCryptoWallet = z.infer<typeof savedCryptoWallet>;

export const cryptoWalletList = contract(
  '/v1/waa/wallet/crypto/all',
  z.strictObject({ pageNum: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(1000).default(1000) }),
  z.object({ list: z.array(savedCryptoWallet), pages: z.number().int().min(0) }),
);
export const cryptoWalletInsert = contract(
  '/v1/waa/wallet/crypto/insert',
  z.strictObject({ currencyId: z.number().int().positive(), cryptocurrencyAddress: encodedField.min(1) }),
  z.null(),
);
export const cryptoWalletDelete = contract('/v1/waa/wallet/crypto/delete', z.strictObject({ walletId: z.number().int().positive() }), z.null());

// ---- bank cards ---------------------------------------------------------------------------

/** The fields a customer types; name, account, address, idNumber and phoneNumber encoded. */
export const bankCardFields = z.strictObject({
  bankName: textField.min(1),
  bankCode: textField.default(''),
  bankAddress: textField.default(''),
  swiftCode: textField.default(''),
  branchCode: textField.default(''),
  bankCountry: textField.default(''),
  name: encodedField.min(1),
  account: encodedField.min(1),
  address: encodedField.default(''),
  postCode: textField.default(''),
  idNumber: encodedField.default(''),
  phoneNumber: encodedField.default(''),
  accountType: textField.default(''),
  /** Institution and transit numbers: only where the bank-info flag shows them. */
  insNum: textField.default(''),
  traNum: textField.default(''),
});
export type BankCardFields = z.input<typeof bankCardFields>;

/** A card as `bankCard/one` answers it (the encoded fields under the caller's session key). */
export const bankCard = z.object({
  id: z.number().int(),
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
export const bankCardSummary = z.object({ id: z.number().int(), bankName: z.string(), accountMasked: z.string() });
export type BankCardSummary = z.infer<typeof bankCardSummary>;

export const bankCardList = contract(
  '/v1/waa/bankCard/all',
  z.strictObject({ page: z.number().int().min(1).default(1), limit: z.number().int().min(1).max(1000).default(1000) }),
  z.object({ list: z.array(bankCardSummary), pages: z.number().int().min(0) }),
);
export const bankCardOne = contract('/v1/waa/bankCard/one', z.strictObject({ id: z.number().int().positive() }), bankCard);
export const bankCardInsert = contract('/v1/waa/bankCard/insert', bankCardFields, z.null());
export const bankCardUpdate = contract('/v1/waa/bankCard/update', bankCardFields.extend({ id: z.number().int().positive() }), z.null());
export const bankCardDelete = contract('/v1/waa/bankCard/delete', z.strictObject({ id: z.number().int().positive() }), z.null());

// ---- withdrawals --------------------------------------------------------------------------

/** `withdraw/status`: code 0 with these flags, or the blocked codes 1066 / 1067 / 1070 as the answer's code. */
export const withdrawStatus = contract(
  '/v1/waa/withdraw/status',
  noBody,
  z.object({ cryptoEnabled: z.boolean(), bankCardEnabled: z.boolean() }),
);

/** The bank card channel: its currency, bounds (0 where it names none) and fee. */
export const bankWithdrawMeta = z.object({
  currencyId: z.number().int(),
  currency: z.string(),
  minWithdrawAmount: decimalString,
  maxWithdrawAmount: decimalString,
  feeType: z.enum(withdrawalFeeTypes),
  feeNum: decimalString,
});
export type BankWithdrawMeta = z.infer<typeof bankWithdrawMeta>;
export const withdrawBankMeta = contract('/v1/waa/withdraw/bankMeta', noBody, bankWithdrawMeta);

export const withdrawalQuoteData = z.object({
  feeType: z.enum(withdrawalFeeTypes),
  feeNum: decimalString,
  feeUsd: decimalString,
  practical: decimalString,
  isOver: z.boolean(),
  afterBalance: decimalString,
});
export type WithdrawalQuoteData = z.infer<typeof withdrawalQuoteData>;

export const withdrawWalletCalculate = contract(
  '/v1/waa/withdraw/walletCalculate',
  z.strictObject({ currencyId: z.number().int().positive(), coinId: z.number().int().positive(), num: withdrawalAmount }),
  withdrawalQuoteData,
);
export const withdrawBankCalculate = contract(
  '/v1/waa/withdraw/bankCalculate',
  z.strictObject({ currencyId: z.number().int().positive(), coinId: z.number().int().positive().optional(), num: withdrawalAmount }),
  withdrawalQuoteData,
);

const localeField = z.string().trim().min(2).max(16);

export const withdrawSubmit = contract(
  '/v1/waa/withdraw/submit',
  z.strictObject({
    num: withdrawalAmount,
    practicalNum: computedAmount,
    currencyId: z.number().int().positive(),
    coinId: z.number().int().positive(),
    /** Encoded: the saved address's `cryptocurrencyAddress` as the list gave it, or a typed one. */
    paymentAddress: encodedField.min(1),
    locale: localeField,
  }),
  z.null(),
);
export const withdrawBankSubmit = contract(
  '/v1/waa/withdraw/bankSubmit',
  z.strictObject({
    num: withdrawalAmount,
    practicalNum: computedAmount,
    userBankId: z.number().int().positive(),
    withdrawType: z.literal(1),
    locale: localeField,
  }),
  z.null(),
);

/** The customer withdraws a withdrawal still under review: its hold is released. */
export const withdrawCancel = contract('/v1/waa/withdraw/cancel', z.strictObject({ id: z.number().int().positive() }), z.null());

/** A withdrawal as the records and the cancel button need it (payState 0 waiting, 1 success, 2 fail). */
export const withdrawalRecord = z.object({
  id: z.number().int(),
  actionType: z.literal(1),
  currency: z.string(),
  payPrice: decimalString,
  withdrawUsdPrice: decimalString,
  fee: decimalString,
  practical: decimalString,
  payState: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  submitTimeTs: z.number().int(),
});
export type WithdrawalRecord = z.infer<typeof withdrawalRecord>;
export const withdrawList = contract(
  '/v1/waa/withdraw/list',
  z.strictObject({ pageNum: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(100).default(10) }),
  z.object({ list: z.array(withdrawalRecord), pages: z.number().int().min(0) }),
);
