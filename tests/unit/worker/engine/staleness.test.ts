import { describe, expect, it } from 'vitest';
import { createStalenessMonitor } from '../../../../src/worker/engine/staleness';

describe('staleness', () => {
  it('flags data stale after 10 s without any, and fresh again on the next message', () => {
    let now = 0;
    const changes: boolean[] = [];
    const monitor = createStalenessMonitor({ clock: { nowMs: () => now }, onChange: (stale) => changes.push(stale) });
    monitor.check();
    expect(changes).toEqual([]); // nothing arrived yet: loading, not stale
    monitor.noteData();
    for (now = 1000; now < 10_000; now += 1000) monitor.check();
    expect(monitor.stale).toBe(false);
    now = 10_000;
    monitor.check();
    expect(changes).toEqual([true]);
    now = 11_000;
    monitor.check();
    monitor.noteData();
    expect(changes).toEqual([true, false]);
  });

  it('does not call a closed market stale: one symbol that sent its last price and then nothing stays fresh; a moving one that stops is stale until data', () => {
    let now = 0;
    const changes: boolean[] = [];
    const monitor = createStalenessMonitor({ clock: { nowMs: () => now }, onChange: (stale) => changes.push(stale) });
    // A US stock's chart at night: its snapshot, then silence.
    monitor.noteData(['AAPL']);
    for (now = 1000; now <= 60_000; now += 1000) monitor.check();
    expect(changes).toEqual([]);
    // Bitcoin moves (a second price), then the feed dies: stale after 10 s, and it stays stale.
    monitor.noteData(['BTCUSDT']);
    now += 500;
    monitor.noteData(['BTCUSDT']);
    const died = now;
    for (; now < died + 10_000; now += 1000) monitor.check();
    expect(monitor.stale).toBe(false);
    now = died + 10_000;
    monitor.check();
    for (now = died + 11_000; now <= died + 600_000; now += 60_000) monitor.check();
    expect(changes).toEqual([true]);
    monitor.noteData(['BTCUSDT']);
    expect(changes).toEqual([true, false]);
  });

  it('starts over when following resumes: the first prices after it are snapshots, not movement', () => {
    let now = 0;
    const changes: boolean[] = [];
    const monitor = createStalenessMonitor({ clock: { nowMs: () => now }, onChange: (stale) => changes.push(stale) });
    monitor.noteData(['EURUSD']);
    monitor.noteData(['EURUSD']);
    monitor.expect(false);
    monitor.expect(true);
    monitor.noteData(['AAPL']);
    for (now = 1000; now <= 30_000; now += 1000) monitor.check();
    expect(changes).toEqual([]);
  });
});
