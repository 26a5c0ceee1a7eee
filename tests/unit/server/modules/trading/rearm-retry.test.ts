import { describe, expect, it } from 'vitest';
import { createRearmRetry } from '../../../../../server/modules/trading/rearm-retry';

/** Timers run by hand: each one's delay is recorded, and `runNext` fires the earliest. */
function manualTimers() {
  const pending: { run: () => void; ms: number; id: number }[] = [];
  let next = 0;
  return {
    timers: {
      setTimeout: (run: () => void, ms: number) => {
        const id = (next += 1);
        pending.push({ run, ms, id });
        return id;
      },
      clearTimeout: (id: unknown) => {
        const at = pending.findIndex((each) => each.id === id);
        if (at >= 0) pending.splice(at, 1);
      },
    },
    delays: () => pending.map((each) => each.ms),
    runNext: () => pending.shift()?.run(),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('arming an account changed elsewhere, while the database cannot be read', () => {
  it('tries again, backing off from 1 s, until the read succeeds, then stops', async () => {
    const clock = manualTimers();
    let failuresLeft = 3;
    const armed: string[] = [];
    const retry = createRearmRetry({
      rearm: async (uid, book) => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('connect ECONNREFUSED');
        }
        armed.push(`${uid}:${book}`);
      },
      log: () => undefined,
      timers: clock.timers,
    });
    retry.changed(7, 'real');
    await settle();
    expect(clock.delays()).toEqual([1000]);
    clock.runNext();
    await settle();
    expect(clock.delays()).toEqual([2000]);
    clock.runNext();
    await settle();
    expect(clock.delays()).toEqual([4000]);
    clock.runNext();
    await settle();
    expect(armed).toEqual(['7:real']);
    expect(clock.delays()).toEqual([]);
  });

  it('runs a newer change of the account at once instead of its waiting retry, keeps accounts apart, and stops with the server', async () => {
    const clock = manualTimers();
    let failing = true;
    const calls: string[] = [];
    const retry = createRearmRetry({
      rearm: async (uid, book) => {
        calls.push(`${uid}:${book}`);
        if (failing) throw new Error('Connection terminated unexpectedly');
      },
      log: () => undefined,
      timers: clock.timers,
    });
    retry.changed(7, 'real');
    retry.changed(7, 'demo');
    await settle();
    expect(clock.delays()).toEqual([1000, 1000]);
    failing = false;
    retry.changed(7, 'real');
    await settle();
    // The real account's retry was replaced by the newer arming, which read; the demo one still waits.
    expect(clock.delays()).toEqual([1000]);
    expect(calls).toEqual(['7:real', '7:demo', '7:real']);
    retry.stop();
    expect(clock.delays()).toEqual([]);
    retry.changed(8, 'real');
    await settle();
    expect(calls).toHaveLength(3);
  });
});
