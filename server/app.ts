import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from './db/schema';
import { createDataCipher, loadDataKey } from './auth/data-key';
import type { TokenService } from './auth/tokens';
import { createSharedConnectionLimits } from './http/connection-limits';
import type { DatabaseHandle } from './db/database';
import { registerDevRoutes } from './dev';
import { createDomainEvents } from './events/domain-events';
import { registerCompression } from './http/compression';
import { registerCrossOrigin } from './http/cross-origin';
import { registerErrorHandler } from './http/error-handler';
import { registerJsonBody } from './http/json-body';
import { registerMultipart } from './http/multipart';
import { redactingLogger } from './http/log-redaction';
import { loadBrand } from './brand/brand-folder';
import { registerSecurityHeaders } from './http/security-headers';
import { registerStaticApp } from './http/static-app';
import { registerMarket } from './modules/market';
import type { MarketDataSource } from './modules/market/sources/market-data-source';
import { registerAccount } from './modules/account';
import type { MessageDelivery } from './messaging/delivery';
import { registerIdentity } from './modules/identity';
import { createLedger } from './modules/ledger/ledger';
import { registerNotices, registerNoticesStaffRoutes } from './modules/notices';
import { registerOptions } from './modules/options';
import { registerReviews } from './modules/reviews';
import { registerSite } from './modules/site';
import { registerStaff } from './modules/staff';
import { registerConfigProposals } from './modules/config-proposals';
import { registerStaffConfig } from './modules/staff-config';
import { registerStaffCustomers } from './modules/staff-customers';
import { registerTrading, registerTradingReads } from './modules/trading';
import { registerDeposits } from './modules/deposits';
import { registerLoans } from './modules/loans';
import { createDepositsRepository } from './modules/deposits/deposits-repository';
import { registerFundRecords } from './modules/fund-records';
import { registerUploads } from './modules/uploads';
import { registerProfile } from './modules/profile';
import { registerWallet } from './modules/wallet';
import { createWithdrawalLimits, createWithdrawalsRepository, registerWithdrawals, withdrawalLedger, withdrawalWallet } from './modules/withdrawals';
import { createVerificationRepository, registerVerification, verifiedStatusOf } from './modules/verification';
import { runOnce } from './http/idempotency';
import type { Settings } from './settings';
import { soleProcess, type ClusterContext } from './cluster/cluster-context';
import { VerifiedStatus } from '../src/shared/api/verification';
import type { VerificationLevelName } from '../src/shared/money/withdrawal-limits';
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
  /** This process among several (SERVER_ROLES); one process doing everything when not given. */
  cluster?: ClusterContext;
}

/** What /healthz says of the prices: live, or which open markets this process has no live tick of (at most 20 named). */
function pricesHealth(staleOpen: readonly string[]) {
  return { live: staleOpen.length === 0, staleOpenMarkets: staleOpen.length, stale: staleOpen.slice(0, 20) };
}

/**
 * Builds the whole server without listening, so tests can drive it in-process: the app's
 * request handling, external plugins, then the modules in dependency order (each registers
 * its routes, sockets, timers and closing), then the built app for everything else.
 */
