/**
 * One interface for every source of prices (the simulator, a CSV replay, a live
 * exchange). Prices travel as fixed-point integers in the instrument's precision
 * (1.08512 at precision 5 is 108512) so that nothing downstream rounds.
 */
export interface RawTick {
  symbol: string;
  timeMs: number;
  bid: number;
  ask: number;
  /** Traded or tick volume since the previous tick. */
  volume: number;
}

export interface MarketDataSource {
  readonly name: string;
  start(onTicks: (ticks: RawTick[]) => void): void;
  stop(): void;
}

/** Parses an exact decimal string into units of `precision` decimals; null if it is not one. */
export function decimalToUnits(value: string, precision: number): number | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const padded = (fraction + '0'.repeat(precision)).slice(0, precision);
  const units = Number(`${whole}${padded}`);
  // Digits beyond the precision are rounded half up, as an exchange quote would be.
  const roundUp = fraction.length > precision && Number(fraction[precision]) >= 5 ? 1 : 0;
  return (sign === '-' ? -1 : 1) * (units + roundUp);
}
