import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * One row of the customer's deposit/withdraw records, the same columns from every module
 * that contributes rows (deposits, withdrawals), so `fund/records` can UNION ALL them in one
 * query and page exactly across both. Columns a kind does not have are null.
 */
export interface FundRecordSourceRow {
  /** 0 deposit, 1 withdraw (the spec's actionType). */
  action_type: number;
  id: number;
  currency: string;
  network: string;
  amount: string | number;
  amount_usd: string | number;
  fee: string | number | null;
  practical: string | number | null;
  /** 0 waiting, 1 success, 2 fail (a canceled withdrawal is a failed one, marked canceled). */
  pay_state: number;
  canceled: boolean;
  failure_reason: string | null;
  /** A withdrawal's channel ('crypto' | 'bank') and its sealed destination with the key that sealed it. */
  channel: string | null;
  destination_sealed: string | null;
  key_id: string | null;
  created_at: Date | string;
  decided_at: Date | string | null;
}

/** A module's read of one customer's records: a SELECT of exactly these columns, unfiltered and unordered. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a source's FROM clause is its own; only its output shape is shared.
export type FundRecordSource = (uid: number) => SelectQueryBuilder<Database, any, FundRecordSourceRow>;