export async function buildServer(dependencies: ServerDependencies): Promise<FastifyInstance> {
  const { settings, database, tokens, nowMs } = dependencies;
  // First: a brand whose files are missing or wrong stops the start, naming the file and the field.
  const brand = loadBrand({ brandDir: settings.brandDir, brandConfigPath: settings.brandConfigPath, stopOutLevelPercent: settings.stopOutLevelPercent });
  const app = Fastify({
    logger: redactingLogger(dependencies.logger ?? { level: settings.logLevel }),
    bodyLimit: settings.bodyLimitBytes,
    // Only the listed proxies may say who the client is; by default X-Forwarded-For is
    // ignored, else any client could pick the address every rate limit keys on.
    trustProxy: settings.trustProxy.length > 0 ? settings.trustProxy : false,
  });
  // Before any module: the scopes modules open inherit the parser, the hooks and the handler.
  // Compression first: it attaches itself to each route declared after it.
  await registerCrossOrigin(app, { allowedOrigins: settings.allowedOrigins });
  await registerCompression(app);
  registerJsonBody(app);
  await registerMultipart(app);
  registerErrorHandler(app);

  const cluster = dependencies.cluster ?? soleProcess();
  // Registered first, so it runs last at close: the modules stop acting, then the leases are given up.
  app.addHook('onClose', () => cluster.stop());
  if (!settings.roles.has('api')) {
    // A market or jobs process serves no customer: only its health answers.
    app.addHook('onRequest', async (request, reply) => {
      if (request.url !== '/healthz') await reply.code(404).send();
    });
  }
  const events = createDomainEvents();
  const { site, firstStart } = await registerSite(app, { settings, database, seed: brand.seed, brand });
  // The content security policy names the customer-service chat the site stores.
  await registerSecurityHeaders(app, {
    brandConfigFile: brand.configFile,
    behindTls: settings.behindTls,
    customerLink: () => site.customerLink(),
  });
  // Identity registers the signed-in check, which the modules after it declare their calls through.
  const { identity, sessions, signedIn, delivery, outbox, sendMessage } = await registerIdentity(app, {
    settings,
    database,
    tokens,
    site,
    events,
    dataDir: dependencies.dataDir ?? null,
    delivery: dependencies.delivery,
    nowMs,
  });
  // The staff core registers the staff scope; the staff modules registered after it receive its `staffRoutes` and `audit`.
  const { staffRoutes, audit, duties, conflicts } = await registerStaff(app, { settings, database, tokens, dataDir: dependencies.dataDir ?? null, messages: outbox, sendMessage, nowMs });
  // The review queues: the modules that own a review kind (money, account) receive `reviews` to register its effect and submit items.
  // Identity verification's statements: the review queues' conflict-of-interest test reads a customer's documents through them.
  const verificationRepository = createVerificationRepository(database.db);
  const customerOf = async (trx: Transaction<Database>, uid: number) => ({ uid, email: await identity.emailOf(uid, trx), documentDigests: await verificationRepository.documentDigestsOf(uid, trx) });
  const reviews = registerReviews(app, { settings, database, staffRoutes, audit, duties, conflicts, customerOf });
  // Uploaded images: stored by the modules that take them (deposits; avatars and identity documents), read back by owner and reviewer.
  const uploads = await registerUploads({
    settings,
    database,
    dataDir: dependencies.dataDir ?? null,
    signedIn,
    staffRoutes,
    reviews,
    audit,
    jobsLeading: () => cluster.jobs.leading(),
    log: (message, error) => app.log.error({ err: error }, message),
    nowMs,
  });
  app.decorate('uploads', uploads);
  const ledger = createLedger(database.db, nowMs);
  // Open sockets per address and per user, counted in the database: the limits hold across every process.
  const connectionLimits = createSharedConnectionLimits({
    db: database.db,
    keyOf: createDataCipher(await loadDataKey({ dataKeySetting: settings.dataEncryptionKey, dataDir: dependencies.dataDir ?? null })).digest,
    leaseMs: settings.connectionLeaseMs,
    nowMs,
    log: (message, error) => app.log.error({ err: error }, message),
  });
  app.addHook('onClose', () => connectionLimits.close());
  const { market, stomp, startPrices, feedControl, fencing } = await registerMarket(app, {
    settings,
    database,
    connectionLimits,
    source: dependencies.marketSource,
    seed: dependencies.marketSeed,
    nowMs,
    cluster,
    catalogue: brand.catalogue,
  });
  // Trading's reads first: options need its feed and free margin, trading's cover needs options, the demo reset both.
  const tradingReads = registerTradingReads(app, { settings, database, ledger, market, sessions, events, cluster, connectionLimits });
  const { positionsFeed, freeMarginIn } = tradingReads;
  // Withdrawals' own reads come before trading: while one awaits review, the real account cannot trade (406).
  const withdrawalsRepository = createWithdrawalsRepository(database.db);
  const withdrawalUnderReview = (uid: number) => withdrawalsRepository.hasPending(uid);
  // Made before trading, whose forex minimum-deposit rule reads the approved deposits.
  const depositsRepository = createDepositsRepository(database.db);
  const depositedUsd = (uid: number) => depositsRepository.approvedUsdTotal(uid);
  // Identity verification's reads come before the account (user/info's verifiedStatus) and withdrawals (1067).
  const verifiedStatus = async (uid: number) => verifiedStatusOf(await verificationRepository.latest(uid, 'full'));
  // The level that names a customer's withdrawal limits and deposit cap: the highest approved one.
  const verificationLevel = async (uid: number): Promise<VerificationLevelName> => {
    if ((await verifiedStatus(uid)) === VerifiedStatus.authenticated) return 'full';
    return verifiedStatusOf(await verificationRepository.latest(uid, 'junior')) === VerifiedStatus.authenticated ? 'junior' : 'none';
  };
  // The modes the app offers: the switches, and the brand's default mode when neither is on (its config.json).
  const brandModes = brand.config;
  const tradeModeOffered = async (mode: TradeMode) => isTradeModeOffered(await site.switches(), brandModes, mode);
  const options = await registerOptions(app, { settings, database, ledger, market, freeMarginIn, withdrawalUnderReview, tradeModeOffered, positionsFeed, signedIn, nowMs, cluster });
  const { trading, startRiskChecks } = await registerTrading(app, { settings, database, ledger, market, reads: tradingReads, options, withdrawalUnderReview, depositedUsd, tradeModeOffered, signedIn, nowMs, cluster });
  const walletType = async (uid: number): Promise<0 | 1> => ((await depositsRepository.ownAddresses(uid)).size > 0 ? 1 : 0);
  await registerAccount({ settings, database, ledger, identity, trading, options, events, signedIn, verifiedStatus, walletType });
  // Profile (nickname, avatar through uploads) and invite info.
  await registerProfile({ database, signedIn, uploads });
  // Wallets: currencies beside the USD trading cash; a transfer tells the account's open sockets its new balance.
  const wallet = await registerWallet({ settings, database, ledger, market, signedIn, nowMs, cashChanged: (uid) => positionsFeed.changed(uid, 'real') });
  // The exchange socket carries a user's notice count; the feed only delivers it.
  const notices = await registerNotices({ database, identity, messages: positionsFeed, signedIn, log: (message, error) => app.log.error({ err: error }, message) });
  // Deposits: the proof through uploads, the item through reviews, the credit through the ledger, the outcome as a notice.
  // Limits by verification level: withdrawals' (1071), and each level's largest deposit.
  const withdrawalLimits = createWithdrawalLimits({ db: database.db });
  // The brand's fees and limits at the first start only: later changes are the staff's.
  if (firstStart) {
    await options.seedProductTerms(brand.seed.optionProducts, brand.catalogue.filter((symbol) => symbol.options).map((symbol) => symbol.code));
    await database.db.transaction().execute((trx) => withdrawalLimits.writeLimits(trx, brand.seed.withdrawalLimits));
  }
  const depositCapUsd = async (uid: number) => (await withdrawalLimits.read())[await verificationLevel(uid)].depositMaxUsd;
  const deposits = await registerDeposits({ settings, database, signedIn, wallet, ledger, uploads, reviews, notices, repository: depositsRepository, depositCapUsd, nowMs });
  // Dual control: the set-calls that move money wait for a second admin.
  const proposals = registerConfigProposals({ database, staffRoutes, audit, duties, nowMs });
  // Withdrawals: saved addresses and cards, holds in the ledger, the 'withdrawal' review kind's effect.
  const withdrawals = await registerWithdrawals({
    settings,
    database,
    dataDir: dependencies.dataDir ?? null,
    repository: withdrawalsRepository,
    ledger: withdrawalLedger(ledger),
    wallet: withdrawalWallet(wallet),
    reviews,
    notices,
    site,
    verificationLevel,
    idempotent: (request, uid, path, work, confirm) => runOnce(database.db, { request, uid, path, ...(nowMs ? { nowMs } : {}), ...(confirm ? { confirm } : {}) }, work),
    signedIn,
    limits: withdrawalLimits,
    staffRoutes,
    proposals,
    requireEmail: (uid) => identity.requireEmail(uid),
    securityChangedAt: (uid) => identity.securityChangedAt(uid),
    confirmSecondFactor: (uid, code, client, requestTag) => identity.confirmSecondFactor(uid, code, client, requestTag),
    nowMs,
  });
  // Loans: the 'loan' (four-eyes) and 'repayment' review kinds, paid from and back to the house's loans; a cash change told to the account's sockets.
  await registerLoans({ database, signedIn, ledger, reviews, notices, site, repayAfterRejection: settings.loanRepayAfterRejection, cashChanged: (uid) => positionsFeed.changed(uid, 'real'), nowMs });
  // Identity verification: documents through uploads, the 'identity' and 'juniorIdentity' items through reviews, outcomes as notices.
  await registerVerification({ settings, database, dataDir: dependencies.dataDir ?? null, repository: verificationRepository, uploads, reviews, notices, site, signedIn, nowMs });
  // The deposit/withdraw records: one UNION ALL of the two modules' reads, paged by the database.
  await registerFundRecords({
    database,
    signedIn,
    sources: [deposits.recordSource, withdrawals.recordSource],
    destinationOf: (row) => withdrawals.recordDestination(row),
  });
  // The back office's customers, configuration and notices, through the owning modules' services.
  registerStaffCustomers({ database, staffRoutes, audit, identity, ledger, trading, options, deposits, verifiedStatus });
  registerStaffConfig({ database, staffRoutes, audit, site, market, options, wallet, proposals });
  registerNoticesStaffRoutes({ database, staffRoutes, audit, notices, identity });
  registerDevRoutes(app, { settings, delivery, feedControl, stomp });
  app.get('/healthz', async () => ({
    status: 'ok',
    database: database.kind,
    marketConnections: stomp.connectionCount(),
    positionsConnections: positionsFeed.connectionCount(),
    roles: settings.singleProcess ? ['all'] : [...settings.roles],
    leads: { market: cluster.market.leading(), jobs: cluster.jobs.leading() },
    // Open markets whose newest tick here is older than the staleness limit: quoted as stale, never filled, triggered or settled on.
    prices: pricesHealth(market.staleOpenSymbols()),
    // The market leader's tick batches this process took from a lease already taken over (must be 0), and those of an older lease it dropped.
    ticks: fencing(),
  }));

  // Every module is wired: stop-outs may now lock options, and prices may now move.
  startRiskChecks();
  startPrices();
  // With several processes: compete for the market and the jobs now that every module listens; give them up first at close.
  cluster.start();
  await registerStaticApp(app, { staticDir: settings.staticDir, brandConfigFile: brand.configFile, brandPublicDir: brand.publicDir });
  return app;
}
