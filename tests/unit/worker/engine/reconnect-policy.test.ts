import { describe, expect, it } from 'vitest';
import { connectionLost, connectionOpened, initialConnectionState, reconnectDelayMs } from '../../../../src/worker/engine/reconnect-policy';

describe('reconnect policy', () => {
  it('waits 500 ms times the attempt and gives up after more than 10 attempts', () => {
    let state = initialConnectionState;
    const delays: (number | null)[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const next = connectionLost(state);
      delays.push(next.retryInMs);
      state = next.state;
    }
    expect(delays).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, null]);
    expect(state.gaveUp).toBe(true);
    expect(connectionOpened()).toEqual({ status: 'open', failedAttempts: 0, gaveUp: false });
    expect(reconnectDelayMs(3)).toBe(1500);
  });
});
