import crypto from 'node:crypto';
import { z } from 'zod';
import { formatMoney, money } from '../src/shared/money/money';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AccessTokenPayload } from '../src/shared/session/token';
import { ErrorCode } from '../src/shared/errors/catalogue';
import type { TokenService } from './auth/tokens';
import type { DatabaseHandle } from './db/database';
import { sendError } from './http/envelope';
import { redactingLogger } from './http/log-redaction';
import { containsNul } from './http/nul-guard';
import { registerSecurityHeaders } from './http/security-headers';
import { createConnectionLimit, tooManyConnectionsCode } from './http/connection-limits';
import { registerStaticApp } from './http/static-app';
import { instruments as seededInstruments, loadTestInstruments } from './market/catalogue';
import { createBrokerPublisher } from './market/broker-publisher';
import { teeTopicBus } from './market/fanout-bus';
import { createMarketDataService, type MarketDataService } from './market/market-data-service';
import { createMarketRepository } from './market/market-repository';
import { registerMarketRoutes } from './market/market-routes';
import type { MarketDataSource } from './market/sources/market-data-source';
import { selectMarketSource } from './market/sources/select-source';
import { registerStompEndpoint, type StompEndpoint } from './market/stomp/stomp-endpoint';
import { createTopicBus, type TopicBus } from './market/topic-bus';
import { parseMarketDestination } from '../src/shared/api/market';
import { createSiteRepository } from './modules/site/site-repository';
import { registerSiteRoutes } from './modules/site/site-routes';
import { createSiteService } from './modules/site/site-service';
import { createDataCipher, loadDataKey } from './auth/data-key';
import { createFailureThrottle } from './auth/failure-throttle';
import { createRateLimiter } from './auth/rate-limiter';
import { createMessageDelivery, type MessageDelivery } from './modules/identity/delivery';
import { createIdentityRepository } from './modules/identity/identity-repository';
import { registerIdentityRoutes } from './modules/identity/identity-routes';
import { createIdentityService, type IdentityService } from './modules/identity/identity-service';
import { registerAccountRoutes } from './modules/account/account-routes';
import { createAccountRepository } from './modules/account/account-repository';
import { createAccountOpening, createAccountService } from './modules/account/account-service';
import { createLedger } from './modules/ledger/ledger';
import { registerOptionsRoutes } from './modules/options/options-routes';
import { createOptionsService, type OptionsService } from './modules/options/options-service';
import { createPositionsFeed, type PositionsFeed } from './modules/trading/positions-feed';
import { registerTradingRoutes } from './modules/trading/trading-routes';
import { createFreeMarginRead } from './modules/trading/free-margin';
import { createTradingRepository } from './modules/trading/trading-repository';
import { createTradingService, type TradingService } from './modules/trading/trading-service';
import type { Settings } from './settings';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified access token of a `/v1/waa/` call. */
    auth: AccessTokenPayload | null;
  }
}

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

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityService;
    market: MarketDataService;
    trading: TradingService;
    /** Timed options (not `options`: Fastify has that route method). */
    timedOptions: OptionsService;
    positionsFeed: PositionsFeed;
    topicBus: TopicBus;
    marketStomp: StompEndpoint;
  }
}

/** How often changed prices are published, and how often finished bars are written. */
const marketFlushMs = 100;
const marketPersistMs = 5_000;

const signedInPrefix = '/v1/waa/';
const checkTokenPath = '/v1/waa/user/checkToken';
/** The exchange calls are signed in too (bearer token). */
const exchangePrefix = '/exchange/';
const positionsSocketPath = '/exchange/ws';
const apiPrefixes = ['/v1/', '/market/', '/exchange/', '/dev/'];

/** Whether a path belongs to the signed-in calls (`/v1/waa/…`, `/exchange/…`). */
function signedInRoute(path: string | undefined): boolean {
  return path !== undefined && (path.startsWith(signedInPrefix) || path.startsWith(exchangePrefix));
}

