import { sql, type Kysely } from 'kysely';
import type { DataCipher } from '../auth/data-key';
import { afterCommit, type Executor } from '../db/after-commit';
import type { Database } from '../db/schema';
import type { MessageDelivery, OutgoingMessage } from './delivery';
import { retryDelayMs } from './retry-backoff';

export interface OutboxPolicy {
  /** The wait after a first failed try; each further failure doubles it, up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A claimed message is another process's to try again once this has passed (its sender died mid-try). */
  claimMs: number;
  /** How often due messages are looked for without a wake (retries, other processes' leftovers). */
  sweepMs: number;
  /** Messages claimed at once. */
  batch: number;
  /** Sent messages' rows (status and times, no text) are deleted this long after they went. */
  keepSentMs: number;
}

/**
 * Work that ends in a message, written in the transaction of the change that asks for it
 * and done by the sender like a delivery (at least once, retried on failure): a code
 * request is recorded and its task written in one transaction, and the code is made and
 * its message written by the task, so no answered request loses its code. The payload is
 * sealed like a message.
 */
export interface OutboxTask {
  task: string;
  channel: 'email' | 'sms';
  payload: Record<string, unknown>;
}

export interface Outbox {
  /**
   * Writes `message` (or a task that will write one) in the executor's transaction, sealed
   * with the data key; the sender is woken once that transaction commits. Nothing is sent
   * if it rolls back.
   */
  enqueue(executor: Executor, message: OutgoingMessage | OutboxTask): Promise<void>;
  /** Who does the tasks named `task` (before the sender starts). A task without one fails and is retried. */
  handle(task: string, handler: (payload: Record<string, unknown>) => Promise<void>): void;
  /** Runs a sending pass now (or again once the running one ends). */
  wake(): void;
  /** Resolves once no pass is running or asked for (retries scheduled for later are not waited for). */
  settled(): Promise<void>;
  /** Deletes the rows of messages sent longer ago than the policy keeps them (the sweep does, hourly). */
  prune(): Promise<void>;
  /** Starts the slow sweep; `stop` ends it and waits for the running pass. */
  start(): void;
  stop(): Promise<void>;
}

/** What the sender logs of a failure: the row, never the recipient or the text. */
export interface OutboxFailure {
  id: string;
  channel: 'email' | 'sms';
  attempts: number;
  nextAttemptAt: Date;
  error: string;
}

/**
 * The transactional outbox for mail and SMS. A request writes its message as a row in its
 * own transaction, so it is never lost and never fails the request; a sender in every
 * process claims due rows with `FOR UPDATE SKIP LOCKED` (two processes never claim one),
 * tries the delivery outside any transaction, and records it sent or failed with the next
 * try after an exponential backoff.
 */
