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
});
