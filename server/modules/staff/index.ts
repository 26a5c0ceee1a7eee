import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { createDataCipher, loadDataKey } from '../../auth/data-key';
import { createFailureThrottle } from '../../auth/failure-throttle';
import { createRateLimiter } from '../../auth/rate-limiter';
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
  nowMs?: (() => number) | undefined;
}): Promise<StaffService> {
  const { settings, db, nowMs } = deps;
  const cipher = createDataCipher(await loadDataKey({ dataKeySetting: settings.dataEncryptionKey, dataDir: deps.dataDir }));
  const throttle = (freeFailures: number) => createFailureThrottle(db, { freeFailures, maxDelaySeconds: settings.authDelayMaxSeconds }, nowMs);
  return createStaffService({
    repository: createStaffRepository(db),
    audit: createStaffAudit(db, nowMs),
    tokens: deps.tokens,
    cipher,
    limits: {
      signInPerAddress: createRateLimiter({ db, name: 'staff-sign-in', limit: settings.loginAttemptsPer15Min, windowMs: settings.loginWindowMs, keyOf: cipher.digest, nowMs }),
      signInPerAccount: throttle(settings.loginFailuresBeforeDelay),
      passwordChecks: throttle(settings.loginFailuresBeforeDelay),
      enrolPerAddress: createRateLimiter({ db, name: 'staff-enrol', limit: settings.loginAttemptsPer15Min, windowMs: settings.loginWindowMs, keyOf: cipher.digest, nowMs }),
      enrolCodes: throttle(settings.codeFailuresBeforeDelay),
    },
    settings,
    messages: deps.messages,
    nowMs,
  });
}

export interface StaffModule {
  staffRoutes: StaffRoutes;
  audit: StaffAudit;
  duties: StaffService['duties'];
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
    nowMs?: (() => number) | undefined;
  },
): Promise<StaffModule> {
  const staff = await createStaffCore({ ...deps, db: deps.database.db });
  const scope = registerStaffScope(app, staff.sessions);
  registerStaffCoreRoutes(scope, staff);
  app.decorate('staff', staff);
  app.decorate('staffRoutes', scope.staffRoutes);
  return { staffRoutes: scope.staffRoutes, audit: staff.audit, duties: staff.duties };
}
