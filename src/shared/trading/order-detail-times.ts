import { OptionStatus } from '../options/option-rules';
import { OrderStatus } from './order-rules';

/**
 * Which times an order's detail shows (account-and-money.md, "Market trade status" and
 * "Option trade status"): a market order's place time (when it filled, `transactionTimeTs`)
 * for statuses 2 (position) and 3 (deal), its cover time (`closingTimeTs`) for status 3
 * only — not for a canceled order; an option's settlement time for status 1 (settled) only.
 */
export function marketDetailTimes(status: number): { placeTime: boolean; coverTime: boolean } {
  return { placeTime: status === OrderStatus.position || status === OrderStatus.deal, coverTime: status === OrderStatus.deal };
}

export function optionShowsSettlementTime(status: number): boolean {
  return status === OptionStatus.settled;
}
