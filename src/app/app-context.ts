import { signal } from '@preact/signals-react';
import { createContext, useContext } from 'react';
import type { BrandConfig } from '../shared/config/brand-config';
import { switchDefaults, type Switches } from '../shared/config/switches';
import { createServerClock } from '../shared/time/server-clock';
import type { HttpClient } from './api/http-client';
import type { EngineRemote, KlineWatches } from './engine/engine-client';
import type { WatchRegistry } from './engine/watch-registry';

/** What every view may use: the brand's config, the request client and the engine. */
export interface AppServices {
  config: BrandConfig;
  http: HttpClient;
  engine: EngineRemote;
  /** The symbols this tab shows; the engine sends only their prices. */
  watches: WatchRegistry;
  /** The charts this tab shows; the engine pushes their forming bars. */
  klines: KlineWatches;
}

export const AppContext = createContext<AppServices | null>(null);

export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('useApp outside the app');
  return services;
}

/** The server's feature switches, fetched at start. */
export const switchesSignal = signal<Switches>({ ...switchDefaults }, { name: 'switches' });

/**
 * The server's clock as this device estimates it from the request client's answers; for
 * countdowns to a time the server set (a position's minimum holding time).
 */
export const serverClock = createServerClock();
