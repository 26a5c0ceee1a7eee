import type { FundRecord } from '../../../src/shared/api/deposit';
import { fundRecords } from '../../../src/shared/api/deposit';
import { formatMoney, money } from '../../../src/shared/money/money';
import type { DatabaseHandle } from '../../db/database';
import { sessionOnBook, type SignedInRoutes } from '../../http/signed-in';
import type { FundRecordSource, FundRecordSourceRow } from './record-source';

export type { FundRecordSource, FundRecordSourceRow } from './record-source';

export interface FundRecordsQuery {
  pageNum: number;
  pageSize: number;
  type?: 0 | 1 | undefined;
  status?: 0 | 1 | 2 | undefined;
}

const amountText = (value: string | number) => formatMoney(money(String(value)));
const nullableAmountText = (value: string | number | null) => (value === null ? null : amountText(value));
const toMs = (value: Date | string) => (value instanceof Date ? value : new Date(value)).getTime();

/**
 * The customer's deposit and withdrawal records (`fund/records`): each kind's rows come from
 * the module that owns them (its `recordSource`), joined here by one UNION ALL so the type and
 * status filters, the newest-first order and the paging are the database's, exact across both.
 */
export function createFundRecords(deps: {
  database: DatabaseHandle;
  /** Indexed by actionType: 0 the deposits' read, 1 the withdrawals'. */
  sources: readonly [deposits: FundRecordSource, withdrawals: FundRecordSource];
  /** A withdrawal row's destination, opened and masked by the withdrawals module. */
  destinationOf: (row: FundRecordSourceRow) => string | null;
}) {
  const db = deps.database.db;

  function recordOf(row: FundRecordSourceRow): FundRecord {
    const actionType = Number(row.action_type) === 1 ? 1 : 0;
    return {
      id: `${actionType === 1 ? 'withdraw' : 'deposit'}:${row.id}`,
      actionType,
      currency: row.currency,
      network: row.network,
      payPrice: amountText(row.amount),
      depositUsdPrice: actionType === 0 ? amountText(row.amount_usd) : null,
      withdrawUsdPrice: actionType === 1 ? amountText(row.amount_usd) : null,
      submitTimeTs: toMs(row.created_at),
      decidedTimeTs: row.decided_at === null ? null : toMs(row.decided_at),
      payState: Number(row.pay_state) as FundRecord['payState'],
      failReason: row.failure_reason,
      canceled: row.canceled === true,
      fee: nullableAmountText(row.fee),
      practical: nullableAmountText(row.practical),
      destination: actionType === 1 ? deps.destinationOf(row) : null,
    };
  }

  return {
    async records(uid: number, query: FundRecordsQuery): Promise<{ list: FundRecord[]; pages: number }> {
      const [deposits, withdrawals] = deps.sources;
      const chosen = query.type === 0 ? deposits(uid) : query.type === 1 ? withdrawals(uid) : deposits(uid).unionAll(withdrawals(uid));
      let rows = db.selectFrom(chosen.as('record'));
      if (query.status !== undefined) rows = rows.where('record.pay_state', '=', query.status);
      const [page, total] = await Promise.all([
        rows
          .selectAll()
          // Newest first; the kind and id break ties so no row repeats or goes missing between pages.
          .orderBy('record.created_at', 'desc')
          .orderBy('record.action_type', 'desc')
          .orderBy('record.id', 'desc')
          .offset((query.pageNum - 1) * query.pageSize)
          .limit(query.pageSize)
          .execute(),
        rows.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { list: page.map(recordOf), pages: Math.ceil(Number(total.count) / query.pageSize) };
    },
  };
}
export type FundRecords = ReturnType<typeof createFundRecords>;

/** `fund/records` (real book only). */
export async function registerFundRecords(deps: Parameters<typeof createFundRecords>[0] & { signedIn: SignedInRoutes }): Promise<FundRecords> {
  const fundRecordsService = createFundRecords(deps);
  await deps.signedIn((scope) => {
    scope.route(fundRecords, async (body, request) => fundRecordsService.records(sessionOnBook(request.session, 'real'), body));
  });
  return fundRecordsService;
}
