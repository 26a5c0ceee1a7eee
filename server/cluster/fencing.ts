/**
 * Fencing of the roles that run in one process at a time (issue 35). Every lease has an
 * epoch, raised at each take-over; what a leader publishes or writes carries it, and a
 * consumer drops anything from an older epoch than it has seen. A holder acts only for
 * part of its lease after each renewal, so a late or failed renewal stops it before its
 * lease could run out and anyone else could take over. Pure: no clock, no database.
 */

/**
 * The part of the lease a holder may act on after sending a renewal that succeeded. Half:
 * the other half covers the holder's clock running slower than the database's, a pause
 * (garbage collection, a stalled event loop) between the check and the act, and messages
 * still on their way.
 */
export const actingShareOfLease = 0.5;

/** Until when (the holder's monotonic clock, ms) a holder may act, its last successful renewal sent at `renewalSentAtMs`. */
export function actingDeadline(renewalSentAtMs: number, leaseMs: number): number {
  return renewalSentAtMs + leaseMs * actingShareOfLease;
}

/**
 * Whether a holder may still publish or act at `nowMs`: it has renewed (sent at
 * `lastRenewalSentAtMs`, null when it never has) and its acting deadline has not passed.
 * Measured from when the renewal was sent, not answered: the database may have applied it
 * at any moment in between.
 */
export function mayStillAct(lastRenewalSentAtMs: number | null, nowMs: number, leaseMs: number): boolean {
  return lastRenewalSentAtMs !== null && nowMs < actingDeadline(lastRenewalSentAtMs, leaseMs);
}

/**
 * Whether a consumer that has seen `highestSeen` accepts something stamped `epoch`: the
 * current epoch and any newer one (a take-over it hears of first through its ticks), never
 * an older one, which is a stale leader's.
 */
export function acceptsEpoch(highestSeen: number, epoch: number): boolean {
  return Number.isSafeInteger(epoch) && epoch >= highestSeen;
}

export interface EpochGate {
  /** Whether to take something stamped `epoch`; a newer epoch becomes the one required from then on. */
  admit(epoch: number): boolean;
  /** The highest epoch admitted so far (0 before any). */
  highest(): number;
}

/** One consumer's memory of the highest epoch it has seen, with `acceptsEpoch` applied. */
export function createEpochGate(): EpochGate {
  let highest = 0;
  return {
    admit(epoch) {
      if (!acceptsEpoch(highest, epoch)) return false;
      highest = epoch;
      return true;
    },
    highest: () => highest,
  };
}

/** What a consumer knows of a batch it took: the lease it was stamped under and when its leader published it (wall clock, ms). */
export interface AcceptedBatch {
  epoch: number;
  publishedAtMs: number;
}

/** How long a consumer remembers the batches it took: far longer than the gap between a take-over and the new leader's first batch. */
export const supersededMemoryMs = 60_000;

/**
 * Counts what the gate cannot refuse: batches a consumer took from a lease that had already
 * been taken over, because they reached it before anything of the newer lease did. It is
 * known only afterwards, when the newer lease's first batch arrives with the time its term
 * began: every batch taken of an older lease and published at or after that time was a
 * second leader's, accepted. Each is counted once. Pure: the times come with the batches.
 */
export function createSupersededTally(memoryMs = supersededMemoryMs) {
  let remembered: AcceptedBatch[] = [];
  /** The newest lease whose term start the remembered batches were judged against. */
  let judgedEpoch = 0;
  return {
    /**
     * Notes a batch the gate admitted, stamped `epoch`, published at `publishedAtMs`, under
     * a term that began at `termStartedAtMs` (null when the leader did not say). Answers how
     * many batches taken earlier are now known to have come from a superseded lease.
     */
    accepted(epoch: number, publishedAtMs: number, termStartedAtMs: number | null): number {
      let superseded = 0;
      if (epoch > judgedEpoch && termStartedAtMs !== null) {
        judgedEpoch = epoch;
        const kept: AcceptedBatch[] = [];
        for (const batch of remembered) {
          if (batch.epoch < epoch && batch.publishedAtMs >= termStartedAtMs) superseded += 1;
          else kept.push(batch);
        }
        remembered = kept;
      }
      remembered.push({ epoch, publishedAtMs });
      const horizon = publishedAtMs - memoryMs;
      let forgotten = 0;
      while (forgotten < remembered.length && remembered[forgotten]!.publishedAtMs < horizon) forgotten += 1;
      if (forgotten > 0) remembered.splice(0, forgotten);
      return superseded;
    },
  };
}
