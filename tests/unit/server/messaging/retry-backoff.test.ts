import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../../../server/messaging/retry-backoff';

describe('the wait before a message is tried again', () => {
  const policy = { baseMs: 5_000, maxMs: 15 * 60_000 };

  it('starts at the base after the first failure and doubles with each further one', () => {
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelayMs(attempts, policy))).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
  });

  it('never waits longer than the cap, however many tries failed', () => {
    expect(retryDelayMs(8, policy)).toBe(640_000);
    expect(retryDelayMs(9, policy)).toBe(900_000);
    expect(retryDelayMs(10_000, policy)).toBe(900_000);
  });
});
