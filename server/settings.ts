import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { staleAfterMs } from '../src/shared/market/price-freshness';
import { resendCodeAfterSeconds } from '../src/shared/auth/validation';
import { parseCustomerLinkSetting } from '../src/shared/config/customer-link';
import { isSwitchName, type SwitchName } from '../src/shared/config/switches';

/**
 * Every setting of the reference server, read once from the environment through this
 * schema, with the documented default. Business constants live here and nowhere else.
 */
/** permessage-deflate on the server's sockets (`SOCKET_COMPRESSION`). */
export type SocketCompression = 'per-socket' | 'shared' | 'off';

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** PostgreSQL instead of the embedded PGlite when set. */
  DATABASE_URL: z.string().url().optional(),
  /** Built app to serve; the API runs without it. */
  STATIC_DIR: z.string().default('./dist'),
  /** The brand: a folder of config.json, seed.json and public/ (README "Brands"). */
  BRAND_DIR: z.string().default('./brands/default'),
  /** A config.json served at /config.json instead of the brand folder's. */
  BRAND_CONFIG_PATH: z.string().optional(),
  /**
   * The deployment is reached over HTTPS only (TLS here or at a proxy in front): answers
   * carry HSTS and the content security policy upgrades insecure requests. Off by default,
   * since HSTS on a plain-HTTP host would lock browsers out of it.
   */
  BEHIND_TLS: flag.default(false),
  /**
   * `production` turns off development conveniences (each code sent to the outbox printed
   * in the log); anything else, or unset as with `npm start`, is development.
   */
  NODE_ENV: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Signing key for access tokens; generated once and kept under DATA_DIR when unset. */
  JWT_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).default(30 * 24 * 3600),
  /** Largest JSON request body, in bytes; larger ones get 413. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(64 * 1024),
  /** Manual close of a position is refused (409) before this many seconds. */
  MIN_HOLD_SECONDS: z.coerce.number().int().min(0).default(180),
  /** Virtual balance of a new or reset demo account, in USD. */
  DEMO_BALANCE: z.string().regex(/^\d+(\.\d+)?$/).default('100000'),
  /** Forex trading on the real account needs at least this much in total deposits (320); 0 turns the rule off. */
  FOREX_MIN_DEPOSIT: z.string().regex(/^\d+(\.\d+)?$/).default('100000'),
  /** Pending orders one account may have waiting at once (more: 1010). */
  MAX_PENDING_ORDERS: z.coerce.number().int().min(1).max(10_000).default(50),
  /** A margin level (equity ÷ margin) below this percentage closes positions (stop-out). */
  STOP_OUT_LEVEL_PERCENT: z.coerce.number().min(0).max(1000).default(50),
  /**
   * A tick older than this cannot fill an order or start an option (601); an option whose
   * latest recorded tick at its end time is older than this is void and refunded.
   */
  STALE_PRICE_MS: z.coerce.number().int().min(100).default(staleAfterMs),
  /**
   * Options settle on the recorded tick at their end time: a run starts this long after
   * the second an option ends in, and settles this many options per transaction. The
   * grace must exceed OPTION_TICK_FLUSH_MS, so that the tick at the end time is written
   * (by whichever instance recorded it) before any instance settles on it.
   */
  OPTION_SETTLEMENT_GRACE_MS: z.coerce.number().int().min(0).max(10_000).default(300),
  OPTION_SETTLEMENT_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /** A settlement sweep this often catches options no timer covers (another instance placed them). */
  OPTION_SETTLEMENT_SWEEP_MS: z.coerce.number().int().min(100).default(5_000),
  /** Ticks of symbols with running options are written this often, at most this many held in memory. */
  OPTION_TICK_FLUSH_MS: z.coerce.number().int().min(10).max(1_000).default(100),
  OPTION_TICK_BUFFER_MAX: z.coerce.number().int().min(100).default(10_000),
  /** Recorded ticks older than this are deleted (never one a running option may still settle on). */
  OPTION_TICK_RETENTION_HOURS: z.coerce.number().int().min(1).default(24),
  /** SMTP server for e-mail (smtp://user:pass@host:587); without it mail goes to the outbox under DATA_DIR. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('TradeWeb <no-reply@tradeweb.example>'),
  /**
   * SMS through an HTTP webhook: each message POSTed as JSON to this URL, signed with
   * SMS_WEBHOOK_SECRET (HMAC-SHA256 of the body, header x-tradeweb-signature). Both or neither;
   * without them SMS go to the outbox under DATA_DIR.
   */
  SMS_WEBHOOK_URL: z.string().url().optional(),
  SMS_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** A failed mail or SMS is tried again after this long, then twice as long each time (up to 15 minutes). */
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Key for sensitive fields at rest (32 bytes, base64). Without it one is made under DATA_DIR/secrets. */
  DATA_ENCRYPTION_KEY: z.string().optional(),
  /** The name in mails and in authenticator apps. */
  SITE_NAME: z.string().min(1).default('TradeWeb'),
  /**
   * A user may switch to the demo account only once (code 701 afterwards), as the spec has
   * it; `0` lets a brand's customers go back to demo as often as they like.
   */
  VIRTUAL_TRADING_ONCE: flag.default(true),
  /**
   * The proxies whose X-Forwarded-For is believed, as addresses or CIDRs (and proxy-addr's
   * names loopback, linklocal, uniquelocal), comma-separated. Empty: forwarded headers are
   * ignored and every limit keys on the connection's own address, which a client cannot choose.
   */
  /**
   * The origins, besides this server's own, whose pages may call the API and open the sockets
   * (a brand's app on another origin than its API): exact origins, comma-separated.
   */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .refine((value) => parseAllowedOrigins(value) !== null, 'expected comma-separated origins (e.g. https://app.example.com,http://localhost:5173), without path or wildcard'),
  TRUST_PROXY: z
    .string()
    .default('')
    .refine((value) => parseTrustProxy(value) !== null, 'expected comma-separated IP addresses or CIDRs (e.g. 10.0.0.1,10.1.0.0/16)'),
  /** Per account: sign-in failures before each further one doubles the wait (1 s, 2 s, 4 s …). */
  LOGIN_FAILURES_BEFORE_DELAY: z.coerce.number().int().min(1).default(5),
  /** Per destination (register and reset codes) and per user (second factor): failed code checks before the growing wait. */
  CODE_FAILURES_BEFORE_DELAY: z.coerce.number().int().min(1).default(10),
  /** The longest wait the growing delay reaches, in seconds (a delay, never a lock). */
  AUTH_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Rate limits: sign-in attempts per account and address per 15 minutes; codes sent per address (and per destination) per 10 minutes; code checks per address per 10 minutes. */
  LOGIN_ATTEMPTS_PER_15_MIN: z.coerce.number().int().min(1).default(10),
  /** Per device cookie (a browser that signed in to the account before): failed sign-ins in a row before it is trusted no more. */
  DEVICE_COOKIE_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  CODES_SENT_PER_10_MIN: z.coerce.number().int().min(1).default(20),
  CODE_CHECKS_PER_10_MIN: z.coerce.number().int().min(1).default(30),
  /** Images one account may upload per 10 minutes (avatars, deposit proofs, documents); more answer 1033 with the wait. */
  UPLOADS_PER_10_MIN: z.coerce.number().int().min(1).default(20),
  /**
   * Open sockets per client address (market STOMP, positions) and positions sockets per
   * user; more are refused with close code 4429. A browser holds one of each, but an
   * office or a mobile carrier puts many browsers behind one address.
   */
  MARKET_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  /** permessage-deflate on the market STOMP endpoint and the exchange socket (bounded windows; see stomp-upgrade.ts). */
  // 1: each socket keeps its deflate context (fewest bytes, a deflate per socket); shared:
  // one deflate per publication for every socket (least CPU, several times the bytes); 0: off.
  SOCKET_COMPRESSION: z
    .enum(['0', '1', 'true', 'false', 'shared'])
    .default('1')
    .transform((value): SocketCompression => (value === 'shared' ? 'shared' : value === '1' || value === 'true' ? 'per-socket' : 'off')),
  POSITIONS_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  POSITIONS_SOCKETS_PER_USER: z.coerce.number().int().min(1).default(10),
  /** The most often a moving market pushes one account's positions feed, in ms. */
  POSITIONS_FEED_INTERVAL_MS: z.coerce.number().int().min(50).max(10_000).default(250),
  /**
   * How often the positions feed checks its open sockets' sessions, in ms, so that ends
   * no announcement reaches (another server process, a user blocked in the database) are caught.
   */
  POSITIONS_SESSION_RECHECK_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** How often stop-out runs (and the UTC day's rollover, which charges the overnight fee, is looked for), in ms. */
  RISK_CHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(1_000),
  /** Development outbox for mail and SMS, readable at GET /dev/outbox. Never on by default. */
  DEV_OUTBOX: flag.default(false),
  /** Where prices come from: the seeded simulator, a CSV recording, Binance's public stream (crypto), or none. */
  MARKET_SOURCE: z.enum(['simulator', 'csv', 'binance', 'none']).default('simulator'),
  /** The recording replayed when MARKET_SOURCE=csv (columns time,symbol,bid,ask,volume). */
  MARKET_CSV_PATH: z.string().optional(),
  MARKET_CSV_SPEED: z.coerce.number().positive().default(1),
  MARKET_CSV_LOOP: flag.default(true),
  /** Seed of the simulator; the same seed replays the same market. Random when unset. */
  MARKET_SEED: z.coerce.number().int().min(0).optional(),
  /** Override of Binance's combined-stream URL (MARKET_SOURCE=binance). */
  MARKET_BINANCE_URL: z.string().url().optional(),
  /** Scale-out: also publish every market topic to RabbitMQ's Web-STOMP (ws://user:pass@host:15674/ws). */
  MARKET_BROKER_URL: z.string().url().optional(),
  /**
   * Load testing: this many extra round-the-clock symbols (LOAD001USDT…, type Cryptos,
   * no history backfill) quoting MARKET_LOAD_TICKS_PER_SECOND between them. 0: none.
   */
  MARKET_LOAD_SYMBOLS: z.coerce.number().int().min(0).max(5000).default(0),
  MARKET_LOAD_TICKS_PER_SECOND: z.coerce.number().positive().max(1_000_000).default(10_000),
  /**
   * The customer-service channels seeded at first start, as 'mode|["chat url","telegram",
   * "whatsapp","e-mail"]' (mode 0: chat in the page, 1: new window). Later changes live
   * in the database setting.
   */
  CUSTOMER_SERVICE_LINK: z
    .string()
    .refine((value) => parseCustomerLinkSetting(value) !== null, "expected 'mode|[\"chat url\",\"telegram\",\"whatsapp\",\"e-mail\"]'")
    .default('0|["","https://t.me/tradeweb_support","https://wa.me/18005550100","support@tradeweb.example"]'),
  /**
   * Feature switches set at every start, e.g. "VIRTUAL_CURRENCY_TRADE=1,PHONE_REGISTER=0"
   * (names from the switch list); the others keep their stored values.
   */
  SWITCHES: z
    .string()
    .default('')
    .refine((value) => parseSwitchOverrides(value) !== null, 'expected NAME=1 or NAME=0 pairs of known switch names, comma-separated'),
  /**
   * A withdrawal worth at least this many USD (an exact decimal) needs a second approval by
   * another staff member (four-eyes); every loan does whatever its amount.
   */
  FOUR_EYES_USD: z.string().regex(/^\d{1,22}(\.\d{1,8})?$/, 'expected a decimal amount in USD, e.g. 1000').default('1000'),
  /**
   * What one staff member may approve alone (items under four-eyes) over 24 hours, across
   * every customer's withdrawals and deposits; the approval that would reach it waits for a
   * second member instead. Four-eyes per customer alone lets one member approve just under it
   * for any number of accounts.
   */
  SOLO_APPROVALS_USD: z.string().regex(/^\d{1,22}(\.\d{1,8})?$/, 'expected a decimal amount in USD, e.g. 10000').default('10000'),
  /** A staff invitation (staff/create) can be used this many hours after it is sent. */
  STAFF_INVITATION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(72),
  /**
   * Segregation of duties: two staff members of whom one created or changed the roles of the
   * other within this many days cannot be the two approvers of one item or proposal.
   */
  STAFF_DUTIES_PERIOD_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
  /** Where invitation links point: the console's address as staff reach it (default: this server's /staff on localhost). */
  STAFF_CONSOLE_URL: z.string().url().optional(),
  /** The largest single deposit anyone may claim, in USD (an exact decimal); the levels' own caps (config/limits) may be lower. */
  DEPOSIT_MAX_USD: z.string().regex(/^\d{1,22}(\.\d{1,8})?$/, 'expected a decimal amount in USD, e.g. 1000000').default('1000000'),
  /**
   * Cooling-off: after a new saved address or card, a password, second-factor or e-mail
   * change, withdrawals wait this many seconds (1072 with the end). 0: no hold.
   */
  WITHDRAWAL_HOLD_SECONDS: z.coerce.number().int().min(0).max(30 * 86_400).default(86_400),
  /** The verification level a real-money withdrawal needs: junior by default; `none` relaxes it (the levels' limits still apply). */
  WITHDRAW_MIN_VERIFICATION: z.enum(['none', 'junior', 'full']).default('junior'),
  /**
   * After a rejected repayment the specification allows no other (the customer is told
   * p_loan_repayment_reject and settles it with staff); on, a rejected one may be tried again.
   */
  LOAN_REPAY_AFTER_REJECTION: flag.default(false),
  /** Deposits for everyone (the deposit-disabled setting): off, deposit/status answers disabled and deposit/submit is refused. */
  DEPOSITS_ENABLED: flag.default(true),
  /** Development control of the price feed (POST /dev/market/pause and /resume). Never on by default. */
  DEV_MARKET_CONTROL: flag.default(false),
  /**
   * What this process does: `all` (one process, everything: `npm start`), or a comma list of
   * `market` (the price source, stored bars, publication), `api` (HTTP and the sockets) and
   * `jobs` (settlement, tick recording, stop-out, overnight fees). market and jobs run in one
   * process at a time, chosen through the database (a lease); see README, "Several processes".
   */
  SERVER_ROLES: z
    .string()
    .default('all')
    .refine((value) => parseServerRoles(value) !== null, "expected 'all' or a comma list of market, api, jobs"),
  /** How long a role's leadership lasts without renewal, in ms: a dead holder is replaced after at most this long. */
  LEADER_LEASE_MS: z.coerce.number().int().min(500).max(600_000).default(5_000),
});

