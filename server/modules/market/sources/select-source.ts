import type { FastifyBaseLogger } from 'fastify';
import type { Settings } from '../../../settings';
import type { Instrument } from '../catalogue';
import { binanceStreamSource } from './binance-stream';
import { loadCsvReplaySource } from './csv-replay';
import type { MarketDataSource } from './market-data-source';
import { simulatorSource } from './simulator';

/** Several sources as one: each feeds its own instruments. */
export function combinedSource(sources: readonly MarketDataSource[]): MarketDataSource {
  return {
    name: sources.map((source) => source.name).join('+'),
    start: (onTicks) => sources.forEach((source) => source.start(onTicks)),
    stop: () => sources.forEach((source) => source.stop()),
  };
}

/**
 * The price source the settings choose. With Binance, crypto is live and every other
 * instrument stays on the simulator so that the whole catalogue keeps quoting.
 */
export async function selectMarketSource(options: {
  settings: Pick<Settings, 'marketSource' | 'marketCsvPath' | 'marketCsvSpeed' | 'marketCsvLoop' | 'marketSeed' | 'marketBinanceUrl'>;
  instruments: readonly Instrument[];
  resumeAt: ReadonlyMap<string, number>;
  log: FastifyBaseLogger;
}): Promise<MarketDataSource | null> {
  const { settings, instruments, resumeAt } = options;
  const seed = settings.marketSeed ?? Date.now() % 2_147_483_647;
  switch (settings.marketSource) {
    case 'none':
      return null;
    case 'simulator':
      return simulatorSource({ instruments, seed, startPrices: resumeAt });
    case 'csv':
      if (!settings.marketCsvPath) throw new Error('MARKET_CSV_PATH is required when MARKET_SOURCE=csv');
      return loadCsvReplaySource(settings.marketCsvPath, instruments, { speed: settings.marketCsvSpeed, loop: settings.marketCsvLoop });
    case 'binance': {
      const crypto = instruments.filter((instrument) => instrument.type === 'Cryptos');
      const others = instruments.filter((instrument) => instrument.type !== 'Cryptos');
      return combinedSource([
        binanceStreamSource({ instruments: crypto, ...(settings.marketBinanceUrl ? { url: settings.marketBinanceUrl } : {}), log: options.log }),
        simulatorSource({ instruments: others, seed, startPrices: resumeAt }),
      ]);
    }
  }
}
