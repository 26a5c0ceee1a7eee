import type { Kysely, Transaction } from 'kysely';
import * as z from 'zod/mini';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { formatMoney, money } from '../../../src/shared/money/money';
import { limitsByLevelInput, limitsProblem, normalisedLimits, verificationLevels, type LimitsByLevel } from '../../../src/shared/money/withdrawal-limits';
import type { Executor } from '../../db/after-commit';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';

/**
 * The limits by verification level (`withdrawal_limit`, migration 0026): read by
 * withdrawals (1071), deposits (the largest single deposit) and `config/limits`; changed in
 * two steps so that a dual-control proposal can sit between them: {@link WithdrawalLimits.validateLimits}
 * (any body → the typed limits, or a translated refusal) and {@link WithdrawalLimits.writeLimits}
 * (writes them in the caller's transaction, answering before and after).
 */
export function createWithdrawalLimits(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  async function read(executor: Executor = db): Promise<LimitsByLevel> {
    const rows = await executor.selectFrom('withdrawal_limit').selectAll().execute();
    const byLevel = new Map(rows.map((row) => [row.level, row]));
    return Object.fromEntries(
      verificationLevels.map((level) => {
        const row = byLevel.get(level);
        // Migration 0026 seeds every level; a missing row is a damaged table, never "no limit".
        if (!row) throw new Error(`withdrawal_limit has no row for level '${level}'`);
        return [
          level,
          {
            dailyWithdrawUsd: formatMoney(money(String(row.daily_withdraw_usd))),
            monthlyWithdrawUsd: formatMoney(money(String(row.monthly_withdraw_usd))),
            depositMaxUsd: formatMoney(money(String(row.deposit_max_usd))),
          },
        ];
      }),
    ) as LimitsByLevel;
  }

  return {
    read,

    /**
     * `config/setLimits`'s body checked: every level with its three USD limits (1016 when
     * malformed), a month at least a day, a higher level at least a lower one (1016 with the
     * rule's message). Reads and writes nothing.
     */
    validateLimits(body: unknown): LimitsByLevel {
      const parsed = z.safeParse(z.strictObject({ limits: limitsByLevelInput }), body);
      if (!parsed.success) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'limits', 200, null, { key: 'withdraw.limits_invalid', params: {} });
      const limits = normalisedLimits(parsed.data.limits);
      const problem = limitsProblem(limits);
      if (problem) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, problem, 200, null, { key: `withdraw.limits_${problem}`, params: {} });
      return limits;
    },

    /** Writes validated limits in the caller's transaction (an approved proposal's), answering before and after for its audit row. */
    async writeLimits(trx: Transaction<Database>, limits: LimitsByLevel): Promise<{ before: LimitsByLevel; after: LimitsByLevel }> {
      // The rows locked first: two changes applied at once take turns, and each audit row's "before" is what it replaced.
      await trx.selectFrom('withdrawal_limit').select('level').forUpdate().execute();
      const before = await read(trx);
      for (const level of verificationLevels) {
        await trx
          .updateTable('withdrawal_limit')
          .set({
            daily_withdraw_usd: limits[level].dailyWithdrawUsd,
            monthly_withdraw_usd: limits[level].monthlyWithdrawUsd,
            deposit_max_usd: limits[level].depositMaxUsd,
            updated_at: new Date(),
          })
          .where('level', '=', level)
          .execute();
      }
      const after = await read(trx);
      return { before, after };
    },
  };
}
export type WithdrawalLimits = ReturnType<typeof createWithdrawalLimits>;
