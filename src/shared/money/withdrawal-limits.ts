import * as z from 'zod/mini';
import { formatMoney, money, parseMoney, type Units } from './money';

/**
 * Withdrawal limits by verification level and the cooling-off hold (issue 31), one
 * definition for the server, the app and the console. Amounts are exact USD decimals.
 */

/** A customer's identity verification, lowest first: none, junior (name and number), full (documents). */
export const verificationLevels = ['none', 'junior', 'full'] as const;
export type VerificationLevelName = (typeof verificationLevels)[number];

/** Whether `level` is at least `required`. */
export function meetsLevel(level: VerificationLevelName, required: VerificationLevelName): boolean {
  return verificationLevels.indexOf(level) >= verificationLevels.indexOf(required);
}

/** A level's limits in USD: withdrawals over the last 24 h and 30 days, and the largest single deposit. */
export interface LevelLimits {
  dailyWithdrawUsd: string;
  monthlyWithdrawUsd: string;
  depositMaxUsd: string;
}
export type LimitsByLevel = Record<VerificationLevelName, LevelLimits>;

/** What a brand starts with (migration 0026 seeds the same figures). */
export const defaultLevelLimits: LimitsByLevel = {
  none: { dailyWithdrawUsd: '1000.00', monthlyWithdrawUsd: '5000.00', depositMaxUsd: '10000.00' },
  junior: { dailyWithdrawUsd: '10000.00', monthlyWithdrawUsd: '50000.00', depositMaxUsd: '100000.00' },
  full: { dailyWithdrawUsd: '100000.00', monthlyWithdrawUsd: '1000000.00', depositMaxUsd: '1000000.00' },
};

/** The "day" and "month" of the limits are rolling windows ending now: no time zone decides them. */
export const dailyWindowMs = 24 * 3600 * 1000;
export const monthlyWindowMs = 30 * 24 * 3600 * 1000;

/** A USD limit as typed in the console: at most 22 integer digits and 8 decimals. */
const usdLimit = z.string().check(z.trim(), z.regex(/^\d{1,22}(\.\d{1,8})?$/));
const levelLimitsInput = z.strictObject({ dailyWithdrawUsd: usdLimit, monthlyWithdrawUsd: usdLimit, depositMaxUsd: usdLimit });
/** `config/setLimits`'s body: every level, each with its three limits. */
export const limitsByLevelInput = z.strictObject({ none: levelLimitsInput, junior: levelLimitsInput, full: levelLimitsInput });

/** Why a set of limits is refused (each the key of a translated message), or null when it holds. */
export type LimitsProblem = 'month_below_day' | 'higher_level_lower';

/**
 * The rules a set of limits keeps: a month allows at least a day, and a higher level allows
 * at least what a lower one does (verifying never lowers a limit).
 */
export function limitsProblem(limits: LimitsByLevel): LimitsProblem | null {
  for (const level of verificationLevels) {
    if (money(limits[level].monthlyWithdrawUsd) < money(limits[level].dailyWithdrawUsd)) return 'month_below_day';
  }
  for (let index = 1; index < verificationLevels.length; index += 1) {
    const lower = limits[verificationLevels[index - 1]!];
    const higher = limits[verificationLevels[index]!];
    for (const field of ['dailyWithdrawUsd', 'monthlyWithdrawUsd', 'depositMaxUsd'] as const) {
      if (money(higher[field]) < money(lower[field])) return 'higher_level_lower';
    }
  }
  return null;
}

/** Limits in the form the API answers (two decimals at least). */
export function normalisedLimits(limits: LimitsByLevel): LimitsByLevel {
  const one = (value: string) => formatMoney(parseMoney(value) ?? 0n);
  return Object.fromEntries(
    verificationLevels.map((level) => [
      level,
      { dailyWithdrawUsd: one(limits[level].dailyWithdrawUsd), monthlyWithdrawUsd: one(limits[level].monthlyWithdrawUsd), depositMaxUsd: one(limits[level].depositMaxUsd) },
    ]),
  ) as LimitsByLevel;
}

/** What is left to withdraw: the level's limits less what was withdrawn (pending or paid) in each window, never below zero. */
export function withdrawalAllowance(limits: LevelLimits, used: { dayUsd: Units; monthUsd: Units }): { dailyLeftUsd: Units; monthlyLeftUsd: Units; leftUsd: Units } {
  const positive = (value: Units) => (value > 0n ? value : 0n);
  const dailyLeftUsd = positive(money(limits.dailyWithdrawUsd) - used.dayUsd);
  const monthlyLeftUsd = positive(money(limits.monthlyWithdrawUsd) - used.monthUsd);
  return { dailyLeftUsd, monthlyLeftUsd, leftUsd: dailyLeftUsd < monthlyLeftUsd ? dailyLeftUsd : monthlyLeftUsd };
}

/**
 * When the cooling-off hold ends: `holdMs` after the latest security change (a new
 * destination, a password, second-factor or e-mail change); null when none is that recent.
 */
export function holdUntilMs(changesMs: readonly (number | null)[], holdMs: number, nowMs: number): number | null {
  const latest = Math.max(...changesMs.map((value) => value ?? Number.NEGATIVE_INFINITY));
  if (!Number.isFinite(latest)) return null;
  const until = latest + holdMs;
  return until > nowMs ? until : null;
}
