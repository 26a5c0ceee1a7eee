import { describe, expect, it } from 'vitest';
import { holdTimeLeft } from '../../../../src/shared/trading/order-rules';
import { createServerClock, narrowOffset, offsetBoundsOf, offsetEstimateMs } from '../../../../src/shared/time/server-clock';

/** A device whose clock runs 90 s ahead of the server's. */
const ahead = 90_000;
const serverAt = Date.parse('2026-01-13T12:00:00Z');
/** An answer the server wrote at server time `writtenAt`, sent and received `before` / `after` ms around it (device clock). */
const answer = (writtenAt: number, before: number, after: number) => ({
  serverDateMs: Math.floor(writtenAt / 1000) * 1000,
  sentAtMs: writtenAt + ahead - before,
  receivedAtMs: writtenAt + ahead + after,
});

describe('server clock offset from Date headers', () => {
  it('one answer bounds the offset by its round trip and the header\'s whole second', () => {
    const bounds = offsetBoundsOf(answer(serverAt + 400, 50, 50));
    expect(bounds).toEqual({ low: ahead - 650, high: ahead + 450 });
    expect(bounds!.low <= ahead && ahead <= bounds!.high).toBe(true);
  });

  it('several answers written at different points of their second narrow the estimate to within a few tens of ms', () => {
    let bounds = null;
    for (const [ms, before, after] of [[serverAt + 30, 20, 20], [serverAt + 5_980, 20, 20], [serverAt + 12_500, 20, 20]] as const) {
      bounds = narrowOffset(bounds, answer(ms, before, after));
    }
    expect(bounds).toEqual({ low: ahead - 40, high: ahead + 50 });
    expect(Math.abs(offsetEstimateMs(bounds) - ahead)).toBeLessThanOrEqual(50);
  });

  it('starts again from the newest answer when it contradicts the earlier ones (a clock was set)', () => {
    const before = narrowOffset(null, answer(serverAt, 10, 10));
    // The device clock is set right: now 0 ahead.
    const sample = { serverDateMs: serverAt + 60_000, sentAtMs: serverAt + 60_200, receivedAtMs: serverAt + 60_300 };
    expect(narrowOffset(before, sample)).toEqual(offsetBoundsOf(sample));
  });

  it('ignores an impossible answer (received before sent) and trusts the device before any answer', () => {
    const bounds = narrowOffset(null, answer(serverAt + 500, 10, 10));
    expect(narrowOffset(bounds, { serverDateMs: serverAt, sentAtMs: 10, receivedAtMs: 5 })).toEqual(bounds);
    expect(narrowOffset(null, { serverDateMs: Number.NaN, sentAtMs: 1, receivedAtMs: 2 })).toBeNull();
    expect(offsetEstimateMs(null)).toBe(0);
  });

  it('a hold countdown on a device 90 s fast shows the server\'s time left, not 1:30 less', () => {
    let device = serverAt + ahead;
    const clock = createServerClock(() => device);
    const closableAfter = serverAt + 180_000;
    expect(holdTimeLeft(closableAfter, clock.serverNowMs())).toBe('1:30');
    clock.observe(answer(serverAt + 100, 30, 30));
    clock.observe(answer(serverAt + 1_950, 30, 30));
    device += 2_500;
    expect(holdTimeLeft(closableAfter, clock.serverNowMs())).toBe('2:58');
  });
});
