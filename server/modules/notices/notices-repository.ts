import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../db/after-commit';
import type { Database } from '../../db/schema';

/** What one notice says, whoever receives it. */
export interface NoticeContent {
  actionType: number;
  alarmType: number | null;
  title: string;
  content: string;
  remark: string | null;
  paymentPrice: string | null;
  /** A coded notice's parameters (src/shared/notices/notice-codes.ts), or null. */
  params: Record<string, string> | null;
}

/** A query answering one `uid` column: the recipients of a notice to everyone (identity's customers, its SQL). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any source tables: only the answered column matters
export type RecipientsQuery = SelectQueryBuilder<Database, any, { uid: number }>;

export function createNoticesRepository(db: Kysely<Database>) {
  const valuesOf = (notice: NoticeContent) => ({
    action_type: notice.actionType,
    alarm_type: notice.alarmType,
    title: notice.title,
    content: notice.content,
    remark: notice.remark,
    payment_price: notice.paymentPrice,
    params: notice.params === null ? null : JSON.stringify(notice.params),
  });

  return {
    async insertForUser(executor: Executor, uid: number, notice: NoticeContent): Promise<number> {
      const result = await executor.insertInto('notice').values({ uid, ...valuesOf(notice) }).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n);
    },

    /** One row per recipient, in one statement (INSERT … SELECT): no recipient is missed or doubled between a read and a write. */
    async insertForRecipients(executor: Executor, recipients: RecipientsQuery, notice: NoticeContent): Promise<number> {
      const values = valuesOf(notice);
      const result = await executor
        .insertInto('notice')
        .columns(['uid', 'action_type', 'alarm_type', 'title', 'content', 'remark', 'payment_price', 'params'])
        .expression((eb) =>
          eb
            .selectFrom(recipients.as('recipient'))
            .select((inner) => [
              'recipient.uid',
              inner.val(values.action_type).as('action_type'),
              inner.val(values.alarm_type).as('alarm_type'),
              inner.val(values.title).as('title'),
              inner.val(values.content).as('content'),
              inner.val(values.remark).as('remark'),
              inner.val(values.payment_price).as('payment_price'),
              sql<string | null>`cast(${values.params} as jsonb)`.as('params'),
            ]),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n);
    },

    /** Unread counts of the given users (a user without unread notices is absent). */
    async unreadCounts(uids: readonly number[], executor: Executor = db): Promise<Map<number, number>> {
      if (uids.length === 0) return new Map();
      const rows = await executor
        .selectFrom('notice')
        .select((eb) => ['uid', eb.fn.countAll<string | number>().as('count')])
        .where('uid', 'in', uids)
        .where('read_status', '=', 0)
        .groupBy('uid')
        .execute();
      return new Map(rows.map((row) => [row.uid, Number(row.count)]));
    },

    async countOf(uid: number): Promise<number> {
      const row = await db.selectFrom('notice').select((eb) => eb.fn.countAll<string | number>().as('count')).where('uid', '=', uid).executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** A page of the user's notices, newest first. */
    pageOf(uid: number, page: number, limit: number) {
      return db
        .selectFrom('notice')
        .selectAll()
        .where('uid', '=', uid)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
    },

    /** Marks the user's own notices among `ids` read; ids of other users' notices match nothing. */
    async markRead(uid: number, ids: readonly number[]): Promise<number> {
      const result = await db.updateTable('notice').set({ read_status: 1 }).where('uid', '=', uid).where('id', 'in', ids).where('read_status', '=', 0).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type NoticesRepository = ReturnType<typeof createNoticesRepository>;
export type NoticeRowOfTable = Awaited<ReturnType<NoticesRepository['pageOf']>>[number];
