import { useEffect } from 'react';
import { useApp } from '../app-context';

/**
 * Tells the engine that this view shows these symbols, for as long as it is mounted.
 * `glance`: the view shows the price without needing every tick (list rows, hot cards);
 * the engine then follows it at most once a second unless another view needs every tick.
 */
export function useWatchedPrices(symbols: readonly string[], options: { glance?: boolean } = {}) {
  const { watches } = useApp();
  const key = symbols.join(',');
  const glance = options.glance === true;
  useEffect(() => watches.watch(key ? key.split(',') : [], { glance }), [watches, key, glance]);
}
