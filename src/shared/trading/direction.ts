/**
 * An order's direction, apart from the order rules (`order-rules.ts`, which re-exports it):
 * the desktop workspace's selection holds one from the start, and the first load then
 * needs none of the rules.
 */

/** Direction everywhere (the wire's orderType): 0 buy, 1 sell. */
export const Direction = { buy: 0, sell: 1 } as const;
export type Direction = (typeof Direction)[keyof typeof Direction];
