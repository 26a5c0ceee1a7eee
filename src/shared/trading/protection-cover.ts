import type { Units } from '../money/money';

/**
 * Negative-balance protection when some positions cannot be priced (their market is
 * closed over a weekend, or no live tick of them reached this process), decided as
 * regulated brokers do under retail negative-balance protection: the loss is limited to
 * the funds in the account, and nothing is closed at a price that does not exist.
 *
 * - The position closed by hand (or by its trigger, or by stop-out) closes at its live
 *   price, with every other position that has one; pending orders are canceled and
 *   running options end void, as when everything can be priced.
 * - A position without a live price is held: it stays open, closable by hand or by the
 *   stop-out at its first live quote. Its margin is the customer's money and collateral
 *   of the whole account, so it covers what the closes leave missing, in the order given.
 * - The house absorbs only what all held margin cannot cover; the cash ends at 0, never below.
 *
 * So a customer can always close a position whose market is open: a closed market never
 * makes the close wait (before: 202 until it quoted again, up to a weekend).
 */
export function coverFromHeldMargin(shortfall: Units, heldMargins: readonly Units[]): { taken: Units[]; absorbed: Units } {
  let missing = shortfall > 0n ? shortfall : 0n;
  const taken = heldMargins.map((margin) => {
    const take = margin < missing ? margin : missing;
    missing -= take;
    return take;
  });
  return { taken, absorbed: missing };
}
