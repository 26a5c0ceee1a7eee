import { decodePriceBatch, parseMarketDestination, type PriceTick } from './market';

/**
 * Scale-out mode: the market topics as they are named at RabbitMQ's STOMP / Web-STOMP
 * plugin instead of at the server's own endpoint.
 *
 * RabbitMQ 3.10 takes `/topic/<routing key>` with exactly one slash after `/topic`: both
 * SEND and SUBSCRIBE on `/topic/price/BTCUSDT` or `/topic/kline/BTCUSDT/1min` are
 * answered with `ERROR message:Invalid destination` ("'/price/BTCUSDT' is not a valid
 * topic destination") and the connection is closed (found by experiment against
 * 3.10.8). Its topic exchange separates routing-key words with dots, so the path
 * segments become dot-separated words:
 *
 *   /topic/prices              → /topic/prices              (unchanged)
 *   /topic/price/BTCUSDT       → /topic/price.BTCUSDT
 *   /topic/price-1s/BTCUSDT    → /topic/price-1s.BTCUSDT
 *   /topic/kline/BTCUSDT/1min  → /topic/kline.BTCUSDT.1min
 *
 * A symbol with a dot (`BRK.B`) adds a word (`/topic/price.BRK.B`). Exact subscriptions
 * still match, and the mapping stays one-to-one because periods never contain a dot.
 * Wildcard subscriptions (`price.*`) would miss such symbols, so the app subscribes to
 * exact names only.
 */
export function brokerDestination(destination: string): string {
  const parsed = parseMarketDestination(destination);
  // Anything else has no agreed broker name. A guessed one could collide with another
  // name, and a multi-slash name sent as is makes RabbitMQ close the connection.
  if (!parsed) throw new RangeError(`not a market destination: ${destination}`);
  switch (parsed.topic) {
    case 'prices':
      return destination;
    case 'price':
    case 'price-1s':
      return `/topic/${parsed.topic}.${parsed.symbol}`;
    case 'kline':
      return `/topic/kline.${parsed.symbol}.${parsed.period}`;
  }
}

const pricesTopic = '/topic/prices';


/**
 * Combines two messages for the same destination when only one can be kept (while the
 * broker is unreachable). Per-symbol prices and bars carry the full state, so the newer
 * message wins. A `/topic/prices` body only holds the ticks that changed in its 100 ms
 * window, so keeping only the last batch would lose the symbols that changed earlier.
 * Batches are therefore merged, keeping the newest tick of each symbol. A body that
 * does not match the contract is not merged: the newer message wins.
 */
export function coalesceMarketMessage(destination: string, queued: string, next: string): string {
  if (destination !== pricesTopic) return next;
  const older = decodePriceBatch(queued);
  const newer = decodePriceBatch(next);
  if (!older || !newer) return next;
  const bySymbol = new Map<string, PriceTick>();
  for (const tick of older) bySymbol.set(tick.symbol, tick);
  for (const tick of newer) bySymbol.set(tick.symbol, tick);
  return JSON.stringify([...bySymbol.values()]);
}
