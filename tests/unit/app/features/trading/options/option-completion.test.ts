import { describe, expect, it } from 'vitest';
import {
  completionTriesFromForm,
  completionTriesFromList,
  watchOptionCompletion,
  type CompletionTimers,
} from '../../../../../../src/app/features/trading/options/option-completion';
import type { OptionOrder } from '../../../../../../src/shared/api/options';

/** Timers on a virtual clock: `advance` runs what falls due, letting each run's promises settle. */
function virtualTimers() {
  let nowMs = 0;
  let nextId = 1;
  const pending = new Map<number, { atMs: number; run: () => void }>();
  const timers: CompletionTimers = {
    setTimeout(run, ms) {
      const id = nextId++;
      pending.set(id, { atMs: nowMs + ms, run });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    timers,
    now: () => nowMs,
    pendingCount: () => pending.size,
    async advance(ms: number) {
      const until = nowMs + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, timer]) => timer.atMs <= until).sort((a, b) => a[1].atMs - b[1].atMs)[0];
        if (!due) break;
        pending.delete(due[0]);
        nowMs = due[1].atMs;
        due[1].run();
        await settle();
      }
      nowMs = until;
      await settle();
    },
  };
}

const settledOrder: OptionOrder = {
  id: 7,
  uid: '17000000000001234',
  orderType: 0,
  tradePair: 'BTCUSDT',
  productName: 'Bitcoin',
  optionsProductId: 1,
  price: '67000.12',
  priceTime: 1_000,
  priceEnd: '67010.5',
  priceEndTime: 31_000,
  feeAmount: '0.5',
  timeLong: 30,
  beginTime: 1_000,
  endTime: 31_000,
  completeTime: 31_300,
  amount: '50',
  rate: '0.8',
  winLost: '40',
  status: 1,
  positionStatus: 1,
  result: 'win',
  voidReason: null,
};

function watch(clock: ReturnType<typeof virtualTimers>, options: { maxTries: number; completedOnTry?: number; fail?: (tryNumber: number) => 'completed' | 'fetch' | null; orderStatus?: (fetchNumber: number) => 0 | 1 }) {
  const checksAtMs: number[] = [];
  const fetchesAtMs: number[] = [];
  const results: OptionOrder[] = [];
  let connectionFailed = 0;
  const handle = watchOptionCompletion({
    uid: settledOrder.uid,
    maxTries: options.maxTries,
    timers: clock.timers,
    isCompleted: (uid) => {
      expect(uid).toBe(settledOrder.uid);
      checksAtMs.push(clock.now());
      if (options.fail?.(checksAtMs.length) === 'completed') return Promise.reject(new Error('network'));
      return Promise.resolve(options.completedOnTry !== undefined && checksAtMs.length >= options.completedOnTry);
    },
    fetchOrder: () => {
      fetchesAtMs.push(clock.now());
      if (options.fail?.(checksAtMs.length) === 'fetch') return Promise.reject(new Error('network'));
      return Promise.resolve({ ...settledOrder, status: options.orderStatus?.(fetchesAtMs.length) ?? 1 });
    },
    onResult: (order) => results.push(order),
    onGiveUp: () => (connectionFailed += 1),
  });
  return { handle, checksAtMs, fetchesAtMs, results, connectionFailed: () => connectionFailed };
}

