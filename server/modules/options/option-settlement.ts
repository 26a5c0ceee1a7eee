import type { Kysely } from 'kysely';
import { OptionStatus } from '../../../src/shared/api/options';
import { isPriceFresh } from '../../../src/shared/market/price-freshness';
import { formatMoney, money } from '../../../src/shared/money/money';
import { settleOption, type OptionDirection } from '../../../src/shared/options/option-rules';
import type { Database } from '../../db/schema';
import { LeaseLostError } from '../../cluster/leadership';
import type { JournalInput, Ledger } from '../ledger/ledger';
import { optionSettledJournal, optionVoidedJournal } from '../ledger/ledger-journals';
import type { OptionOrderRow, OptionsRepository, SettledValues, SettlementTick } from './options-repository';
import type { OptionSettings } from './options-service';
import { createSettlementScheduler } from './settlement-scheduler';
import type { TickRecorder } from './tick-recorder';

/** PostgreSQL's deadlock and serialization failures: the transaction may simply be run again. */
const retryableCodes = new Set(['40P01', '40001']);
const settlementAttempts = 3;
const hourMs = 3_600_000;

interface Computed {
  row: OptionOrderRow;
  values: SettledValues;
  journal: JournalInput;
}

/** An option's row as settled with `values` at `settledMs` (what the feed is told). */
export function asSettled(row: OptionOrderRow, values: Omit<SettledValues, 'id'>, settledMs: number): OptionOrderRow {
  return {
    ...row,
    status: OptionStatus.settled,
    end_price: values.endPrice,
    end_tick_ms: values.endTickMs,
    outcome: values.outcome,
    void_reason: values.voidReason,
    win_lost: values.winLost,
    settled_ms: settledMs,
  };
}

/** What an option's settlement records and posts: on its end tick, or void (refund of amount and fee). */
function compute(row: OptionOrderRow, tick: { ms: number; price: string } | null, voidReason: string | null): Computed {
  const amount = money(String(row.amount));
  const option = { uid: row.uid, book: row.book, orderNo: row.order_no, amount };
  if (voidReason !== null || tick === null) {
    return {
      row,
      values: { id: row.id, endPrice: null, endTickMs: null, outcome: 'void', voidReason: voidReason ?? 'no-price', winLost: '0' },
      journal: optionVoidedJournal({ ...option, refundedFee: money(String(row.fee)) }),
    };
  }
  const result = settleOption(row.direction as OptionDirection, amount, String(row.profit_rate), money(String(row.start_price)), money(tick.price));
  return {
    row,
    values: { id: row.id, endPrice: tick.price, endTickMs: tick.ms, outcome: result.outcome, voidReason: null, winLost: formatMoney(result.winLost, 0) },
    journal: optionSettledJournal({ ...option, outcome: result.outcome, payout: result.payout }),
  };
}

/**
 * Settlement exactly once on the recorded tick at each option's end time: timers per
 * second and a sweep (the scheduler), batches settled in one transaction each, ticks
 * no longer needed pruned hourly.
 */
