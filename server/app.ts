import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TokenService } from './auth/tokens';
import type { DatabaseHandle } from './db/database';
import { registerDevRoutes } from './dev';
import { createDomainEvents } from './events/domain-events';
import { registerErrorHandler } from './http/error-handler';
import { registerJsonBody } from './http/json-body';
import { redactingLogger } from './http/log-redaction';
import { registerSecurityHeaders } from './http/security-headers';
import { registerStaticApp } from './http/static-app';
import { registerMarket } from './modules/market';
import type { MarketDataSource } from './modules/market/sources/market-data-source';
import { registerAccount } from './modules/account';
import type { MessageDelivery } from './modules/identity/delivery';
import { registerIdentity } from './modules/identity';
import { createLedger } from './modules/ledger/ledger';
import { registerOptions } from './modules/options';
import { registerSite } from './modules/site';
import { registerTrading, registerTradingReads } from './modules/trading';
import type { Settings } from './settings';
import { tradeModeOffered as isTradeModeOffered, type TradeMode } from '../src/shared/config/trade-mode';

export interface ServerDependencies {
  settings: Settings;
  database: DatabaseHandle;
  tokens: TokenService;
  logger?: FastifyServerOptions['logger'];
  /** The price source; the one the settings choose when not given, none when null (tests drive ticks). */
  marketSource?: MarketDataSource | null;
  marketSeed?: number;
  nowMs?: () => number;
  /** Where the data key and the mail outbox live; in memory when not given (tests). */
  dataDir?: string | null;
  /** How mail and SMS leave; the settings' SMTP or outbox when not given. */
  delivery?: MessageDelivery;
}

/**
 * Builds the whole server without listening, so tests can drive it in-process: the app's
 * request handling, external plugins, then the modules in dependency order (each registers
 * its routes, sockets, timers and closing), then the built app for everything else.
 */
export async function buildServer(dependencies: ServerDependencies): Promise<FastifyInstance> {
  const { settings, database, tokens, nowMs } = dependencies;
  const app = Fastify({
    logger: redactingLogger(dependencies.logger ?? { level: settings.logLevel }),
    bodyLimit: settings.bodyLimitBytes,
    // Only the listed proxies may say who the client is; by default X-Forwarded-For is
    // ignored, else any client could pick the address every rate limit keys on.
    trustProxy: settings.trustProxy.length > 0 ? settings.trustProxy : false,
  });
  // Before any module: the scopes modules open inherit the parser, the hooks and the handler.
  registerJsonBody(app);
  registerErrorHandler(app);

  const events = createDomainEvents();
  const site = await registerSite(app, { settings, database });
  // The content security policy names the customer-service chat the site stores.
  await registerSecurityHeaders(app, {
    staticDir: settings.staticDir,
    brandConfigPath: settings.brandConfigPath,
    behindTls: settings.behindTls,
    customerLink: () => site.customerLink(),
  });
  // Identity registers the signed-in check, which the modules after it declare their calls through.
  const { identity, sessions, signedIn, delivery } = await registerIdentity(app, {
    settings,
    database,
    tokens,
    site,
    events,
    dataDir: dependencies.dataDir ?? null,
    delivery: dependencies.delivery,
    nowMs,
  });
  const ledger = createLedger(database.db, nowMs);
  const { market, stomp, startPrices, feedControl } = await registerMarket(app, {
    settings,
    database,
    source: dependencies.marketSource,
    seed: dependencies.marketSeed,
    nowMs,
  });
  // Trading's reads first: options need its feed and free margin, trading's cover needs options, the demo reset both.
  const tradingReads = registerTradingReads(app, { settings, database, ledger, market, sessions, events });
  const { positionsFeed, freeMarginIn } = tradingReads;
  const tradeProhibited = (uid: number) => identity.tradeProhibited(uid);
  const tradeModeOffered = async (mode: TradeMode) => isTradeModeOffered(await site.switches(), mode);
  const options = await registerOptions(app, { settings, database, ledger, market, freeMarginIn, tradeProhibited, tradeModeOffered, positionsFeed, signedIn, nowMs });
  const { trading, startRiskChecks } = await registerTrading(app, { settings, database, ledger, market, reads: tradingReads, options, tradeProhibited, tradeModeOffered, signedIn, nowMs });
  await registerAccount({ settings, database, ledger, identity, trading, options, events, signedIn });
  registerDevRoutes(app, { settings, delivery, feedControl, identity, ledger });
  app.get('/healthz', async () => ({
    status: 'ok',
    database: database.kind,
    marketConnections: stomp.connectionCount(),
    positionsConnections: positionsFeed.connectionCount(),
  }));

  // Every module is wired: stop-outs may now lock options, and prices may now move.
  startRiskChecks();
  startPrices();
  await registerStaticApp(app, { staticDir: settings.staticDir, brandConfigPath: settings.brandConfigPath });
  return app;
}
