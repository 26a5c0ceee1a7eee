import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSettlementScheduler } from '../../server/modules/options/settlement-scheduler';

// A whole second, so that the buckets are easy to read.
const start = Date.parse('2026-01-13T12:00:00Z');
const graceMs = 250;

function deferred() {
  let resolve!: (value: number) => void;
  const promise = new Promise<number>((done) => (resolve = done));
  return { promise, resolve };
}

describe('option settlement scheduler (timers per second, one run at a time)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: start });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('arms one timer for every option ending in a second and runs once, the grace after the second closes', async () => {
    const settle = vi.fn(async () => 2);
    const scheduler = createSettlementScheduler({ settle, graceMs, sweepMs: 3_600_000, nowMs: Date.now });
    scheduler.schedule(start + 30_100);
    scheduler.schedule(start + 30_900);
    expect(scheduler.bucketCount()).toBe(1);
    // An end on the second itself belongs to the second it closes.
    scheduler.schedule(start + 31_000);
    expect(scheduler.bucketCount()).toBe(1);
    scheduler.schedule(start + 31_001);
    expect(scheduler.bucketCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(31_000 + graceMs - 1);
    expect(settle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(settle).toHaveBeenCalledTimes(1);
    expect(scheduler.bucketCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(settle).toHaveBeenCalledTimes(2);
    expect(scheduler.bucketCount()).toBe(0);
    await scheduler.stop();
  });

  it('never overlaps runs: runs asked for during one become a single follow-up run', async () => {
    const runs = [deferred(), deferred()];
    let calls = 0;
    const settle = vi.fn(() => runs[calls++]!.promise);
    const scheduler = createSettlementScheduler({ settle, graceMs, sweepMs: 3_600_000, nowMs: Date.now });
    const first = scheduler.run();
    const second = scheduler.run();
    const third = scheduler.run();
    expect(settle).toHaveBeenCalledTimes(1);
    runs[0]!.resolve(5);
    expect(await first).toBe(5);
    await vi.advanceTimersByTimeAsync(0);
    expect(settle).toHaveBeenCalledTimes(2);
    runs[1]!.resolve(3);
    expect(await second).toBe(3);
    expect(await third).toBe(3);
    expect(settle).toHaveBeenCalledTimes(2);
    await scheduler.stop();
  });

  it('re-arms a second whose timer fired before the clock reached it, logs a failed run and keeps going', async () => {
    let lag = 0;
    const log = vi.fn();
    const settle = vi.fn(async () => {
      if (settle.mock.calls.length === 2) throw new Error('database away');
      return 0;
    });
    // The settlement clock runs behind the timers: the timer fires "early".
    const scheduler = createSettlementScheduler({ settle, graceMs, sweepMs: 3_600_000, nowMs: () => Date.now() - lag, log });
    scheduler.schedule(start + 10_500);
    lag = 5;
    await vi.advanceTimersByTimeAsync(11_000 + graceMs);
    expect(settle).toHaveBeenCalledTimes(1);
    expect(scheduler.bucketCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(4);
    expect(settle).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(settle).toHaveBeenCalledTimes(2);
    expect(log).toHaveBeenCalledWith('option settlement failed', expect.any(Error));
    expect(scheduler.bucketCount()).toBe(0);
    await scheduler.stop();
  });

  it('sweeps on its interval, and after stop waits for the run under way and runs no more', async () => {
    const run = deferred();
    const settle = vi.fn(() => run.promise);
    const scheduler = createSettlementScheduler({ settle, graceMs, sweepMs: 5_000, nowMs: Date.now });
    scheduler.schedule(start + 60_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(settle).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    run.resolve(0);
    await stopping;
    expect(scheduler.bucketCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(settle).toHaveBeenCalledTimes(1);
    expect(await scheduler.run()).toBe(0);
    expect(settle).toHaveBeenCalledTimes(1);
  });
});
