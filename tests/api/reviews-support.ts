import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { ReviewKind, ReviewStatus } from '../../src/shared/staff/roles';
import { money } from '../../src/shared/money/money';
import type { Ledger } from '../../server/modules/ledger/ledger';
import type { ReviewKindHandler, SubmittedReview } from '../../server/modules/reviews';
import type { TestServer } from './harness';
import { call, loginByEmail, registerByEmail } from './identity-support';

let customers = 0;

/** A signed-up customer (a real app_user row: review items belong to one). */
export async function newCustomer(server: TestServer, prefix = 'reviewed') {
  const email = `${prefix}${Date.now().toString(36)}${(customers += 1)}@example.com`;
  await registerByEmail(server, email);
  const session = await loginByEmail(server, email);
  const info = (await call(server, '/v1/waa/user/info', {}, session.token)).data as { uid: number };
  return { ...session, uid: info.uid };
}

/** Every time a kind's effect ran, in order: what the decided item was and how it ended. */
export interface EffectRun {
  kind: ReviewKind;
  id: number;
  outcome: 'approved' | 'rejected';
  reason: string | null;
  decidedBy: number;
}

/**
 * Registers effects the way the money and account modules do, for kinds no module of the
 * test server owns ('deposit' is the deposits module's: tests/api/deposits.test.ts): a
 * 'repayment' approval moves money — the customer's real cash through the ledger's
 * creditDeposit verb, in the decision's transaction, keyed by the review id (a second run
 * could never credit twice); the other kinds record their runs. A 'withdrawal' whose facts
 * say `failPayout`, and a 'repayment' whose facts say `failAfterCredit` (after crediting),
 * throw inside their effect, so a test can see the decision and the money roll back together.
 */
export function registerTestKinds(server: TestServer, ledger: Ledger, kinds: readonly ReviewKind[]): EffectRun[] {
  const runs: EffectRun[] = [];
  for (const kind of kinds) {
    const handler: ReviewKindHandler = {
      async effect(trx, item: SubmittedReview, outcome, context) {
        if (kind === 'repayment' && outcome === 'approved') {
          const amount = item.facts.amount;
          if (!amount) throw new Error(`repayment review ${item.id} has no amount`);
          await ledger.creditDeposit({ uid: item.uid, amount: money(amount), idempotencyKey: `review-repayment:${item.id}` }, trx);
          // Something after the credit fails (the notice, say): the credit must go with the rest.
          if (item.facts.failAfterCredit === 'yes') throw new Error('notice store down');
        }
        if (kind === 'withdrawal' && item.facts.failPayout === 'yes') throw new Error('payout channel down');
        runs.push({ kind, id: item.id, outcome, reason: context.reason, decidedBy: context.actor.staffId });
      },
    };
    // In place of the owning module's effect where one is wired (a withdrawal's needs a real withdrawal).
    server.app.reviews.replaceKindEffect(kind, handler);
  }
  return runs;
}

/** Submits an item the way an owning module does: inside its own transaction. */
export async function submitReview(
  server: TestServer,
  item: { kind: ReviewKind; uid: number; subjectRef?: string; facts?: Record<string, string>; amountUsd?: string | null; files?: { fileId: string; name: string }[] },
): Promise<number> {
  return server.database.db.transaction().execute((trx) =>
    server.app.reviews.submit(trx, {
      kind: item.kind,
      uid: item.uid,
      subjectRef: item.subjectRef ?? crypto.randomUUID(),
      facts: item.facts ?? {},
      amountUsd: item.amountUsd ?? null,
      ...(item.files ? { files: item.files } : {}),
    }),
  );
}

export const newRequestId = () => crypto.randomUUID();

export async function decide(
  server: TestServer,
  token: string,
  body: { kind: ReviewKind; id: number; decision: 'approve' | 'reject'; reason?: string; requestId?: string },
) {
  return call(server, '/v1/staff/reviews/decide', { requestId: newRequestId(), ...body }, token);
}

/** Decides and expects the status it reached. */
export async function decided(server: TestServer, token: string, body: Parameters<typeof decide>[2], status: ReviewStatus) {
  const answer = await decide(server, token, body);
  expect(answer.code, answer.msg).toBe(0);
  expect(answer.data).toEqual({ status });
}

export async function itemStatus(server: TestServer, id: number): Promise<ReviewStatus> {
  const row = await server.database.db.selectFrom('review_item').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return row.status;
}

export async function decisionRows(server: TestServer, id: number) {
  return server.database.db.selectFrom('review_decision').selectAll().where('review_id', '=', id).orderBy('id').execute();
}

/** The audit trail's rows about one review item. */
export async function auditRowsOf(server: TestServer, id: number) {
  return server.database.db
    .selectFrom('staff_audit')
    .select(['staff_id', 'action', 'target_type', 'target_id', 'uid', 'before', 'after'])
    .where('target_type', '=', 'review')
    .where('target_id', '=', String(id))
    .orderBy('id')
    .execute();
}
