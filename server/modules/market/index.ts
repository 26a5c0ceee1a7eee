import type { FastifyInstance } from 'fastify';
import { parseMarketDestination } from '../../../src/shared/api/market';
import type { DatabaseHandle } from '../../db/database';
import type { Settings } from '../../settings';
import { createBrokerPublisher } from './broker-publisher';
import { instruments as seededInstruments, loadTestInstruments } from './catalogue';
import { teeTopicBus } from './fanout-bus';
import { createMarketDataService, type MarketDataService } from './market-data-service';
import { createMarketRepository } from './market-repository';
import { registerMarketRoutes } from './market-routes';
import type { MarketDataSource, RawTick } from './sources/market-data-source';
import { selectMarketSource } from './sources/select-source';
import { registerStompEndpoint, type StompEndpoint } from './stomp/stomp-endpoint';
import { createTopicBus, type TopicBus } from './topic-bus';

declare module 'fastify' {
  interface FastifyInstance {
    market: MarketDataService;
    topicBus: TopicBus;
    marketStomp: StompEndpoint;
  }
}

/** Stopping and restarting the price source (development control of the stale flag). */
export interface PriceFeedControl {
  pause(): void;
  resume(): void;
}

export interface MarketModule {
  market: MarketDataService;
  stomp: StompEndpoint;
  /**
   * Starts the price source and the flush and persist timers. Called once the modules
   * that act on prices are ready (options that ended while the server was down settle on
   * the ticks recorded then, before any new one arrives).
   */
  startPrices(): void;
  /** Null without a price source. */
  feedControl: PriceFeedControl | null;
}

/**
 * Market data: the price source → market-data service (latest tick, 24-hour stats, bars,
 * stored history) → topic bus (and the broker, when scaled out) → the STOMP endpoint.
 */
export async function registerMarket(
  app: FastifyInstance,
  deps: {
    settings: Settings;
    database: DatabaseHandle;
    /** The price source; the one the settings choose when undefined, none when null (tests drive ticks). */
    source?: MarketDataSource | null | undefined;
    seed?: number | undefined;
    nowMs?: (() => number) | undefined;
  },
): Promise<MarketModule> {
  const { settings } = deps;
  const topicBus = createTopicBus();
  const broker = settings.marketBrokerUrl ? createBrokerPublisher({ url: settings.marketBrokerUrl, log: app.log }) : null;
  if (broker) {
    // Not awaited: the server runs while the broker is down; the publisher keeps retrying.
    broker.start().catch((error: unknown) => app.log.warn({ err: error }, 'market broker not reachable yet; retrying'));
    // onClose hooks run last-registered first, so this runs after the market's final flush.
    app.addHook('onClose', () => broker.stop());
  }
  const instruments =
    settings.marketLoadSymbols > 0
      ? [...seededInstruments, ...loadTestInstruments(settings.marketLoadSymbols, settings.marketLoadTicksPerSecond)]
      : seededInstruments;
  const seed = deps.seed ?? settings.marketSeed;
  const market = createMarketDataService({
    instruments,
    repository: createMarketRepository(deps.database.db),
    publisher: teeTopicBus(topicBus, broker),
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
    ...(seed !== null ? { seed } : {}),
  });
  const resumeAt = await market.initialize();
  app.decorate('market', market);
  app.decorate('topicBus', topicBus);
  registerMarketRoutes(app, market);
  const stomp = await registerStompEndpoint(app, {
    path: '/market/stomp',
    bus: topicBus,
    maxConnectionsPerAddress: settings.marketConnectionsPerAddress,
    compression: settings.socketCompression,
    allowedDestination: (destination) => {
      const parsed = parseMarketDestination(destination);
      return parsed !== null && (parsed.topic === 'prices' || market.knownSymbol(parsed.symbol));
    },
    // The last known price of every product (closed markets included) at once, not only at its next tick.
    snapshotOf: (destination) => {
      const parsed = parseMarketDestination(destination);
      if (parsed?.topic === 'prices') return JSON.stringify(market.allTicks());
      if (parsed?.topic === 'price') {
        const tick = market.latestTick(parsed.symbol);
        return tick ? JSON.stringify(tick) : null;
      }
      return null;
    },
  });
  app.decorate('marketStomp', stomp);

  const source = deps.source === undefined ? await selectMarketSource({ settings, instruments, resumeAt, log: app.log }) : deps.source;
  app.log.info({ source: source?.name ?? 'none' }, 'market data source');
  const ingest = (ticks: readonly RawTick[]) => market.ingest(ticks);

  return {
    market,
    stomp,
    startPrices() {
      const flushTimer = setInterval(() => market.flush(), settings.marketFlushMs);
      const persistTimer = setInterval(() => {
        market.persist().catch((error: unknown) => app.log.error({ err: error }, 'saving bars failed'));
      }, settings.marketPersistMs);
      source?.start(ingest);
      app.addHook('onClose', async () => {
        source?.stop();
        clearInterval(flushTimer);
        clearInterval(persistTimer);
        market.flush();
        await market.persist(true);
      });
    },
    feedControl: source ? { pause: () => source.stop(), resume: () => source.start(ingest) } : null,
  };
}