export function createOptionSettlement(deps: {
  db: Kysely<Database>;
  ledger: Ledger;
  repository: OptionsRepository;
  recorder: TickRecorder;
  settings: OptionSettings;
  nowMs: () => number;
  log?: (message: string, error?: unknown) => void;
  /** Options settled: tell their owners. */
  told: (rows: readonly OptionOrderRow[]) => void;
  /** Whether this process settles now (the jobs leader); the others' runs do nothing. */
  active?: () => boolean;
  /**
   * Fences each batch's transaction under the jobs lease, before anything is locked or
   * written: a process whose lease was taken over has the batch refused (LeaseLostError).
   */
  fence?: (trx: Kysely<Database>) => Promise<void>;
}) {
  const { db, ledger, repository, settings, nowMs } = deps;
  let lastPruneMs = 0;

  /** The settlement of a due option: its recorded end tick, unless none lies within the stale threshold before its end. */
  function computeDue(option: OptionOrderRow, tick: SettlementTick | null): Computed {
    const endMs = Number(option.end_ms);
    if (tick === null || !isPriceFresh(tick.ms, endMs, settings.stalePriceMs)) return compute(option, null, 'no-price');
    return compute(option, { ms: tick.ms, price: formatMoney(money(tick.price), 0) }, null);
  }

  const isRetryable = (error: unknown) => retryableCodes.has((error as { code?: string }).code ?? '');

  /**
   * Settles one batch in one transaction: the options still running are locked (id order),
   * then the ledger accounts they touch (the ledger's lock order), flipped running →
   * settled in one conditional update, and only the ones this transaction flipped post
   * their journal (all of them in a few statements). Answers the rows it settled, as settled.
   */
  async function settleBatch(batch: readonly Computed[]): Promise<OptionOrderRow[]> {
    if (batch.length === 0) return [];
    const ids = batch.map((each) => each.row.id).sort((a, b) => a - b);
    const posting = await ledger.prepareBatch(batch.map((each) => each.journal));
    const settledMs = nowMs();
    for (let attempt = 1; ; attempt += 1) {
      try {
        const done = await db.transaction().execute(async (trx) => {
          await deps.fence?.(trx);
          const running = await repository.lockRunning(trx, ids);
          const mine = batch.filter((each) => running.has(each.row.id));
          if (mine.length === 0) return [];
          await posting.lockIn(trx);
          const flipped = await repository.markSettled(trx, mine.map((each) => each.values), settledMs);
          const settled = mine.filter((each) => flipped.has(each.row.id));
          await posting.postIn(trx, settled.map((each) => each.journal));
          return settled;
        });
        return done.map(({ row, values }) => asSettled(row, values, settledMs));
      } catch (error) {
        if (attempt < settlementAttempts && isRetryable(error)) continue;
        throw error;
      }
    }
  }

  /** Settles every option due now (end time plus the grace passed), batch by batch. */
  async function settleDue(): Promise<number> {
    await deps.recorder.flush();
    const cutoff = nowMs() - settings.settlementGraceMs;
    let after: { endMs: number; id: number } | null = null;
    let count = 0;
    for (;;) {
      const due = await repository.dueOptions(cutoff, settings.settlementBatch, after);
      const last = due.at(-1);
      if (!last) break;
      after = { endMs: Number(last.end_ms), id: last.id };
      // One lookup per distinct (symbol, end time): options ending together share their tick.
      const instants = new Map(due.map((option) => [`${option.symbol}|${Number(option.end_ms)}`, { symbol: option.symbol, ms: Number(option.end_ms) }]));
      const ticks = await repository.settlementTicks([...instants.values()]);
      const batch = due.map((option) => computeDue(option, ticks.get(`${option.symbol}|${Number(option.end_ms)}`) ?? null));
      let settled: OptionOrderRow[];
      try {
        settled = await settleBatch(batch);
      } catch (error) {
        // Not this process's to settle any more: the new jobs leader settles them all.
        if (error instanceof LeaseLostError) {
          deps.log?.('option settlement stopped: the jobs lease was taken over', error);
          break;
        }
        // One bad option must not hold back the others: the batch is retried one by one.
        deps.log?.('option settlement batch failed; settling one by one', error);
        settled = [];
        for (const each of batch) {
          try {
            settled.push(...(await settleBatch([each])));
          } catch (single) {
            if (single instanceof LeaseLostError) break;
            deps.log?.(`option ${each.row.order_no} could not be settled`, single);
          }
        }
      }
      deps.told(settled);
      count += settled.length;
      if (due.length < settings.settlementBatch) break;
    }
    await pruneTicks();
    return count;
  }

  /** At most hourly: ticks older than the retention and than any running option's need. */
  async function pruneTicks() {
    const now = nowMs();
    if (now - lastPruneMs < hourMs) return;
    lastPruneMs = now;
    const earliest = await repository.earliestRunningEnd();
    let cutoff = now - settings.tickRetentionHours * hourMs;
    if (earliest !== null) cutoff = Math.min(cutoff, earliest - settings.stalePriceMs);
    await repository.pruneTicks(cutoff);
  }

  const active = deps.active ?? (() => true);
  const scheduler = createSettlementScheduler({
    settle: () => (active() ? settleDue() : Promise.resolve(0)),
    graceMs: settings.settlementGraceMs,
    sweepMs: settings.settlementSweepMs,
    nowMs,
    ...(deps.log ? { log: deps.log } : {}),
  });

  return {
    /** Settles what is due now; answers how many. */
    run: () => scheduler.run(),
    /** An option ends at `endMs`: settle it then. */
    schedule: (endMs: number) => scheduler.schedule(endMs),
    stop: () => scheduler.stop(),
  };
}
