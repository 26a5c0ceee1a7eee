import { describe, expect, it } from 'vitest';
import { failureDelaySchedule, failureDelaySeconds } from '../../../../server/auth/failure-delay';

describe('the growing delay after failures', () => {
  const policy = { freeFailures: 5, maxDelaySeconds: 900 };

  it('costs nothing for the first failures, then doubles up to the cap', () => {
    expect([1, 2, 3, 4].map((failures) => failureDelaySeconds(failures, policy))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((failures) => failureDelaySeconds(failures, policy))).toEqual([1, 2, 4, 8]);
    expect(failureDelaySeconds(15, policy)).toBe(900);
    expect(failureDelaySeconds(10_000, policy)).toBe(900);
  });

  it('tabulates every delay up to the first that reaches the cap', () => {
    expect(failureDelaySchedule(policy)).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
    expect(failureDelaySchedule({ freeFailures: 1, maxDelaySeconds: 3 })).toEqual([1, 2, 3]);
  });
});