export const serverRoles = ['market', 'api', 'jobs'] as const;
export type ServerRole = (typeof serverRoles)[number];

/** "market,api" as roles; `all` is every role in one process; null when a name is unknown or the list is empty. */
export function parseServerRoles(value: string): { all: boolean; roles: ReadonlySet<ServerRole> } | null {
  const names = value.split(',').map((item) => item.trim()).filter(Boolean);
  if (names.length === 1 && names[0] === 'all') return { all: true, roles: new Set(serverRoles) };
  if (names.length === 0 || !names.every((name): name is ServerRole => (serverRoles as readonly string[]).includes(name))) return null;
  return { all: false, roles: new Set(names) };
}

export type Settings = ReturnType<typeof readSettings>;

/** "A=1,B=0" as switch values; null when a name is unknown or a value is not 0/1/true/false. */
export function parseSwitchOverrides(value: string): Partial<Record<SwitchName, boolean>> | null {
  const overrides: Partial<Record<SwitchName, boolean>> = {};
  for (const part of value.split(',').map((item) => item.trim()).filter(Boolean)) {
    const match = /^([^=]+)=(1|0|true|false)$/.exec(part);
    if (!match?.[1] || !isSwitchName(match[1])) return null;
    overrides[match[1]] = match[2] === '1' || match[2] === 'true';
  }
  return overrides;
}

