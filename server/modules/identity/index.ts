import type { FastifyInstance } from 'fastify';
import { createDataCipher, loadDataKey } from '../../auth/data-key';
import { createFailureThrottle } from '../../auth/failure-throttle';
import { createRateLimiter } from '../../auth/rate-limiter';
import { createSignInCodes } from '../../auth/sign-in-codes';
import { createSignInGuard } from '../../auth/sign-in-guard';
import { createTrustedDevices } from '../../auth/trusted-devices';
import { login } from '../../../src/shared/api/auth';
import type { TokenService } from '../../auth/tokens';
import type { DatabaseHandle } from '../../db/database';
import type { DomainEvents } from '../../events/domain-events';
import { registerSignedIn, type SessionCheck, type SignedInRoutes } from '../../http/signed-in';
import type { Settings } from '../../settings';
import type { SiteService } from '../site/site-service';
import { createMessageDelivery, deliveryDescription, withCodesLogged, type MessageDelivery, type OutgoingMessage } from '../../messaging/delivery';
import { createOutbox, type Outbox } from '../../messaging/outbox';
import { createWebhookSmsProvider } from '../../messaging/sms-webhook';
import { createIdentityRepository } from './identity-repository';
import { registerIdentityRoutes } from './identity-routes';
import { createIdentityService, type IdentityService } from './identity-service';

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityService;
  }
}

export interface IdentityModule {
  identity: IdentityService;
  /** Whether an access token is good and its session lives: the signed-in check's question, and the positions socket's. */
  sessions: SessionCheck;
  signedIn: SignedInRoutes;
  delivery: MessageDelivery;
  /** The transactional outbox: other modules write their messages (staff invitations) in their own transactions. */
  outbox: Pick<Outbox, 'enqueue'>;
  /** Writes a mail or SMS to the outbox (its own transaction); every process's sender delivers it. */
  sendMessage: (message: OutgoingMessage) => Promise<void>;
}

/**
 * Identity: users, codes, sign-in and sessions. Whether a session lives is identity's
 * answer, so the signed-in check is registered here, once, and handed to every module
 * whose calls need a signed-in user.
 */
export async function registerIdentity(
  app: FastifyInstance,
  deps: {
    settings: Settings;
    database: DatabaseHandle;
    tokens: TokenService;
    site: SiteService;
    events: DomainEvents;
    /** Where the data key and the mail outbox live; in memory when null (tests). */
    dataDir: string | null;
    /** How mail and SMS leave; the settings' SMTP or the outbox when not given. */
    delivery?: MessageDelivery | undefined;
    nowMs?: (() => number) | undefined;
  },
): Promise<IdentityModule> {
  const { settings, database, tokens, nowMs } = deps;
  const cipher = createDataCipher(await loadDataKey({ dataKeySetting: settings.dataEncryptionKey, dataDir: deps.dataDir }));
  const sms = settings.smsWebhook ? createWebhookSmsProvider({ ...settings.smsWebhook, timeoutMs: settings.messageTimeoutMs }) : null;
  const baseDelivery =
    deps.delivery ?? createMessageDelivery({ smtpUrl: settings.smtpUrl, mailFrom: settings.mailFrom, dataDir: deps.dataDir, sms, timeoutMs: settings.messageTimeoutMs });
  const smtpConfigured = settings.smtpUrl !== null;
  app.log.info({ outboxFile: baseDelivery.outboxFile, smtp: smtpConfigured, sms: sms?.name ?? null }, deliveryDescription(baseDelivery, { smtp: smtpConfigured, sms: sms !== null }));
  // Codes in the log only where they are in a local file anyway: development, no SMTP.
  const delivery =
    settings.development && !smtpConfigured ? withCodesLogged(baseDelivery, (fields, message) => app.log.info(fields, message)) : baseDelivery;
  // Requests write mail and SMS here; this process's sender (and every other's) delivers them.
  const outbox = createOutbox({
    db: database.db,
    cipher,
    delivery,
    policy: {
      retryBaseMs: settings.outboxRetryBaseMs,
      retryMaxMs: settings.outboxRetryMaxMs,
      claimMs: settings.outboxClaimMs,
      sweepMs: settings.outboxSweepMs,
      batch: settings.outboxBatch,
      keepSentMs: settings.outboxKeepSentMs,
    },
    nowMs,
    log: {
      deliveryFailed: (failure) => app.log.warn({ outboxId: failure.id, channel: failure.channel, attempts: failure.attempts, nextAttemptAt: failure.nextAttemptAt, error: failure.error }, 'a message could not be delivered; it will be tried again'),
      passFailed: (error) => app.log.error({ err: error }, 'the outbox sender failed'),
    },
  });
  const delayAfterFailures = (freeFailures: number) =>
    createFailureThrottle(database.db, { freeFailures, maxDelaySeconds: settings.authDelayMaxSeconds }, nowMs);
  // In the database: every server process counts against the same windows.
  const rateLimit = (name: string, limit: number, windowMs: number) => createRateLimiter({ db: database.db, name, limit, windowMs, keyOf: cipher.digest });
  const repository = createIdentityRepository(database.db);
  const limits = {
    login: rateLimit('login', settings.loginAttemptsPer15Min, settings.loginWindowMs),
    codeSending: rateLimit('code-sending', settings.codesSentPer10Min, settings.codeWindowMs),
    codeChecking: rateLimit('code-checking', settings.codeChecksPer10Min, settings.codeWindowMs),
    captcha: rateLimit('captcha', settings.captchasPerMinute, 60_000),
    accountSignIn: delayAfterFailures(settings.loginFailuresBeforeDelay),
    codeFailures: delayAfterFailures(settings.codeFailuresBeforeDelay),
  };
  const signInGuard = createSignInGuard({
    cipher,
    devices: createTrustedDevices(database.db, { maxFailures: settings.deviceCookieMaxFailures, lifetimeMs: settings.deviceCookieLifetimeMs }, nowMs),
    codes: createSignInCodes(database.db, cipher, { ttlMs: settings.signInCodeTtlMs }, nowMs),
    limits: { perAddress: limits.login, accountDelay: limits.accountSignIn, codeChecks: limits.codeChecking },
    cookie: { path: login.path, maxAgeSeconds: Math.round(settings.deviceCookieLifetimeMs / 1000) },
  });
  const sendMessage = (message: OutgoingMessage) => outbox.enqueue(database.db, message);
  const identity = createIdentityService({
    repository,
    tokens,
    cipher,
    messages: { send: sendMessage, enqueueTask: (executor, task) => outbox.enqueue(executor, task), handle: (task, handler) => outbox.handle(task, handler), settled: () => outbox.settled() },
    limits,
    signInGuard,
    settings,
    switches: () => deps.site.switches(),
    events: deps.events,
    log: (message, error) => app.log.error({ err: error }, message),
    ...(nowMs ? { nowMs } : {}),
  });
  const sessions: SessionCheck = {
    verify: (token) => tokens.verifyAccessToken(token),
    alive: (session) => identity.liveSession(session),
  };
  const signedIn = registerSignedIn(app, sessions);
  await registerIdentityRoutes(app, signedIn, identity, { behindTls: settings.behindTls });
  app.decorate('identity', identity);
  // Codes and notices still being sent go out before the server (and its database) closes.
  app.addHook('onClose', async () => {
    await identity.settled();
    await outbox.stop();
  });
  // Messages left by an earlier run (or another process) go out now, then on the sweep.
  outbox.start();
  // The account module reads profiles through the repository until it asks the service.
  return { identity, sessions, signedIn, delivery, outbox, sendMessage };
}
