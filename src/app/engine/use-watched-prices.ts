import { useEffect } from 'react';
import { useApp } from '../app-context';

/** Tells the engine that this view shows these symbols, for as long as it is mounted. */
export function useWatchedPrices(symbols: readonly string[]) {
  const { watches } = useApp();
  const key = symbols.join(',');
  useEffect(() => watches.watch(key ? key.split(',') : []), [watches, key]);
}