/** "https://app.example.com, http://localhost:5173" as exact origins; null when an entry is not an origin (a path, a wildcard, no scheme). */
export function parseAllowedOrigins(value: string): string[] | null {
  const entries = value.split(',').map((item) => item.trim()).filter(Boolean);
  const origins: string[] = [];
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return null;
    }
    // A wildcard would let any of a domain's pages act for the customer: each origin is named.
    if (entry.includes('*') || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry.replace(/\/$/, '')) return null;
    origins.push(url.origin);
  }
  return origins;
}

/** Proxy-addr's names for reserved ranges, accepted beside addresses and CIDRs. */
const proxyRangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** "10.0.0.1, 10.1.0.0/16" as a trust list for Fastify's trustProxy; null when an entry is not an address or CIDR. */
export function parseTrustProxy(value: string): string[] | null {
  const entries = value.split(',').map((item) => item.trim()).filter(Boolean);
  for (const entry of entries) {
    if (proxyRangeNames.has(entry)) continue;
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = net.isIP(address);
    if (family === 0 || rest.length > 0) return null;
    if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128))) return null;
  }
  return entries;
}

export function readSettings(environment: NodeJS.ProcessEnv = process.env) {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  const values = parsed.data;
  if (values.OPTION_SETTLEMENT_GRACE_MS <= values.OPTION_TICK_FLUSH_MS) {
    throw new Error('Invalid environment:\nOPTION_SETTLEMENT_GRACE_MS: must exceed OPTION_TICK_FLUSH_MS (the end tick must be written before settlement)');
  }
  if ((values.SMS_WEBHOOK_URL === undefined) !== (values.SMS_WEBHOOK_SECRET === undefined)) {
    throw new Error('Invalid environment:\nSMS_WEBHOOK_URL, SMS_WEBHOOK_SECRET: set both or neither');
  }
  if (values.MARKET_SOURCE === 'csv' && !values.MARKET_CSV_PATH) {
    throw new Error('Invalid environment:\nMARKET_CSV_PATH: required when MARKET_SOURCE=csv');
  }
  const roles = parseServerRoles(values.SERVER_ROLES) ?? { all: true, roles: new Set(serverRoles) };
  if (!roles.all) {
    // Several processes must agree: one database, one broker for ticks and pushes, and the
    // same keys (a key generated under one process's DATA_DIR would refuse another's tokens
    // and could not read the fields it sealed).
    const missing = (['DATABASE_URL', 'MARKET_BROKER_URL', 'JWT_SECRET', 'DATA_ENCRYPTION_KEY'] as const).filter((name) => !values[name]);
    if (missing.length > 0) {
      throw new Error(`Invalid environment:\n${missing.map((name) => `${name}: required when SERVER_ROLES is not 'all' (every process must share it)`).join('\n')}`);
    }
  } else if (values.DATABASE_URL && values.MARKET_BROKER_URL) {
    // `all` on a shared database and broker is every role, publishing its ticks included: a
    // process beside it follows them, and without a shared key neither could trust the other.
    const missing = (['JWT_SECRET', 'DATA_ENCRYPTION_KEY'] as const).filter((name) => !values[name]);
    if (missing.length > 0) {
      throw new Error(`Invalid environment:\n${missing.map((name) => `${name}: required when SERVER_ROLES=all runs on DATABASE_URL with MARKET_BROKER_URL (it publishes its ticks to the processes beside it, which must share it)`).join('\n')}`);
    }
  }
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL ?? null,
    staticDir: path.resolve(values.STATIC_DIR),
    brandDir: path.resolve(values.BRAND_DIR),
    brandConfigPath: values.BRAND_CONFIG_PATH ? path.resolve(values.BRAND_CONFIG_PATH) : null,
    logLevel: values.LOG_LEVEL,
    development: values.NODE_ENV !== 'production',
    behindTls: values.BEHIND_TLS,
    jwtSecret: values.JWT_SECRET ?? null,
    accessTokenTtlSeconds: values.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: values.REFRESH_TOKEN_TTL_SECONDS,
    bodyLimitBytes: values.BODY_LIMIT_BYTES,
    minHoldSeconds: values.MIN_HOLD_SECONDS,
    demoBalance: values.DEMO_BALANCE,
    stalePriceMs: values.STALE_PRICE_MS,
    forexMinDeposit: values.FOREX_MIN_DEPOSIT,
    optionSettlementGraceMs: values.OPTION_SETTLEMENT_GRACE_MS,
    optionSettlementBatch: values.OPTION_SETTLEMENT_BATCH,
    optionSettlementSweepMs: values.OPTION_SETTLEMENT_SWEEP_MS,
    optionTickFlushMs: values.OPTION_TICK_FLUSH_MS,
    optionTickBufferMax: values.OPTION_TICK_BUFFER_MAX,
    optionTickRetentionHours: values.OPTION_TICK_RETENTION_HOURS,
    stopOutLevelPercent: values.STOP_OUT_LEVEL_PERCENT,
    maxPendingOrders: values.MAX_PENDING_ORDERS,
    devOutbox: values.DEV_OUTBOX,
    devMarketControl: values.DEV_MARKET_CONTROL,
    marketSource: values.MARKET_SOURCE,
    marketCsvPath: values.MARKET_CSV_PATH ? path.resolve(values.MARKET_CSV_PATH) : null,
    marketCsvSpeed: values.MARKET_CSV_SPEED,
    marketCsvLoop: values.MARKET_CSV_LOOP,
    marketSeed: values.MARKET_SEED ?? null,
    marketBinanceUrl: values.MARKET_BINANCE_URL ?? null,
    marketBrokerUrl: values.MARKET_BROKER_URL ?? null,
    customerServiceLink: values.CUSTOMER_SERVICE_LINK,
    switchOverrides: parseSwitchOverrides(values.SWITCHES) ?? {},
    smtpUrl: values.SMTP_URL ?? null,
    mailFrom: values.MAIL_FROM,
    smsWebhook: values.SMS_WEBHOOK_URL && values.SMS_WEBHOOK_SECRET ? { url: values.SMS_WEBHOOK_URL, secret: values.SMS_WEBHOOK_SECRET } : null,
    outboxRetryBaseMs: values.OUTBOX_RETRY_BASE_MS,
    dataEncryptionKey: values.DATA_ENCRYPTION_KEY ?? null,
    siteName: values.SITE_NAME,
    virtualTradingOnce: values.VIRTUAL_TRADING_ONCE,
    trustProxy: parseTrustProxy(values.TRUST_PROXY) ?? [],
    allowedOrigins: parseAllowedOrigins(values.ALLOWED_ORIGINS) ?? [],
    loginFailuresBeforeDelay: values.LOGIN_FAILURES_BEFORE_DELAY,
    codeFailuresBeforeDelay: values.CODE_FAILURES_BEFORE_DELAY,
    authDelayMaxSeconds: values.AUTH_DELAY_MAX_SECONDS,
    loginAttemptsPer15Min: values.LOGIN_ATTEMPTS_PER_15_MIN,
    deviceCookieMaxFailures: values.DEVICE_COOKIE_MAX_FAILURES,
    codesSentPer10Min: values.CODES_SENT_PER_10_MIN,
    codeChecksPer10Min: values.CODE_CHECKS_PER_10_MIN,
    uploadsPer10Min: values.UPLOADS_PER_10_MIN,
    marketConnectionsPerAddress: values.MARKET_CONNECTIONS_PER_ADDRESS,
    socketCompression: values.SOCKET_COMPRESSION,
    positionsSocketsPerAddress: values.POSITIONS_SOCKETS_PER_ADDRESS,
    positionsSocketsPerUser: values.POSITIONS_SOCKETS_PER_USER,
    positionsFeedIntervalMs: values.POSITIONS_FEED_INTERVAL_MS,
    positionsSessionRecheckMs: values.POSITIONS_SESSION_RECHECK_MS,
    riskCheckMs: values.RISK_CHECK_MS,
    marketLoadSymbols: values.MARKET_LOAD_SYMBOLS,
    marketLoadTicksPerSecond: values.MARKET_LOAD_TICKS_PER_SECOND,
    fourEyesUsd: values.FOUR_EYES_USD,
    soloApprovalsUsd: values.SOLO_APPROVALS_USD,
    staffInvitationTtlMs: values.STAFF_INVITATION_TTL_HOURS * 3_600_000,
    staffDutiesPeriodMs: values.STAFF_DUTIES_PERIOD_DAYS * 86_400_000,
    staffConsoleUrl: (values.STAFF_CONSOLE_URL ?? `http://localhost:${values.PORT}/staff`).replace(/\/+$/, ''),
    depositsEnabled: values.DEPOSITS_ENABLED,
    depositMaxUsd: values.DEPOSIT_MAX_USD,
    withdrawalHoldSeconds: values.WITHDRAWAL_HOLD_SECONDS,
    withdrawMinVerification: values.WITHDRAW_MIN_VERIFICATION,
    loanRepayAfterRejection: values.LOAN_REPAY_AFTER_REJECTION,
    /** True for `all`: one process, no leases, no relaying across processes. */
    singleProcess: roles.all,
    roles: roles.roles,
    leaderLeaseMs: values.LEADER_LEASE_MS,
    ...fixedRules,
  };
}