export function createOutbox(deps: {
  db: Kysely<Database>;
  cipher: DataCipher;
  delivery: MessageDelivery;
  policy: OutboxPolicy;
  nowMs?: (() => number) | undefined;
  log: {
    /** A try failed; the message waits for its next one. */
    deliveryFailed(failure: OutboxFailure): void;
    /** A pass itself failed (the database); the next wake or sweep tries again. */
    passFailed(error: unknown): void;
  };
}): Outbox {
  const { db, cipher, delivery, policy } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let sweepTimer: NodeJS.Timeout | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let sweepsSincePrune = 0;
  const handlers = new Map<string, (payload: Record<string, unknown>) => Promise<void>>();

  async function claimDue(): Promise<{ id: string | number; channel: 'email' | 'sms'; sealed: string | null; attempts: number }[]> {
    const now = new Date(nowMs());
    const claimedUntil = new Date(now.getTime() + policy.claimMs);
    const claimed = await sql<{ id: string | number; channel: 'email' | 'sms'; sealed: string | null; attempts: number }>`
      update outbox_message set status = 'sending', attempts = attempts + 1, claimed_until = ${claimedUntil}
      where id in (
        select id from outbox_message
        where (status in ('pending', 'failed') and next_attempt_at <= ${now}) or (status = 'sending' and claimed_until <= ${now})
        order by next_attempt_at, id
        limit ${policy.batch}
        for update skip locked)
      returning id, channel, sealed, attempts`.execute(db);
    return claimed.rows;
  }

  async function deliverOne(row: { id: string | number; channel: 'email' | 'sms'; sealed: string | null; attempts: number }) {
    const opened = row.sealed === null ? null : cipher.decrypt(row.sealed);
    try {
      if (opened === null) throw new Error('the message cannot be opened with the data key');
      const entry = JSON.parse(opened) as OutgoingMessage | OutboxTask;
      if ('task' in entry) {
        const handler = handlers.get(entry.task);
        if (!handler) throw new Error(`no handler for the outbox task ${entry.task}`);
        await handler(entry.payload);
      } else {
        await delivery.send(entry, `outbox-${row.id}`);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const nextAttemptAt = new Date(nowMs() + retryDelayMs(row.attempts, { baseMs: policy.retryBaseMs, maxMs: policy.retryMaxMs }));
      await db
        .updateTable('outbox_message')
        .set({ status: 'failed', last_error: message.slice(0, 500), next_attempt_at: nextAttemptAt, claimed_until: null })
        .where('id', '=', row.id)
        .where('status', '=', 'sending')
        .execute();
      deps.log.deliveryFailed({ id: String(row.id), channel: row.channel, attempts: row.attempts, nextAttemptAt, error: message });
      return;
    }
    // Sent: the sealed text (a code, perhaps) is no longer kept.
    await db
      .updateTable('outbox_message')
      .set({ status: 'sent', sent_at: new Date(nowMs()), sealed: null, last_error: null, claimed_until: null })
      .where('id', '=', row.id)
      .execute();
  }

  async function pass() {
    for (;;) {
      const rows = await claimDue();
      if (rows.length === 0) break;
      await Promise.all(rows.map(deliverOne));
    }
    scheduleRetry(await nextDue());
  }

  async function nextDue(): Promise<number | null> {
    const row = await db
      .selectFrom('outbox_message')
      .select((eb) => eb.fn.min('next_attempt_at').as('due'))
      .where('status', 'in', ['pending', 'failed'])
      .executeTakeFirst();
    return row?.due ? new Date(row.due).getTime() : null;
  }

  /** A timer for the earliest retry, when it comes before the next sweep. */
  function scheduleRetry(dueMs: number | null) {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    if (dueMs === null || stopped) return;
    const waitMs = Math.max(0, dueMs - nowMs());
    if (waitMs >= policy.sweepMs && sweepTimer) return;
    retryTimer = setTimeout(wake, Math.min(waitMs, policy.sweepMs));
    retryTimer.unref();
  }

  async function prune() {
    await db
      .deleteFrom('outbox_message')
      .where('status', '=', 'sent')
      .where('sent_at', '<', new Date(nowMs() - policy.keepSentMs))
      .execute();
  }

  function wake() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => deps.log.passFailed(error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  return {
    async enqueue(executor, message) {
      const now = new Date(nowMs());
      await executor
        .insertInto('outbox_message')
        .values({ channel: message.channel, sealed: cipher.encrypt(JSON.stringify(message)), key_id: cipher.keyId, next_attempt_at: now, created_at: now })
        .execute();
      afterCommit(executor, wake);
    },
    handle: (task, handler) => void handlers.set(task, handler),
    wake,
    prune,
    async settled() {
      while (running) await running;
    },
    start() {
      stopped = false;
      const prunePerSweeps = Math.max(1, Math.round(3_600_000 / policy.sweepMs));
      sweepTimer = setInterval(() => {
        wake();
        if ((sweepsSincePrune += 1) < prunePerSweeps) return;
        sweepsSincePrune = 0;
        prune().catch((error: unknown) => deps.log.passFailed(error));
      }, policy.sweepMs);
      sweepTimer.unref();
      wake();
    },
    async stop() {
      stopped = true;
      if (sweepTimer) clearInterval(sweepTimer);
      if (retryTimer) clearTimeout(retryTimer);
      sweepTimer = retryTimer = null;
      while (running) await running;
    },
  };
}
