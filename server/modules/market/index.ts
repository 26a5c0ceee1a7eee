import type { FastifyInstance } from 'fastify';
import { parseMarketDestination } from '../../../src/shared/api/market';
import type { DatabaseHandle } from '../../db/database';
import type { SharedConnectionLimits } from '../../http/connection-limits';
import type { Settings } from '../../settings';
import { createBrokerPublisher } from './broker-publisher';
import { brandInstruments, instruments as seededInstruments, loadTestInstruments } from './catalogue';
import { teeTopicBus } from './fanout-bus';
import { tickLinesTopic } from '../../../src/shared/market/tick-lines';
import { batchSourceTopic, binaryTicksSource, createMarketDataService, isTickLinesSource, tickLinesSource, type MarketDataService } from './market-data-service';
import { createMarketRepository } from './market-repository';
import { registerMarketRoutes } from './market-routes';
import type { MarketDataSource, RawTick } from './sources/market-data-source';
import { selectMarketSource } from './sources/select-source';
import { registerStompEndpoint, type StompEndpoint } from './stomp/stomp-endpoint';
import { createTopicBus, type TopicBus } from './topic-bus';
import type { ClusterContext } from '../../cluster/cluster-context';
import { followedTicks, stampTicks } from './followed-ticks';
import { createEpochGate, createSupersededTally } from '../../cluster/fencing';
import { LeaseLostError } from '../../cluster/leadership';

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
  /**
   * The fencing of the leader's ticks as this process saw it: batches taken from a lease
   * already taken over (must stay 0) and batches of an older lease the gate dropped.
   */
  fencing(): { acceptedFromOlderLease: number; droppedFromOlderLease: number };
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
    cluster: ClusterContext;
    /** The brand's symbols (brand-folder.ts); every instrument of catalogue.ts when none is given. */
    catalogue?: readonly { code: string; name: string; icon: string }[] | undefined;
    /** Where open market sockets per address are counted: in the database, across processes. */
    connectionLimits: SharedConnectionLimits;
  },
): Promise<MarketModule> {
  const { settings, cluster } = deps;
  const leading = () => cluster.market.leading();
  const topicBus = createTopicBus();
  const publisher = settings.marketBrokerUrl ? createBrokerPublisher({ url: settings.marketBrokerUrl, log: app.log }) : null;
  // With several processes only the market leader publishes to the broker; the others serve their own sockets.
  // The tick lines are for this process's batch subscriptions only: the broker carries the documented topics.
  const broker = publisher && {
    ...publisher,
    publish: (destination: string, body: string) => leading() && !isTickLinesSource(destination) && publisher.publish(destination, body),
  };
  if (broker) {
    // Not awaited: the server runs while the broker is down; the publisher keeps retrying.
    broker.start().catch((error: unknown) => app.log.warn({ err: error }, 'market broker not reachable yet; retrying'));
    // onClose hooks run last-registered first, so this runs after the market's final flush.
    app.addHook('onClose', () => broker.stop());
  }
  // The brand's symbols (its catalogue.json: its names and icons), then any load-test ones.
  const listed = deps.catalogue ? brandInstruments(deps.catalogue) : seededInstruments;
  const instruments =
    settings.marketLoadSymbols > 0
      ? [...listed, ...loadTestInstruments(settings.marketLoadSymbols, settings.marketLoadTicksPerSecond)]
      : listed;
  const seed = deps.seed ?? settings.marketSeed;
  const market = createMarketDataService({
    instruments,
    repository: createMarketRepository(deps.database.db),
    publisher: teeTopicBus(topicBus, broker, { brokerAlwaysWantsTopic: (destination) => !isTickLinesSource(destination) }),
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
    ...(seed !== null ? { seed } : {}),
    stalePriceMs: settings.stalePriceMs,
  });
  const resumeAt = await market.initialize();
  app.decorate('market', market);
  app.decorate('topicBus', topicBus);
  registerMarketRoutes(app, market);
  const stomp = await registerStompEndpoint(app, {
    path: '/market/stomp',
    bus: topicBus,
    maxConnectionsPerAddress: settings.marketConnectionsPerAddress,
    connectionsPerAddress: deps.connectionLimits.limit('market-address', settings.marketConnectionsPerAddress),
    compression: settings.socketCompression,
    allowedDestination: (destination) => {
      if (destination === tickLinesTopic) return true;
      const parsed = parseMarketDestination(destination);
      return parsed !== null && (parsed.topic === 'prices' || market.knownSymbol(parsed.symbol));
    },
    // The last known price of every product (closed markets included) at once, not only at its next tick.
    batchDestination: tickLinesTopic,
    batchSourceOf: (destination, binary) => {
      const topic = parseMarketDestination(destination)?.topic;
      if (topic !== 'prices' && topic !== 'price' && topic !== 'price-1s') return null;
      return binary ? binaryTicksSource(destination) : tickLinesSource(destination);
    },
    snapshotOf: (destination) => {
      const batched = batchSourceTopic(destination);
      if (batched !== null) {
        const parsed = parseMarketDestination(batched);
        if (parsed?.topic === 'prices') return market.tickLinesSnapshot(destination, market.allTicks());
        const tick = parsed && parsed.topic !== 'kline' ? market.latestTick(parsed.symbol) : null;
        return tick ? market.tickLinesSnapshot(destination, [tick]) : null;
      }
      const parsed = parseMarketDestination(destination);
      if (parsed?.topic === 'prices') return JSON.stringify(market.allTicks());
      if (parsed?.topic === 'price' || parsed?.topic === 'price-1s') {
        const tick = market.latestTick(parsed.symbol);
        return tick ? JSON.stringify(tick) : null;
      }
      return null;
    },
  });
  app.decorate('marketStomp', stomp);

  // The market leader's ticks, exactly as its source gave them, reach every other process:
  // each fills, triggers and settles on the same ticks. Fenced (issue 35): every batch carries
  // the epoch of the lease it was published under, and this one gate in front of the service
  // keeps the highest epoch seen and drops older ones, so nothing fed by the service (quotes
  // and fills, triggers, option ticks, bars, the STOMP endpoint's topics) sees a stale leader's.
  const link = cluster.link;
  const epochs = createEpochGate();
  // What the gate cannot refuse is counted afterwards: batches taken from a lease already taken over.
  const superseded = createSupersededTally();
  const fencing = { acceptedFromOlderLease: 0, droppedFromOlderLease: 0 };
  const wallClock = deps.nowMs ?? Date.now;
  let staleDropped = 0;
  let staleDroppedFromLink = 0;
  const dropStale = (epoch: number | null, fromLink: boolean) => {
    staleDropped += 1;
    if (fromLink) {
      staleDroppedFromLink += 1;
      fencing.droppedFromOlderLease += 1;
    }
    // Once per run of drops, not per batch: ten batches a second.
    if (staleDropped === 1) app.log.warn({ epoch, current: epochs.highest() }, 'market ticks dropped: not of the newest lease');
  };
  const admitted = (epoch: number, publishedAtMs: number, termStartedAtMs: number | null) => {
    // The run of drops ends: how many batches of the link it refused (the fault suite sums them).
    if (staleDroppedFromLink > 0) app.log.warn({ dropped: staleDroppedFromLink, current: epoch }, 'market ticks of the newest lease again after dropping older ones');
    staleDropped = 0;
    staleDroppedFromLink = 0;
    const taken = superseded.accepted(epoch, publishedAtMs, termStartedAtMs);
    if (taken > 0) {
      fencing.acceptedFromOlderLease += taken;
      app.log.error({ count: taken, epoch, total: fencing.acceptedFromOlderLease }, 'market ticks accepted from an older lease: published after the newer lease began');
    }
  };
  const ingest = (ticks: readonly RawTick[]) => {
    // A source still emitting after this process stopped leading, or after a newer leader was heard: dropped.
    const epoch = cluster.market.epoch();
    if (epoch === null || !epochs.admit(epoch)) return dropStale(epoch, false);
    const times = { publishedAtMs: wallClock(), termStartedAtMs: cluster.market.termStartedAtMs() };
    admitted(epoch, times.publishedAtMs, times.termStartedAtMs);
    market.ingest(ticks);
    link?.publish('ticks', stampTicks(epoch, ticks, times));
  };
  link?.subscribe('ticks', (data) => {
    const followed = followedTicks(data);
    if (!followed) return;
    if (!epochs.admit(followed.epoch)) return dropStale(followed.epoch, true);
    // A leader that does not say when it published: taken as now (it is counted, never excused).
    admitted(followed.epoch, followed.publishedAtMs ?? wallClock(), followed.termStartedAtMs);
    market.ingest(followed.ticks);
  });

  // One process: the source is chosen now. Several: by whichever process takes the market
  // over, resuming from the last price it followed.
  let source: MarketDataSource | null =
    deps.source !== undefined ? deps.source : link ? null : await selectMarketSource({ settings, instruments, resumeAt, log: app.log });
  if (!link) app.log.info({ source: source?.name ?? 'none' }, 'market data source');
  let pricesStarted = false;
  let closing = false;
  async function takeOver() {
    if (deps.source === undefined) {
      const lastPrices = new Map(resumeAt);
      for (const instrument of instruments) {
        const quote = market.latestQuote(instrument.code);
        if (quote) lastPrices.set(instrument.code, quote.bid);
      }
      const next = await selectMarketSource({ settings, instruments, resumeAt: lastPrices, log: app.log });
      // A leadership lost and taken again meanwhile must not leave an earlier source running.
      source?.stop();
      source = next;
    }
    if (!leading() || closing) return;
    app.log.info({ source: source?.name ?? 'none' }, 'market data source taken over');
    source?.start(ingest);
  }
  cluster.market.onChange((nowLeading) => {
    if (!pricesStarted) return;
    if (nowLeading) takeOver().catch((error: unknown) => app.log.error({ err: error }, 'taking the market over failed'));
    else source?.stop();
  });

  // Bars are written under the market lease's epoch: a leader that lost it has its write refused in that transaction.
  const fenceBars = (trx: Parameters<typeof cluster.market.fenceIn>[0]) => cluster.market.fenceIn(trx);
  const barsNotSaved = (error: unknown) => {
    if (error instanceof LeaseLostError) app.log.warn({}, 'bars not saved: the market lease was taken over');
    else app.log.error({ err: error }, 'saving bars failed');
  };

  return {
    market,
    stomp,
    startPrices() {
      pricesStarted = true;
      const flushTimer = setInterval(() => market.flush(), settings.marketFlushMs);
      // Bars are stored by the market leader; another process's forming bars are only for its own sockets.
      const persistTimer = setInterval(() => {
        if (!leading()) return market.forgetUnsaved();
        market.persist(false, fenceBars).catch(barsNotSaved);
      }, settings.marketPersistMs);
      if (leading()) {
        if (link) takeOver().catch((error: unknown) => app.log.error({ err: error }, 'taking the market over failed'));
        else source?.start(ingest);
      }
      app.addHook('onClose', async () => {
        closing = true;
        const wasLeading = leading();
        source?.stop();
        clearInterval(flushTimer);
        clearInterval(persistTimer);
        market.flush();
        if (wasLeading) await market.persist(true, fenceBars).catch(barsNotSaved);
      });
    },
    fencing: () => ({ ...fencing }),
    feedControl: {
      pause: () => source?.stop(),
      resume: () => {
        if (leading()) source?.start(ingest);
      },
    },
  };
}
