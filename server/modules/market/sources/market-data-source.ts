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

export { decimalToUnits } from '../../../../src/shared/market/decimal';
