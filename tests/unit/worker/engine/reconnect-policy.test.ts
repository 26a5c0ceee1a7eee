import { describe, expect, it } from 'vitest';
import {
  connectionLost,
  attemptStarted,
  connectionOpened,
  initialConnectionState,
  reconnectDelayMs,
  retryNow,
  type ConnectionState,
} from '../../../../src/worker/engine/reconnect-policy';

/** The waits of `count` failed attempts in a row, with the jitter's draw fixed at `draw`. */
function waits(count: number, draw: number, from: ConnectionState = initialConnectionState) {
  let state = from;
  const delays: number[] = [];
  const alerts: boolean[] = [];
  for (let attempt = 0; attempt < count; attempt += 1) {
    const next = connectionLost(state, () => draw);
    delays.push(next.retryInMs);
    alerts.push(next.state.connectionFailed);
    state = next.state;
  }
  return { delays, alerts, state };
}

describe('reconnect policy', () => {
  it('waits 500 ms times the attempt, and after more than 10 attempts raises the alert but keeps trying', () => {
    const { delays, alerts, state } = waits(12, 0.5);
    expect(delays).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 5500, 6000]);
    expect(alerts).toEqual([false, false, false, false, false, false, false, false, false, false, true, true]);
    expect(state).toMatchObject({ status: 'closed', failedAttempts: 12, connectionFailed: true });
    // The alert goes when a connection opens.
    expect(connectionOpened()).toEqual({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
  });

  it('never waits more than 30 s however long the server stays away, and never stops', () => {
    const { delays } = waits(500, 0.999);
    expect(Math.max(...delays)).toBe(30_000);
    expect(delays.at(-1)).toBe(30_000);
    expect(delays.every((delay) => delay > 0)).toBe(true);
    // 500 ms × 60 is the cap: from then on every wait is about 30 s (within the jitter, below the cap).
    expect(reconnectDelayMs(60, () => 0.5)).toBe(30_000);
    expect(reconnectDelayMs(200, () => 0)).toBe(24_000);
  });

  it('draws each wait within ±20 % of its base from the injected random, so browsers dropped together do not return together', () => {
    expect(reconnectDelayMs(10, () => 0)).toBe(4000);
    expect(reconnectDelayMs(10, () => 0.5)).toBe(5000);
    expect(reconnectDelayMs(10, () => 0.999_999)).toBe(6000);
    const draws = [0.1, 0.9];
    const [first, second] = draws.map((draw) => reconnectDelayMs(4, () => draw));
    expect(first).not.toBe(second);
  });

  it('tries now from the first attempt when the network is back or a tab shows, keeping the alert until a connection opens', () => {
    const failing = waits(11, 0.5).state;
    const now = retryNow(failing);
    expect(now).toEqual({ status: 'connecting', failedAttempts: 0, connectionFailed: true, retryAtMs: null });
    // Failing again counts from the start (500 ms), and the alert stays up.
    const again = connectionLost(now, () => 0.5, undefined, 1_000_000);
    expect(again).toEqual({ state: { status: 'closed', failedAttempts: 1, connectionFailed: true, retryAtMs: 1_000_500 }, retryInMs: 500 });
    expect(retryNow(waits(2, 0.5).state)).toEqual({ status: 'connecting', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
  });

  it('says when the next attempt starts while waiting, and nothing once it starts or the connection opens', () => {
    const lost = connectionLost(initialConnectionState, () => 0.5, undefined, 2_000_000);
    // The fourth attempt waits 2 s (500 ms × 4, the draw in the middle of the jitter).
    const fourth = connectionLost({ ...lost.state, failedAttempts: 3 }, () => 0.5, undefined, 2_000_000);
    expect(fourth.state.retryAtMs).toBe(2_002_000);
    expect(attemptStarted(fourth.state)).toEqual({ ...fourth.state, status: 'connecting', retryAtMs: null });
    expect(connectionOpened().retryAtMs).toBeNull();
  });
});
