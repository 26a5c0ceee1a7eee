import * as z from 'zod/mini';
import { contract, moneyInput, noBody } from './contract';
import { decimalString } from './envelope';
import type { WithdrawalFeeType } from '../money/withdrawal-quote';

/** One currency wallet of the signed-in real account, valued in USD at the live price. */
export const walletBalanceItem = z.object({
  /** The currency's code (USDT, BTC…). */
  currency: z.string(),
  currencyId: z.int(),
  /** The unit amounts are shown in (the code). */
  unit: z.string(),
  /** The wallet's balance in the currency, exact. */
  balance: decimalString,
  /** Its worth in USD at the live price, 2 decimals. */
  usdBalance: decimalString,
  icon: z.string(),
  /** The decimals the currency is shown with. */
  decimals: z.int(),
});
export type WalletBalanceItem = z.infer<typeof walletBalanceItem>;

export const walletBalanceData = z.object({ list: z.array(walletBalanceItem), totalBalance: decimalString });
export type WalletBalanceData = z.infer<typeof walletBalanceData>;

/**
 * The fee types of withdrawal-quote.ts, written out: importing its values would make every
 * screen reading wallets fetch that module's chunk (the first load's preload lists grow).
 */
const coinNetworkFeeTypes = ['PERCENTAGE', 'FIX_AMOUNT', ''] as const satisfies readonly WithdrawalFeeType[];

/** A coin on one network: where deposits go and the withdrawal bounds and fee. */
export const coinNetworkOption = z.object({
  id: z.int(),
  currencyId: z.int(),
  currency: z.string(),
  protocol: z.string(),
  /** The platform's deposit address on this network. */
  address: z.string(),
  /** The deposit address a deposit names (deposit/submit's `said`). */
  said: z.string(),
  logoUrl: z.string(),
  minWithdrawAmount: decimalString,
  maxWithdrawAmount: decimalString,
  feeType: z.enum(coinNetworkFeeTypes),
  feeNum: decimalString,
});
export type CoinNetworkOption = z.infer<typeof coinNetworkOption>;

/**
 * The self wallet list (walletType 1): the coin networks the customer has an own deposit
 * address on, that address as `address` and `said`; empty for everyone else.
 */
export const walletSelfNetworks = contract('/v1/waa/wallet/selfNetworks', noBody, z.object({ dtoList: z.array(coinNetworkOption) }));

/** A transfer's amount as typed: up to 4 decimals (the spec's precision). */
const transferNum = z.string().check(z.trim(), z.regex(/^\d{1,16}(\.\d{1,4})?$/));
const transferType = z.union([z.literal(0), z.literal(1)]);

export const transformCalculateBody = z.strictObject({
  curr: z.string().check(z.trim(), z.minLength(1), z.maxLength(12)),
  currId: z.int().check(z.positive()),
  /** 0 transfer in (wallet → trading account), 1 transfer out (trading account → wallet). */
  type: transferType,
  num: transferNum,
});
export type TransformCalculateBody = z.infer<typeof transformCalculateBody>;

export const transformQuote = z.object({
  /** Kept by the house, in the unit that leaves (the currency in, USD out). */
  fee: decimalString,
  /** What arrives (USD in, the currency out). */
  practical: decimalString,
});
export type TransformQuote = z.infer<typeof transformQuote>;

/** The transfer draft: the quote the customer confirmed travels with it, and must still hold. */
/** `fee` and `practical` keep the one decimal rule (contract.ts moneyInput): a longer one is refused (1001), never parsed into a fault. */
/** `unit` (the specification's draft field) names what `num` is in (`transferAmountUnit`); a draft with another is refused. */
export const transformBody = z.extend(transformCalculateBody, { fee: moneyInput, practical: moneyInput, unit: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(12))) });
export type TransformBody = z.infer<typeof transformBody>;

/** Wallet record types: 0 transfer in, 1 transfer out, 2 other movements (deposits, withdrawals). */
export const walletRecordType = z.union([z.literal(0), z.literal(1), z.literal(2)]);

export const walletRecordsBody = z.strictObject({
  page: z.int().check(z.minimum(1), z.maximum(100_000)),
  limit: z.int().check(z.minimum(1), z.maximum(100)),
  type: z.optional(walletRecordType),
});
export type WalletRecordsBody = z.infer<typeof walletRecordsBody>;

/**
 * What moved a wallet, beyond the specification's three types: a type 2 ("order") line is
 * a deposit credited, a withdrawal held or a withdrawal handed back, each labelled by what it
 * is. Optional: a back end that sends only `orderType` is labelled by the type.
 */
export const walletRecordMovements = ['transferIn', 'transferOut', 'deposit', 'withdrawal', 'withdrawalReturned', 'order'] as const;
export type WalletRecordMovement = (typeof walletRecordMovements)[number];

export const walletRecord = z.object({
  orderType: walletRecordType,
  movement: z.optional(z.enum(walletRecordMovements)),
  currency: z.string(),
  /** The movement's number. */
  uid: z.string(),
  /** Signed: what the movement did to the wallet. */
  orderQuantity: decimalString,
  unit: z.string(),
  /** Epoch milliseconds. */
  orderTime: z.int(),
});
export type WalletRecord = z.infer<typeof walletRecord>;

export const walletRecordsData = z.object({ list: z.array(walletRecord), pages: z.int() });
export type WalletRecordsData = z.infer<typeof walletRecordsData>;

export const walletBalance = contract('/v1/waa/wallet/balance', noBody, walletBalanceData);
export const walletCoinNetworks = contract('/v1/waa/wallet/coinNetworks', noBody, z.object({ dtoList: z.array(coinNetworkOption) }));
export const walletTransformCalculate = contract('/v1/waa/wallet/transformCalculate', transformCalculateBody, transformQuote);
export const walletTransform = contract('/v1/waa/wallet/transform', transformBody, z.null());
export const walletRecords = contract('/v1/waa/wallet/records', walletRecordsBody, walletRecordsData);
