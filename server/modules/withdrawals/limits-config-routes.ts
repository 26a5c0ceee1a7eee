import type { Kysely } from 'kysely';
import { configLimits, configSetLimits } from '../../../src/shared/api/staff';
import { inTransaction } from '../../db/after-commit';
import type { Database } from '../../db/schema';
import type { Settings } from '../../settings';
import type { StaffRoutes } from '../staff';
import type { WithdrawalLimits } from './withdrawal-limits';

/**
 * The admin's limits by verification level: `config/limits` reads them with the server's
 * settings around them; `config/setLimits` validates the body, then applies it with its
 * audit row. Dual control (issue 31) puts a second admin's approval between those two
 * steps: `validateLimits` when proposed, `applyLimits` when approved.
 */
export function registerLimitsConfigRoutes(staffRoutes: StaffRoutes, deps: { db: Kysely<Database>; limits: WithdrawalLimits; settings: Settings }) {
  const { db, limits, settings } = deps;
  staffRoutes.route(configLimits, async () => ({
    limits: await limits.read(),
    depositMaxUsd: settings.depositMaxUsd,
    holdSeconds: settings.withdrawalHoldSeconds,
    withdrawMinLevel: settings.withdrawMinVerification,
  }));
  staffRoutes.route(configSetLimits, async (body, request) => {
    const validated = limits.validateLimits(body);
    await inTransaction(db, (trx) => limits.applyLimits(trx, validated, request.staff));
    return null;
  });
}
