import type { MarketSnapshot } from '../../shared/protocol/engine';

/** The connection as the terminal's indicator names it. */
export type ConnectionShown = 'live' | 'delayed' | 'connecting' | 'failed';

/**
 * One word for the engine's connections: failed once either socket has failed more than 10
 * times in a row (the reload alert; the engine keeps trying), connecting while the market
 * socket is not open, delayed while its prices are stale, live otherwise.
 */
export function connectionShown(market: Pick<MarketSnapshot, 'status' | 'stale' | 'connectionFailed'>, exchangeFailed: boolean): ConnectionShown {
  if (market.connectionFailed || exchangeFailed) return 'failed';
  if (market.status !== 'open') return 'connecting';
  return market.stale ? 'delayed' : 'live';
}
