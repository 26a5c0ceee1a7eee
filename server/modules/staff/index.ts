import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { createDataCipher, loadDataKey } from '../../auth/data-key';
import { createFailureThrottle } from '../../auth/failure-throttle';
import { createRateLimiter } from '../../auth/rate-limiter';
import { createSignInCodes } from '../../auth/sign-in-codes';
import { createSignInGuard } from '../../auth/sign-in-guard';
import { createTrustedDevices } from '../../auth/trusted-devices';
import type { OutgoingMessage } from '../../messaging/delivery';
import { staffLogin } from '../../../src/shared/api/staff';
import type { TokenService } from '../../auth/tokens';
import type { Database } from '../../db/schema';
import type { Settings } from '../../settings';
import type { ModuleBase } from '../module-base';
import { createStaffAudit, type StaffAudit } from './audit';
import { createStaffRepository } from './staff-repository';
import { registerStaffCoreRoutes } from './staff-routes';
import { registerStaffScope, type StaffRoutes } from './staff-scope';
import type { StaffMessages } from './staff-context';
import { createStaffService, type StaffService } from './staff-service';

export type { StaffActor, StaffAudit, AuditEntry } from './audit';
export type { StaffRequest, StaffRoutes } from './staff-scope';
export type { StaffService } from './staff-service';
export type { StaffDuties } from './staff-duties';
export type { StaffConflicts } from './staff-conflicts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The staff core's services (the first-admin command and tests create staff through them). */
    staff: StaffService;
    /** The staff scope: its table is what the role-matrix test walks. */
    staffRoutes: StaffRoutes;
  }
}

/**
 * The staff services on a database: what the server registers and what the first-admin
 * command (`server/tools/staff.ts`) creates staff members through. The data key is the
 * one identity uses (DATA_ENCRYPTION_KEY or DATA_DIR/secrets), so secrets written by the
 * command are readable by the server.
 */
export async function createStaffCore(deps: {
  settings: Settings;
  db: Kysely<Database>;
  tokens: TokenService;
  dataDir: string | null;
  /** The outbox invitations go through; absent for the command line, which sends none. */
  messages?: StaffMessages | undefined;
  /** Mail through the outbox (sign-in codes); the command line sends none. */
  sendMessage?: ((message: OutgoingMessage) => Promise<void>) | undefined;
  log?: ((message: string, error: unknown) => void) | undefined;
  nowMs?: (() => number) | undefined;
}): Promise<StaffService> {
  const { settings, db, nowMs } = deps;
  const cipher = createDataCipher(await loadDataKey({ dataKeySetting: settings.dataEncryptionKey, dataDir: deps.dataDir }));
  const throttle = (freeFailures: number) => createFailureThrottle(db, { freeFailures, maxDelaySeconds: settings.authDelayMaxSeconds }, nowMs);
  const rateLimit = (name: string, limit: number, windowMs: number) => createRateLimiter({ db, name, limit, windowMs, keyOf: cipher.digest, nowMs });
  const limits = {
    signInPerAddress: rateLimit('staff-sign-in', settings.loginAttemptsPer15Min, settings.loginWindowMs),
    signInPerAccount: throttle(settings.loginFailuresBeforeDelay),
    passwordChecks: throttle(settings.loginFailuresBeforeDelay),
    signInCodeRequests: rateLimit('staff-sign-in-code-requests', settings.codesSentPer10Min, settings.codeWindowMs),
    signInCodeChecks: rateLimit('staff-sign-in-code-checks', settings.codeChecksPer10Min, settings.codeWindowMs),
    // As customers' codes: one a resend interval, a few per window.
    signInCodesPerAddressee: rateLimit('staff-sign-in-codes-sent', Math.max(1, Math.floor(settings.codeWindowMs / settings.codeResendMs)), settings.codeWindowMs),
  };
  return createStaffService({
    repository: createStaffRepository(db),
    audit: createStaffAudit(db, nowMs),
    tokens: deps.tokens,
    cipher,
    limits: {
      ...limits,
      enrolPerAddress: rateLimit('staff-enrol', settings.loginAttemptsPer15Min, settings.loginWindowMs),
      enrolCodes: throttle(settings.codeFailuresBeforeDelay),
    },
    signInGuard: createSignInGuard({
      cipher,
      devices: createTrustedDevices(db, { maxFailures: settings.deviceCookieMaxFailures, lifetimeMs: settings.deviceCookieLifetimeMs }, nowMs),
      codes: createSignInCodes(db, cipher, { ttlMs: settings.signInCodeTtlMs }, nowMs),
      limits: { perAddress: limits.signInPerAddress, accountDelay: limits.signInPerAccount, codeChecks: limits.signInCodeChecks },
      cookie: { path: staffLogin.path, maxAgeSeconds: Math.round(settings.deviceCookieLifetimeMs / 1000) },
    }),
    signInMail: deps.sendMessage ? { send: deps.sendMessage } : undefined,
    log: deps.log,
    settings,
    messages: deps.messages,
    nowMs,
  });
}

export interface StaffModule {
  staffRoutes: StaffRoutes;
  audit: StaffAudit;
  duties: StaffService['duties'];
  conflicts: StaffService['conflicts'];
}

/**
 * The staff core: staff accounts apart from customers, their sign-in (always with the
 * second factor), sessions and tokens, the staff scope every `/v1/staff/` route is
 * declared through, and the append-only audit trail. Registered right after identity; the
 * other staff modules receive `staffRoutes` and `audit`.
 */
export async function registerStaff(
  app: FastifyInstance,
  deps: ModuleBase & {
    tokens: TokenService;
    /** Where the data key lives (the same key identity uses); in memory when null (tests). */
    dataDir: string | null;
    /** The outbox invitations are written to (identity's). */
    messages: StaffMessages;
    /** Mail through the outbox (identity's): sign-in codes. */
    sendMessage: (message: OutgoingMessage) => Promise<void>;
    nowMs?: (() => number) | undefined;
  },
): Promise<StaffModule> {
  const staff = await createStaffCore({ ...deps, db: deps.database.db, log: (message, error) => app.log.error({ err: error }, message) });
  const scope = registerStaffScope(app, staff.sessions);
  registerStaffCoreRoutes(scope, staff, { behindTls: deps.settings.behindTls });
  // Sign-in codes still being written go out before the server (and its database) closes.
  app.addHook('onClose', () => staff.settled());
  app.decorate('staff', staff);
  app.decorate('staffRoutes', scope.staffRoutes);
  return { staffRoutes: scope.staffRoutes, audit: staff.audit, duties: staff.duties, conflicts: staff.conflicts };
}