describe('option completion check', () => {
  it('from the form: first after 1 s, then every 1.5 s, 12 tries, then gives up once', async () => {
    const clock = virtualTimers();
    const run = watch(clock, { maxTries: completionTriesFromForm });
    await clock.advance(999);
    expect(run.checksAtMs).toEqual([]);
    await clock.advance(60_000);
    expect(completionTriesFromForm).toBe(12);
    expect(run.checksAtMs).toEqual([1000, 2500, 4000, 5500, 7000, 8500, 10000, 11500, 13000, 14500, 16000, 17500]);
    expect(run.connectionFailed()).toBe(1);
    expect(run.results).toEqual([]);
    expect(clock.pendingCount()).toBe(0);
  });

  it('from the position list: 40 tries, the last at 1 s + 39 × 1.5 s', async () => {
    const clock = virtualTimers();
    const run = watch(clock, { maxTries: completionTriesFromList });
    await clock.advance(120_000);
    expect(run.checksAtMs).toHaveLength(40);
    expect(run.checksAtMs.at(-1)).toBe(1000 + 39 * 1500);
    expect(run.connectionFailed()).toBe(1);
  });

  it('fetches the order once completed and reports it once, with no further checks', async () => {
    const clock = virtualTimers();
    const run = watch(clock, { maxTries: 12, completedOnTry: 3 });
    await clock.advance(60_000);
    expect(run.checksAtMs).toEqual([1000, 2500, 4000]);
    expect(run.fetchesAtMs).toEqual([4000]);
    expect(run.results).toEqual([expect.objectContaining({ uid: settledOrder.uid, result: 'win', winLost: '40' })]);
    expect(run.connectionFailed()).toBe(0);
    expect(clock.pendingCount()).toBe(0);
  });

  it('counts failed checks and failed order reads as tries and keeps polling', async () => {
    const clock = virtualTimers();
    // Tries 1 and 2 fail to answer; try 3 says completed but the order read fails; try 4 succeeds.
    const run = watch(clock, { maxTries: 12, completedOnTry: 3, fail: (tryNumber) => (tryNumber <= 2 ? 'completed' : tryNumber === 3 ? 'fetch' : null) });
    await clock.advance(60_000);
    expect(run.checksAtMs).toEqual([1000, 2500, 4000, 5500]);
    expect(run.fetchesAtMs).toEqual([4000, 5500]);
    expect(run.results).toHaveLength(1);
    expect(run.connectionFailed()).toBe(0);
  });

  it('gives up when every try fails, without a result', async () => {
    const clock = virtualTimers();
    const run = watch(clock, { maxTries: 3, fail: () => 'completed' });
    await clock.advance(60_000);
    expect(run.checksAtMs).toEqual([1000, 2500, 4000]);
    expect(run.connectionFailed()).toBe(1);
    expect(run.results).toEqual([]);
  });

  it('asks again when the order read still shows it running (a read that raced the settlement)', async () => {
    const clock = virtualTimers();
    const run = watch(clock, { maxTries: 12, completedOnTry: 1, orderStatus: (fetchNumber) => (fetchNumber === 1 ? 0 : 1) });
    await clock.advance(60_000);
    expect(run.fetchesAtMs).toEqual([1000, 2500]);
    expect(run.results).toEqual([expect.objectContaining({ status: 1 })]);
  });

  it('stops for good when cancelled (drawer closed, or the pushed result came first)', async () => {
    const clock = virtualTimers();
    const run = watch(clock, { maxTries: 12 });
    await clock.advance(2_600);
    expect(run.checksAtMs).toEqual([1000, 2500]);
    run.handle.cancel();
    await clock.advance(60_000);
    expect(run.checksAtMs).toEqual([1000, 2500]);
    expect(run.connectionFailed()).toBe(0);
    expect(clock.pendingCount()).toBe(0);
  });

  it('drops a result that arrives after it was cancelled', async () => {
    const clock = virtualTimers();
    let answer: (completed: boolean) => void = () => undefined;
    const results: OptionOrder[] = [];
    let connectionFailed = 0;
    const handle = watchOptionCompletion({
      uid: settledOrder.uid,
      maxTries: 12,
      timers: clock.timers,
      isCompleted: () => new Promise((resolve) => (answer = resolve)),
      fetchOrder: () => Promise.resolve(settledOrder),
      onResult: (order) => results.push(order),
      onGiveUp: () => (connectionFailed += 1),
    });
    await clock.advance(1_000);
    handle.cancel();
    answer(true);
    await clock.advance(60_000);
    expect(results).toEqual([]);
    expect(connectionFailed).toBe(0);
    expect(clock.pendingCount()).toBe(0);
  });
});
