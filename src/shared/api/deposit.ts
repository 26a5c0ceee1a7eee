import * as z from 'zod/mini';
import { contract, noBody, positiveId } from './contract';
import { decimalString } from './envelope';

/**
 * Deposits and the deposit/withdraw records (../shared/API.md `deposit/*`, `fund/records`).
 * `deposit/submit` is multipart: this body is its `metaData` part; the proof image is the
 * `depositProof` file part; the `Idempotency-Key` header is required.
 */
export const depositSubmitMeta = z.strictObject({
  /** The coin network paid into (wallet/coinNetworks' id). */
  coinId: positiveId,
  /** The amount as typed: the shared deposit rules check it (deposit-rules.ts). */
  amt: z.string().check(z.maxLength(40)),
  /** The coin network's address the customer paid to, as shown to them. */
  said: z._default(z.string().check(z.maxLength(200)), ''),
  /** The customer's language: it decides the minimum deposit. */
  locale: z.string().check(z.minLength(2), z.maxLength(10)),
});
export const depositSubmit = contract('/v1/waa/deposit/submit', depositSubmitMeta, z.null());
/** The data of a deposit refused over its maximum (1075): the most one deposit of this customer may be worth, in USD. */
export const depositOverMaximum = z.object({ maxUsd: decimalString });
export type DepositOverMaximum = z.infer<typeof depositOverMaximum>;

export const depositStatus = contract('/v1/waa/deposit/status', noBody, z.object({ enabled: z.boolean() }));

/**
 * One deposit or withdrawal of the records list (payState 0 waiting, 1 success, 2 fail;
 * actionType 0 deposit, 1 withdraw). A withdrawal the customer canceled is a failed one with
 * `canceled` set. `fee`, `practical` and `destination` (masked) are a withdrawal's, null for a deposit.
 */
export const fundRecord = z.object({
  /** Unique across both kinds: `deposit:12`, `withdraw:7`. */
  id: z.string(),
  actionType: z.union([z.literal(0), z.literal(1)]),
  currency: z.string(),
  network: z.string(),
  payPrice: z.string(),
  depositUsdPrice: z.nullable(z.string()),
  withdrawUsdPrice: z.nullable(z.string()),
  submitTimeTs: z.int(),
  decidedTimeTs: z.nullable(z.int()),
  payState: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  failReason: z.nullable(z.string()),
  canceled: z.boolean(),
  fee: z.nullable(z.string()),
  practical: z.nullable(z.string()),
  /** Where a withdrawal went, masked: an address's ends, or the bank and the account's last 4 digits. */
  destination: z.nullable(z.string()),
});
export type FundRecord = z.infer<typeof fundRecord>;

export const fundRecords = contract(
  '/v1/waa/fund/records',
  z.strictObject({
    pageNum: z._default(z.int().check(z.minimum(1)), 1),
    pageSize: z._default(z.int().check(z.minimum(1), z.maximum(100)), 10),
    /** actionType: 0 deposits, 1 withdrawals; all when absent. */
    type: z.optional(z.union([z.literal(0), z.literal(1)])),
    /** payState; all when absent. */
    status: z.optional(z.union([z.literal(0), z.literal(1), z.literal(2)])),
  }),
  z.object({ list: z.array(fundRecord), pages: z.int().check(z.minimum(0)) }),
);
