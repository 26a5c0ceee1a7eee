import type { Transaction } from 'kysely';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { dutiesConflict, type DutiesConflict } from '../../../src/shared/staff/segregation';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { StaffActor } from './audit';
import type { StaffContext, StaffDependencies } from './staff-context';
import type { StaffDb } from './staff-repository';

/**
 * What another module does, in the disabling transaction, when a staff member is disabled:
 * the review queues void the member's pending first approvals, dual control their open
 * proposals. It runs before the staff rows are locked (the order every decision takes its
 * locks in: the item, then the staff rows), so a decision and a disabling never deadlock.
 */
export type MemberDisabledListener = (trx: Transaction<Database>, disabledStaffId: number, by: StaffActor) => Promise<void>;

/**
 * Segregation of duties as the server applies it: the shared rule
 * (src/shared/staff/segregation.ts) judged on the audit trail's record of who created or
 * re-roled whom within STAFF_DUTIES_PERIOD_DAYS, and the members' enabled state.
 */
export function createStaffDuties(deps: StaffDependencies, context: StaffContext) {
  const { repository, settings } = deps;
  const disabledListeners: MemberDisabledListener[] = [];

  return {
    /** Why `first` and `second` may not be the two people of one control ('same', 'related'), or null. */
    async conflict(trx: StaffDb, first: number, second: number): Promise<DutiesConflict> {
      if (first === second) return 'same';
      const nowMs = context.nowMs();
      const relations = await repository.relationsBetween(trx, first, second, new Date(nowMs - settings.staffDutiesPeriodMs));
      return dutiesConflict(first, second, relations, nowMs, settings.staffDutiesPeriodMs);
    },

    /** Refuses (2011) when the two members are related; `same` is the caller's own code (2004, 2012). */
    async requireIndependent(trx: StaffDb, first: number, second: number, sameCode: ErrorCode): Promise<void> {
      const found = await this.conflict(trx, first, second);
      if (found === 'same') throw new AppError(sameCode);
      if (found === 'related') throw new AppError(ErrorCode.STAFF_DUTIES_RELATED);
    },

    /** Whether a member is disabled now (a plain read: a disabling still being committed voids through its listener). */
    async isDisabled(trx: StaffDb, staffId: number): Promise<boolean> {
      const member = await repository.findById(staffId, trx);
      return !member || member.disabled_at !== null;
    },

    /** Locks a member's row, after the item a decision locked (the documented order): that member's decisions take turns. */
    async lockMember(trx: Transaction<Database>, staffId: number): Promise<void> {
      await repository.lockByIds(trx, [staffId]);
    },

    onMemberDisabled(listener: MemberDisabledListener) {
      disabledListeners.push(listener);
    },

    async memberDisabled(trx: Transaction<Database>, staffId: number, by: StaffActor) {
      for (const listener of disabledListeners) await listener(trx, staffId, by);
    },
  };
}

export type StaffDuties = ReturnType<typeof createStaffDuties>;