/** A URL's path decoded, lower-cased and with runs of slashes collapsed: no spelling of a signed-in path escapes the check. */
function normalizedPath(url: string): string {
  const raw = url.split('?')[0] ?? '';
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // A malformed escape matches no route; the raw path is checked as it is.
  }
  return path.replace(/\/+/g, '/').toLowerCase();
}

export const defaultBanners = ['/banners/banner-1.svg', '/banners/banner-2.svg', '/banners/banner-3.svg'];
/** Builds the whole server without listening, so tests can drive it in-process. */
export async function buildServer(dependencies: ServerDependencies): Promise<FastifyInstance> {
  const { settings, database, tokens } = dependencies;
  const app = Fastify({
    logger: redactingLogger(dependencies.logger ?? { level: settings.logLevel }),
    bodyLimit: settings.bodyLimitBytes,
    // Only the listed proxies may say who the client is; by default X-Forwarded-For is
    // ignored, else any client could pick the address every rate limit keys on.
    trustProxy: settings.trustProxy.length > 0 ? settings.trustProxy : false,
  });

  // An empty body is an empty object: several calls take no arguments.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const error = Object.assign(new Error('malformed JSON body'), { statusCode: 400, code: 'MALFORMED_JSON' });
      return done(error, undefined);
    }
    // Refused here, before any handler: a NUL in a string or key fails SQL (see nul-guard.ts).
    if (containsNul(parsed)) return done(Object.assign(new Error('NUL in JSON body'), { statusCode: 400, code: 'NUL_IN_BODY' }), undefined);
    done(null, parsed);
  });
  // The same for query strings and path parameters (market routes, the sockets' queries, /dev/outbox).
  app.addHook('preValidation', async (request, reply) => {
    if (containsNul(request.query) || containsNul(request.params)) return sendError(request, reply, ErrorCode.INCORRECT_PARAMETER_CONTENT);
  });

  app.decorateRequest('auth', null);

  const siteRepository = createSiteRepository(database.db);
  const siteService = createSiteService(siteRepository);
  await registerSecurityHeaders(app, {
    staticDir: settings.staticDir,
    brandConfigPath: settings.brandConfigPath,
    behindTls: settings.behindTls,
    customerLink: () => siteService.customerLink(),
  });
  const cipher = createDataCipher(await loadDataKey({ dataKeySetting: settings.dataEncryptionKey, dataDir: dependencies.dataDir ?? null }));
  const delivery = dependencies.delivery ?? createMessageDelivery({ smtpUrl: settings.smtpUrl, mailFrom: settings.mailFrom, dataDir: dependencies.dataDir ?? null });
  const minute = 60_000;
  const identityRepository = createIdentityRepository(database.db);
  const ledger = createLedger(database.db, dependencies.nowMs);
  let positionsFeedLate: PositionsFeed | null = null;
  const demoBalance = money(settings.demoBalance);
  const openAccounts = createAccountOpening({ ledger, demoBalance });
  const identity = createIdentityService({
    repository: identityRepository,
    onRegistered: (uid) => openAccounts(uid),
    tokens,
    cipher,
    delivery,
    limits: {
      login: createRateLimiter({ limit: settings.loginAttemptsPer15Min, windowMs: 15 * minute }),
      codeSending: createRateLimiter({ limit: settings.codesSentPer10Min, windowMs: 10 * minute }),
      codeChecking: createRateLimiter({ limit: settings.codeChecksPer10Min, windowMs: 10 * minute }),
      captcha: createRateLimiter({ limit: 30, windowMs: minute }),
      accountSignIn: createFailureThrottle(database.db, { freeFailures: settings.loginFailuresBeforeDelay, maxDelaySeconds: settings.authDelayMaxSeconds }, dependencies.nowMs),
      codeFailures: createFailureThrottle(database.db, { freeFailures: settings.codeFailuresBeforeDelay, maxDelaySeconds: settings.authDelayMaxSeconds }, dependencies.nowMs),
    },
    settings: {
      refreshTokenTtlSeconds: settings.refreshTokenTtlSeconds,
      siteName: settings.siteName,
      virtualTradingOnce: settings.virtualTradingOnce,
      codesPerDestination: settings.codesSentPer10Min,
    },
    switches: () => siteService.switches(),
    log: (message, error) => app.log.error({ err: error }, message),
    // The positions feed starts with the market further down; ended sessions reach it late-bound.
    onSessionsEnded: (ended) => positionsFeedLate?.endSessions(ended),
    ...(dependencies.nowMs ? { nowMs: dependencies.nowMs } : {}),
  });

  app.addHook('onRequest', async (request, reply) => {
    // Decided by the route that matched (the router decodes %-escapes), and by the path as
    // the router would read it for anything unmatched, never by the raw URL alone.
    const route = request.routeOptions.url;
    if (!signedInRoute(route) && !signedInRoute(normalizedPath(request.url))) return;
    // The positions socket carries its token in the query (browsers cannot set headers there).
    if (route === positionsSocketPath) return;
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    const payload = token ? await tokens.verifyAccessToken(token) : null;
    const checkingToken = route === checkTokenPath;
    if (!payload) {
      if (checkingToken) return sendError(request, reply, ErrorCode.LIST_FAILURE);
      return sendError(request, reply, ErrorCode.NOT_LOGGED_IN, { httpStatus: 401 });
    }
    // A valid signature is not enough: the session may have been ended server-side.
    if (!(await identity.sessionAlive(payload))) {
      return sendError(request, reply, checkingToken ? ErrorCode.LIST_FAILURE : ErrorCode.SESSION_ENDED);
    }
    request.auth = payload;
  });

  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 413) return sendError(request, reply, ErrorCode.INCORRECT_PARAMETER_CONTENT, { httpStatus: 413 });
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type and the like: answered, so HTTP 200 with a code.
      return sendError(request, reply, ErrorCode.INCORRECT_PARAMETER_CONTENT);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, ErrorCode.UNKNOWN_ERROR, { httpStatus: 500 });
  });

  app.get('/healthz', async () => ({
    status: 'ok',
    database: database.kind,
    marketConnections: app.hasDecorator('marketStomp') ? app.marketStomp.connectionCount() : 0,
    positionsConnections: app.hasDecorator('positionsFeed') ? app.positionsFeed.connectionCount() : 0,
  }));

  await siteRepository.seedDefaults({ banners: defaultBanners, customerLink: settings.customerServiceLink, switchOverrides: settings.switchOverrides });
  registerSiteRoutes(app, siteService);
  registerIdentityRoutes(app, identity, { delivery, devOutbox: settings.devOutbox });
  app.decorate('identity', identity);
  // Codes and notices still being sent go out before the server (and its database) closes.
  app.addHook('onClose', () => identity.settled());

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
  const market = createMarketDataService({
    instruments,
    repository: createMarketRepository(database.db),
    publisher: teeTopicBus(topicBus, broker),
    ...(dependencies.nowMs ? { nowMs: dependencies.nowMs } : {}),
    ...(dependencies.marketSeed !== undefined ? { seed: dependencies.marketSeed } : settings.marketSeed !== null ? { seed: settings.marketSeed } : {}),
  });
  const resumeAt = await market.initialize();
  app.decorate('market', market);
  app.decorate('topicBus', topicBus);
  registerMarketRoutes(app, market);
  const marketStomp = await registerStompEndpoint(app, {
    path: '/market/stomp',
    bus: topicBus,
    maxConnectionsPerAddress: settings.marketConnectionsPerAddress,
    allowedDestination: (destination) => {
      const parsed = parseMarketDestination(destination);
      return parsed !== null && (parsed.topic === 'prices' || market.knownSymbol(parsed.symbol));
    },
  });
  app.decorate('marketStomp', marketStomp);

  const source =
    dependencies.marketSource === undefined
      ? await selectMarketSource({ settings, instruments, resumeAt, log: app.log })
      : dependencies.marketSource;
  app.log.info({ source: source?.name ?? 'none' }, 'market data source');
  const orders = createTradingRepository(database.db);
  const accountRepository = createAccountRepository(database.db);
  const tradeProhibited = (uid: number) => accountRepository.tradeProhibited(uid);
  const positionsFeed = createPositionsFeed({
    orders,
    ledger,
    market,
    intervalMs: settings.positionsFeedIntervalMs,
    sessionRecheckMs: settings.positionsSessionRecheckMs,
    sessionAlive: (session) => identity.sessionAlive(session),
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  positionsFeedLate = positionsFeed;
  // In dependency order, each module given what it needs when it is created: the free-margin
  // read (orders and ledger), then options (which need it), then trading (whose
  // negative-balance protection ends options), then the account (whose demo reset ends both).
  const freeMarginIn = createFreeMarginRead({ orders, ledger, market });
  const options = createOptionsService({
    db: database.db,
    ledger,
    market,
    settings: {
      stalePriceMs: settings.stalePriceMs,
      settlementGraceMs: settings.optionSettlementGraceMs,
      settlementBatch: settings.optionSettlementBatch,
      settlementSweepMs: settings.optionSettlementSweepMs,
      tickFlushMs: settings.optionTickFlushMs,
      tickBufferMax: settings.optionTickBufferMax,
      tickRetentionHours: settings.optionTickRetentionHours,
    },
    freeMarginIn,
    tradeProhibited,
    onOrder: (uid, book, order) => positionsFeed.sendTo(uid, book, { type: 'option', data: order }),
    onChange: (uid, book) => positionsFeed.changed(uid, book),
    ...(dependencies.nowMs ? { nowMs: dependencies.nowMs } : {}),
    log: (message, error) => app.log.error({ err: error }, message),
  });
  const trading = createTradingService({
    onChange: (uid, book) => positionsFeed.changed(uid, book),
    db: database.db,
    orders,
    ledger,
    market,
    freeMarginIn,
    options,
    tradeProhibited,
    stalePriceMs: settings.stalePriceMs,
    minHoldSeconds: settings.minHoldSeconds,
    forexMinDeposit: settings.forexMinDeposit,
    stopOutLevelPercent: settings.stopOutLevelPercent,
    maxPendingOrders: settings.maxPendingOrders,
    ...(dependencies.nowMs ? { nowMs: dependencies.nowMs } : {}),
    log: (message, error) => app.log.error({ err: error }, message),
  });
  await trading.restore();
  // Before the price source starts: options that ended while the server was down settle on the ticks recorded then.
  await options.start();
  const accounts = createAccountService({ db: database.db, ledger, users: identityRepository, open: openAccounts, demoBalance, trading, options });
  registerAccountRoutes(app, accounts);
  // Stop-out every second; the overnight fee once per UTC day (keys make reruns harmless).
  let lastRollover = new Date(dependencies.nowMs?.() ?? Date.now()).toISOString().slice(0, 10);
  const tradingTimer = setInterval(() => {
    trading.checkStopOuts().catch((error: unknown) => app.log.error({ err: error }, 'stop-out check failed'));
    const today = new Date(dependencies.nowMs?.() ?? Date.now()).toISOString().slice(0, 10);
    if (today !== lastRollover) {
      lastRollover = today;
      trading.chargeOvernight(today).catch((error: unknown) => app.log.error({ err: error }, 'overnight fees failed'));
    }
  }, 1_000);
  tradingTimer.unref();
  registerTradingRoutes(app, trading);
  registerOptionsRoutes(app, options);
  const positionsPerAddress = createConnectionLimit(settings.positionsSocketsPerAddress);
  const positionsPerUser = createConnectionLimit(settings.positionsSocketsPerUser);
  app.get(positionsSocketPath, { websocket: true }, (socket, request) => {
    const token = (request.query as { token?: string }).token ?? '';
    const refuse = () => socket.close(4401, 'sign-in required');
    const releases: (() => void)[] = [];
    let detach: (() => void) | null = null;
    let closed = false;
    socket.on('close', () => {
      closed = true;
      detach?.();
      for (const release of releases) release();
    });
    const byAddress = positionsPerAddress.acquire(request.ip);
    if (!byAddress) return socket.close(tooManyConnectionsCode, 'too many connections from this address');
    releases.push(byAddress);
    void (async () => {
      const payload = token ? await tokens.verifyAccessToken(token) : null;
      if (!payload?.fid || !(await identity.sessionAlive(payload))) return refuse();
      if (closed) return;
      const byUser = positionsPerUser.acquire(String(payload.uid));
      if (!byUser) return socket.close(tooManyConnectionsCode, 'too many connections for this account');
      releases.push(byUser);
      // Remembered with its session, so that the socket closes (4401) when the session ends.
      const session = { uid: payload.uid, fid: payload.fid, virtualStatus: payload.virtualStatus };
      detach = await positionsFeed.attach(socket, payload.uid, payload.virtualStatus === 0 ? 'real' : 'demo', session);
      if (closed) return detach();
      // A session that ended while this socket was joining was announced before it was
      // listed: look once more rather than leave it to the periodic re-check.
      if (!(await identity.sessionAlive(payload))) positionsFeed.endSessions({ fid: payload.fid });
    })().catch((error: unknown) => {
      app.log.error({ err: error }, 'positions socket failed');
      refuse();
    });
  });
  app.decorate('trading', trading);
  app.decorate('timedOptions', options);
  app.decorate('positionsFeed', positionsFeed);
  app.addHook('onClose', async () => {
    clearInterval(tradingTimer);
    await options.stop();
    positionsFeed.stop();
    trading.stop();
    await trading.settled();
  });
  const flushTimer = setInterval(() => market.flush(), marketFlushMs);
  const persistTimer = setInterval(() => {
    market.persist().catch((error: unknown) => app.log.error({ err: error }, 'saving bars failed'));
  }, marketPersistMs);
  source?.start((ticks) => market.ingest(ticks));
  if (settings.devMarketControl && source) {
    // For browser tests and local checks of the stale flag: stop and restart the feed.
    app.post('/dev/market/pause', async () => {
      source.stop();
      return { paused: true };
    });
    app.post('/dev/market/resume', async () => {
      source.start((ticks) => market.ingest(ticks));
      return { paused: false };
    });
  }
  if (settings.devFunding) {
    // Browser tests of real-account trading need money, and no deposit flow exists yet:
    // credit real cash exactly as a deposit will (a 'deposit' journal from the house).
    const fundBody = z.strictObject({ uid: z.number().int().positive(), amount: z.string().regex(/^\d{1,12}(\.\d{1,8})?$/) });
    app.post('/dev/fund', async (request, reply) => {
      const body = fundBody.safeParse(request.body);
      const amount = body.success ? money(body.data.amount) : 0n;
      if (!body.success || amount <= 0n) return reply.code(400).send({ error: 'expected { uid, amount > 0 }' });
      const user = await database.db.selectFrom('app_user').select('uid').where('uid', '=', body.data.uid).executeTakeFirst();
      if (!user) return reply.code(404).send({ error: 'no such user' });
      await ledger.creditDeposit({ uid: user.uid, amount, idempotencyKey: `dev-fund:${crypto.randomUUID()}` });
      return { funded: formatMoney(amount) };
    });
  }
  app.addHook('onClose', async () => {
    source?.stop();
    clearInterval(flushTimer);
    clearInterval(persistTimer);
    market.flush();
    await market.persist(true);
  });

  const staticApp = await registerStaticApp(app, {
    staticDir: settings.staticDir,
    brandConfigPath: settings.brandConfigPath,
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (apiPrefixes.some((prefix) => path.startsWith(prefix))) {
      return sendError(request, reply, ErrorCode.INCORRECT_URL, { httpStatus: 404 });
    }
    const isPage = request.method === 'GET' && !/\.[a-z0-9]+$/i.test(path);
    if (isPage) return staticApp.sendIndex(reply);
    return reply.status(404).type('text/plain').send('Not found');
  });

  return app;
}
