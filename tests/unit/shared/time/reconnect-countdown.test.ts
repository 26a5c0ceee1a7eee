import { describe, expect, it } from 'vitest';
import { reconnectCountdownSeconds } from '../../../../src/shared/time/reconnect-countdown';

describe('the reconnection countdown', () => {
  it('counts the seconds to the next attempt down, rounded up, none when no attempt is waited for', () => {
    const retryAtMs = 10_000;
    expect(reconnectCountdownSeconds(retryAtMs, 6_000)).toBe(4);
    expect(reconnectCountdownSeconds(retryAtMs, 6_001)).toBe(4);
    expect(reconnectCountdownSeconds(retryAtMs, 6_999)).toBe(4);
    expect(reconnectCountdownSeconds(retryAtMs, 7_000)).toBe(3);
    expect(reconnectCountdownSeconds(retryAtMs, 9_999)).toBe(1);
    expect(reconnectCountdownSeconds(retryAtMs, 10_000)).toBe(0);
    // A late tab (the attempt already due) never counts below zero.
    expect(reconnectCountdownSeconds(retryAtMs, 12_000)).toBe(0);
    expect(reconnectCountdownSeconds(null, 6_000)).toBeNull();
  });
});
