import { type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Executor } from '../../db/after-commit';
import type { Database, LoanRepaymentTable, LoanTable } from '../../db/schema';

export type LoanRow = Selectable<LoanTable>;
export type RepaymentRow = Selectable<LoanRepaymentTable>;

/** Every `loan` and `loan_repayment` statement. */
export function createLoansRepository(db: Kysely<Database>) {
  return {
    /** The customer's latest loan (any status); undefined when there is none. */
    latest(uid: number, executor: Executor = db) {
      return executor.selectFrom('loan').selectAll().where('uid', '=', uid).orderBy('id', 'desc').limit(1).executeTakeFirst();
    },

    /** The customer's loan that is waiting or active, locked for the caller's transaction. */
    lockOpen(trx: Transaction<Database>, uid: number) {
      return trx.selectFrom('loan').selectAll().where('uid', '=', uid).where('status', 'in', [0, 1]).forUpdate().executeTakeFirst();
    },

    find(id: number) {
      return db.selectFrom('loan').selectAll().where('id', '=', id).executeTakeFirst();
    },

    lock(trx: Transaction<Database>, id: number) {
      return trx.selectFrom('loan').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    /** A customer who may stand guarantor: exists and is not blocked. */
    async customerExists(uid: number): Promise<boolean> {
      return (await db.selectFrom('app_user').select('uid').where('uid', '=', uid).where('blocked', '=', false).executeTakeFirst()) !== undefined;
    },

    async localeOf(executor: Executor, uid: number): Promise<string> {
      return (await executor.selectFrom('app_user').select('locale').where('uid', '=', uid).executeTakeFirst())?.locale ?? 'en';
    },

    async insert(trx: Transaction<Database>, loan: { uid: number; amount: string; days: number; guarantorUid: number; remark: string }): Promise<number> {
      const row = await trx
        .insertInto('loan')
        .values({ uid: loan.uid, amount: loan.amount, owed: loan.amount, days: loan.days, guarantor_uid: loan.guarantorUid, remark: loan.remark })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async approve(trx: Transaction<Database>, id: number, now: Date, days: number) {
      const due = new Date(now.getTime() + days * 86_400_000);
      await trx.updateTable('loan').set({ status: 1, approved_at: now, decided_at: now, repayment_date: due }).where('id', '=', id).where('status', '=', 0).execute();
    },

    async reject(trx: Transaction<Database>, id: number, now: Date, reason: string) {
      await trx.updateTable('loan').set({ status: 2, decided_at: now, reject_reason: reason }).where('id', '=', id).where('status', '=', 0).execute();
    },

    /** What an approved repayment leaves owed; at 0 the loan ends (100). */
    async setOwed(trx: Transaction<Database>, id: number, owed: string, ended: boolean, now: Date) {
      await trx
        .updateTable('loan')
        .set(ended ? { owed, status: 100, ended_at: now } : { owed })
        .where('id', '=', id)
        .execute();
    },

    repayments(loanId: number) {
      return db.selectFrom('loan_repayment').selectAll().where('loan_id', '=', loanId).orderBy('id', 'desc').execute();
    },

    /** The loan's latest repayment (the loan's row is locked by the caller, so none is added meanwhile). */
    latestRepayment(trx: Transaction<Database>, loanId: number) {
      return trx.selectFrom('loan_repayment').select(['id', 'status']).where('loan_id', '=', loanId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    },

    async insertRepayment(trx: Transaction<Database>, repayment: { loanId: number; uid: number; amount: string; amountOwed: string }): Promise<number> {
      const row = await trx
        .insertInto('loan_repayment')
        .values({ loan_id: repayment.loanId, uid: repayment.uid, amount: repayment.amount, amount_owed: repayment.amountOwed })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    lockWaitingRepayment(trx: Transaction<Database>, id: number) {
      return trx.selectFrom('loan_repayment').selectAll().where('id', '=', id).where('status', '=', 0).forUpdate().executeTakeFirst();
    },

    async decideRepayment(trx: Transaction<Database>, id: number, status: 1 | 2, now: Date, reason: string | null, amountOwed?: string) {
      await trx
        .updateTable('loan_repayment')
        .set({ status, decided_at: now, reject_reason: reason, ...(amountOwed === undefined ? {} : { amount_owed: amountOwed }) })
        .where('id', '=', id)
        .where('status', '=', 0)
        .execute();
    },

  };
}

export type LoansRepository = ReturnType<typeof createLoansRepository>;
