import { describe, expect, it } from 'vitest';
import { acceptsEpoch, actingDeadline, createEpochGate, createSupersededTally, mayStillAct } from '../../../../server/cluster/fencing';

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

describe('batches accepted from a lease already taken over', () => {
  it('counts, when the newer lease is first heard, the older lease batches taken that were published after its term began', () => {
    const tally = createSupersededTally();
    expect(tally.accepted(3, 1_000, 500)).toBe(0);
    expect(tally.accepted(3, 1_100, 500)).toBe(0);
    // The stale leader goes on after the take-over at 1 150 and reaches this consumer first.
    expect(tally.accepted(3, 1_200, 500)).toBe(0);
    expect(tally.accepted(3, 1_300, 500)).toBe(0);
    expect(tally.accepted(4, 1_250, 1_150)).toBe(2);
    // Counted once: the newer lease's further batches find nothing more.
    expect(tally.accepted(4, 1_350, 1_150)).toBe(0);
  });

  it('counts nothing when the older lease stopped before the take-over (a clean hand-over)', () => {
    const tally = createSupersededTally();
    for (const at of [1_000, 1_100, 1_200]) expect(tally.accepted(1, at, 0)).toBe(0);
    expect(tally.accepted(2, 9_000, 8_000)).toBe(0);
  });

  it('judges on the first batch that says when its term began, and forgets what is older than its memory', () => {
    const tally = createSupersededTally(1_000);
    expect(tally.accepted(1, 100, 0)).toBe(0);
    expect(tally.accepted(1, 5_000, 0)).toBe(0);
    expect(tally.accepted(1, 5_100, 0)).toBe(0);
    // A newer leader of an older version says nothing of its term: not judged yet.
    expect(tally.accepted(2, 5_200, null)).toBe(0);
    // The batch at 100 is forgotten (older than 1 s before 5 300); the two at 5 000 and 5 100 count.
    expect(tally.accepted(2, 5_300, 4_900)).toBe(2);
  });
});
