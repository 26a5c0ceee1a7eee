import { describe, expect, it } from 'vitest';
import { acceptsEpoch, actingDeadline, createEpochGate, mayStillAct } from '../../../../server/cluster/fencing';

describe('may a lease holder still act', () => {
  it('acts for half the lease after sending a renewal that succeeded, measured from the sending', () => {
    expect(actingDeadline(1_000, 5_000)).toBe(3_500);
    expect(mayStillAct(1_000, 1_000, 5_000)).toBe(true);
    expect(mayStillAct(1_000, 3_499, 5_000)).toBe(true);
    expect(mayStillAct(1_000, 3_500, 5_000)).toBe(false);
    expect(mayStillAct(1_000, 5_999, 5_000)).toBe(false);
  });

  it('stops well before the lease itself could run out, so no successor can overlap', () => {
    for (const leaseMs of [500, 1_000, 5_000, 600_000]) expect(actingDeadline(0, leaseMs)).toBeLessThan(leaseMs);
  });

  it('never acts without a renewal', () => {
    expect(mayStillAct(null, 0, 5_000)).toBe(false);
  });
});

describe('does a consumer accept an epoch', () => {
  it('accepts the current epoch and newer ones, never an older one', () => {
    expect(acceptsEpoch(3, 3)).toBe(true);
    expect(acceptsEpoch(3, 4)).toBe(true);
    expect(acceptsEpoch(3, 2)).toBe(false);
    expect(acceptsEpoch(0, 1)).toBe(true);
  });

  it('refuses what is not a whole epoch', () => {
    expect(acceptsEpoch(0, Number.NaN)).toBe(false);
    expect(acceptsEpoch(0, 1.5)).toBe(false);
    expect(acceptsEpoch(0, Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('a gate keeps the highest epoch admitted: a newer one replaces it and the older is dropped from then on', () => {
    const gate = createEpochGate();
    expect(gate.highest()).toBe(0);
    expect(gate.admit(4)).toBe(true);
    expect(gate.admit(4)).toBe(true);
    expect(gate.admit(5)).toBe(true);
    expect(gate.highest()).toBe(5);
    expect(gate.admit(4)).toBe(false);
    expect(gate.highest()).toBe(5);
    expect(gate.admit(5)).toBe(true);
  });
});
