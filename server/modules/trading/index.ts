import type { FastifyInstance } from 'fastify';
import type { Units } from '../../../src/shared/money/money';
import type { MoneyModuleBase } from '../module-base';
import type { DomainEvents } from '../../events/domain-events';
import type { SessionCheck, SignedInRoutes } from '../../http/signed-in';
import { createFreeMarginRead, type FreeMarginRead } from './free-margin';
import type { OptionCover } from './position-closing';
import { createPositionsFeed, type PositionsFeed } from './positions-feed';
import { registerPositionsSocket } from './positions-socket';
import { createRearmRetry } from './rearm-retry';
import type { SharedConnectionLimits } from '../../http/connection-limits';
import { createTradingRepository, type TradingRepository } from './trading-repository';
import { registerTradingRoutes } from './trading-routes';
import { createTradingService, type TradingService } from './trading-service';
import type { TradeMode } from '../../../src/shared/config/trade-mode';
import { LeaseLostError } from '../../cluster/leadership';
import type { ClusterContext } from '../../cluster/cluster-context';
import { relayedPositionsFeed } from '../../cluster/push-relay';

declare module 'fastify' {
  interface FastifyInstance {
    trading: TradingService;
    positionsFeed: PositionsFeed;
  }
}

/** UTC calendar day of a time, the overnight fee's unit. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The trading module's read side, made first: the order repository, the live positions
 * feed (`/exchange/ws`) and the free-margin read. Timed options need the feed and the
 * free margin before the trading service exists (whose negative-balance cover ends options).
 */
export function registerTradingReads(
  app: FastifyInstance,
  deps: MoneyModuleBase & {
    sessions: SessionCheck;
    events: DomainEvents;
    cluster: ClusterContext;
    connectionLimits: SharedConnectionLimits;
  },
): { orders: TradingRepository; positionsFeed: PositionsFeed & { optionScheduled(symbol: string, endMs: number): void }; freeMarginIn: FreeMarginRead } {
  const { settings, ledger, market, sessions } = deps;
  const orders = createTradingRepository(deps.database.db);
  const localFeed = createPositionsFeed({
    orders,
    ledger,
    market,
    minHoldSeconds: settings.minHoldSeconds,
    intervalMs: settings.positionsFeedIntervalMs,
    sessionRecheckMs: settings.positionsSessionRecheckMs,
    sessionAlive: async (session) => (await sessions.alive(session)) !== null,
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  // With several processes, what changes on one reaches the sockets every other one holds.
  const positionsFeed = relayedPositionsFeed(localFeed, deps.cluster.link, {
    onOptionScheduled: (symbol, endMs) => deps.cluster.optionScheduled(symbol, endMs),
    onAccountChanged: (uid, book) => deps.cluster.accountChanged(uid, book),
    log: (details, message) => app.log.warn(details, message),
  });
  deps.events.sessionsEnded.listen((ended) => positionsFeed.endSessions(ended));
  registerPositionsSocket(app, {
    feed: positionsFeed,
    sessions,
    perAddress: deps.connectionLimits.limit('positions-address', settings.positionsSocketsPerAddress),
    perUser: deps.connectionLimits.limit('positions-user', settings.positionsSocketsPerUser),
  });
  app.decorate('positionsFeed', positionsFeed);
  app.addHook('onClose', () => positionsFeed.stop());
  return { orders, positionsFeed, freeMarginIn: createFreeMarginRead({ orders, ledger, market }) };
}

/** Market orders and positions: placement, close, cancel, triggers, history, stop-out and the overnight fee. */
export async function registerTrading(
  app: FastifyInstance,
  deps: MoneyModuleBase & {
    reads: ReturnType<typeof registerTradingReads>;
    /** Negative-balance protection ends the account's running options. */
    options: OptionCover;
    /** Whether the user has a withdrawal awaiting review: the real account cannot trade then (406). */
    withdrawalUnderReview: (uid: number) => Promise<boolean>;
    depositedUsd: (uid: number) => Promise<Units>;
    /** Whether the brand offers a trade mode now (the site's switches). */
    tradeModeOffered: (mode: TradeMode) => Promise<boolean>;
    signedIn: SignedInRoutes;
    /** Stop-out and the overnight fee run only in the jobs leader; orders changed elsewhere are armed here too. */
    cluster: ClusterContext;
  },
): Promise<{ trading: TradingService; startRiskChecks(): void }> {
  const { settings, ledger, market, reads } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  const trading = createTradingService({
    onChange: (uid, book) => reads.positionsFeed.changed(uid, book),
    db: deps.database.db,
    orders: reads.orders,
    ledger,
    market,
    freeMarginIn: reads.freeMarginIn,
    options: deps.options,
    withdrawalUnderReview: deps.withdrawalUnderReview,
    depositedUsd: deps.depositedUsd,
    marketModeOffered: () => deps.tradeModeOffered('market'),
    stalePriceMs: settings.stalePriceMs,
    minHoldSeconds: settings.minHoldSeconds,
    forexMinDeposit: settings.forexMinDeposit,
    stopOutLevelPercent: settings.stopOutLevelPercent,
    maxPendingOrders: settings.maxPendingOrders,
    jobsFence: (trx) => deps.cluster.jobs.fenceIn(trx),
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
    log: (message, error) => app.log.error({ err: error }, message),
  });
  await trading.restore();
  const { cluster } = deps;
  const rearming = createRearmRetry({ rearm: (uid, book) => trading.rearm(uid, book), log: (message, error) => app.log.error({ err: error }, message) });
  cluster.onAccountChanged((uid, book) => rearming.changed(uid, book));
  await registerTradingRoutes(deps.signedIn, trading, market);
  app.decorate('trading', trading);
  app.addHook('onClose', async () => {
    rearming.stop();
    trading.stop();
    await trading.settled();
  });

  return {
    trading,
    /** Stop-out checks, and the overnight fee once per UTC day (keys make reruns harmless); started once every module is wired. */
    startRiskChecks() {
      // A job refused under a lease taken over is no fault: the new jobs leader runs it.
      const jobFailed = (job: string) => (error: unknown) => {
        if (error instanceof LeaseLostError) app.log.warn({ job }, 'job stopped: the jobs lease was taken over');
        else app.log.error({ err: error }, `${job} failed`);
      };
      let lastRollover = utcDay(nowMs());
      const timer = setInterval(() => {
        if (!cluster.jobs.leading()) {
          lastRollover = utcDay(nowMs());
          return;
        }
        trading.checkStopOuts().catch(jobFailed('stop-out check'));
        const today = utcDay(nowMs());
        if (today !== lastRollover) {
          lastRollover = today;
          trading.chargeOvernight(today).catch(jobFailed('overnight fees'));
        }
      }, settings.riskCheckMs);
      timer.unref();
      app.addHook('onClose', () => clearInterval(timer));
    },
  };
}