const minuteMs = 60_000;

/** Business constants no environment variable changes: named once here, read by the module they rule. */
const fixedRules = {
  // Identity: one-time codes and captchas.
  /** A sign-up or reset code expires this long after it is sent (the message says so in minutes). */
  codeTtlMs: 10 * minuteMs,
  /** Wrong guesses that lock a code. */
  codeMaxAttempts: 5,
  /** The same destination gets a new code at most this often (the app's resend countdown is the same rule). */
  codeResendMs: resendCodeAfterSeconds * 1000,
  /** The window of CODES_SENT_PER_10_MIN (per address, and per destination and purpose) and of CODE_CHECKS_PER_10_MIN. */
  codeWindowMs: 10 * minuteMs,
  /** The window of LOGIN_ATTEMPTS_PER_15_MIN. */
  loginWindowMs: 15 * minuteMs,
  /** A device cookie (and its trust row) lasts this long after the sign-in that issued it. */
  deviceCookieLifetimeMs: 180 * 24 * 60 * minuteMs,
  /** A sign-in code (skips the account's delay for one try from a new device) expires this long after it is sent. */
  signInCodeTtlMs: 10 * minuteMs,
  /** An image captcha is answered within this long. */
  captchaTtlMs: 2 * minuteMs,
  /** Captcha images per client address per minute. */
  captchasPerMinute: 30,
  // Mail and SMS (the outbox).
  /** The longest wait between two tries of one message. */
  outboxRetryMaxMs: 15 * minuteMs,
  /** One try (an SMTP step, a webhook call) fails after this long. */
  messageTimeoutMs: 20_000,
  /** A claimed message is tried again elsewhere after this long: well past one try's timeout. */
  outboxClaimMs: 2 * minuteMs,
  /** Due messages are looked for this often without a wake (retries, leftovers of a stopped process). */
  outboxSweepMs: 30_000,
  outboxBatch: 20,
  /** A sent message's row (its status and times; its text is gone once sent) is kept this long. */
  outboxKeepSentMs: 30 * 24 * 60 * minuteMs,
  // Sockets.
  /** A process renews the places of its open sockets this often ÷ 3; a dead process's stop counting after this long. */
  connectionLeaseMs: 60_000,
  // Site.
  /** Switches are read on every signed-in request; a short cache keeps that off the database. */
  switchesCacheMs: 2_000,
  // Market data.
  /** Changed prices are published this often, as one `/topic/prices` batch. */
  marketFlushMs: 100,
  /** Finished bars are written this often. */
  marketPersistMs: 5_000,
};
