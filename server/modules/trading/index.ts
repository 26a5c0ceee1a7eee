import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import type { DomainEvents } from '../../events/domain-events';
import type { SessionCheck, SignedInRoutes } from '../../http/signed-in';
import type { MarketDataService } from '../../market/market-data-service';
import type { Settings } from '../../settings';
import type { Ledger } from '../ledger/ledger';
import { createPositionsFeed, type PositionsFeed } from './positions-feed';
import { registerPositionsSocket } from './positions-socket';
import { registerTradingRoutes } from './trading-routes';
import { createTradingService, type TradingService } from './trading-service';

declare module 'fastify' {
  interface FastifyInstance {
    trading: TradingService;
    positionsFeed: PositionsFeed;
  }
}

/** UTC calendar day of a time, the overnight fee's unit. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Market orders and positions, their live feed (`/exchange/ws`), stop-out and the overnight fee. */
export async function registerTrading(
  app: FastifyInstance,
  deps: {
    settings: Settings;
    database: DatabaseHandle;
    ledger: Ledger;
    market: MarketDataService;
    sessions: SessionCheck;
    events: DomainEvents;
    signedIn: SignedInRoutes;
    nowMs?: (() => number) | undefined;
  },
): Promise<{ trading: TradingService; positionsFeed: PositionsFeed; startRiskChecks(): void }> {
  const { settings, ledger, market, sessions } = deps;
  const db = deps.database.db;
  const nowMs = deps.nowMs ?? Date.now;
  const positionsFeed = createPositionsFeed({
    db,
    ledger,
    market,
    sessionAlive: (session) => sessions.alive(session),
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  deps.events.sessionsEnded.listen((ended) => positionsFeed.endSessions(ended));
  const trading = createTradingService({
    onChange: (uid, book) => positionsFeed.changed(uid, book),
    db,
    ledger,
    market,
    stalePriceMs: settings.stalePriceMs,
    minHoldSeconds: settings.minHoldSeconds,
    forexMinDeposit: settings.forexMinDeposit,
    stopOutLevelPercent: settings.stopOutLevelPercent,
    maxPendingOrders: settings.maxPendingOrders,
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
    log: (message, error) => app.log.error({ err: error }, message),
  });
  await trading.restore();
  await registerTradingRoutes(deps.signedIn, trading);
  registerPositionsSocket(app, {
    feed: positionsFeed,
    sessions,
    socketsPerAddress: settings.positionsSocketsPerAddress,
    socketsPerUser: settings.positionsSocketsPerUser,
  });
  app.decorate('trading', trading);
  app.decorate('positionsFeed', positionsFeed);
  app.addHook('onClose', async () => {
    positionsFeed.stop();
    trading.stop();
    await trading.settled();
  });

  return {
    trading,
    positionsFeed,
    /** Stop-out checks, and the overnight fee once per UTC day (keys make reruns harmless); started once options cover trading. */
    startRiskChecks() {
      let lastRollover = utcDay(nowMs());
      const timer = setInterval(() => {
        trading.checkStopOuts().catch((error: unknown) => app.log.error({ err: error }, 'stop-out check failed'));
        const today = utcDay(nowMs());
        if (today !== lastRollover) {
          lastRollover = today;
          trading.chargeOvernight(today).catch((error: unknown) => app.log.error({ err: error }, 'overnight fees failed'));
        }
      }, settings.riskCheckMs);
      timer.unref();
      app.addHook('onClose', () => clearInterval(timer));
    },
  };
}
