import type { Kysely } from 'kysely';
import type { AuditRow } from '../../../src/shared/api/staff';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { StaffRole } from '../../../src/shared/staff/roles';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { pageCount, storedRoles, timeMs, type StaffDb } from './staff-repository';

/** Who did something in the back office, as every staff route's handler receives it. */
export interface StaffActor {
  staffId: number;
  email: string;
  roles: StaffRole[];
  /** The client address the call came from. */
  address: string;
}

/** One staff action as the audit trail keeps it. Never a password or a secret. */
export interface AuditEntry {
  /** e.g. 'customers.setTradingProhibited', 'config.setSwitch', 'reviews.decide'. */
  action: string;
  /** 'customer' | 'staff' | 'switch' | 'product' | 'optionProduct' | 'banners' | 'serviceLink' | 'notice' | 'review'. */
  targetType: string;
  /** uid, staffId, switch name, product code, review id… */
  targetId: string | null;
  /** The customer concerned, when there is one (audit/list filters on it). */
  uid?: number | null;
  /** JSON-serialisable. */
  before: unknown;
  after: unknown;
}

export interface StaffAudit {
  /** Appends one audit row in the caller's transaction (the same one as the action's effect). */
  record(db: StaffDb, actor: StaffActor, entry: AuditEntry): Promise<void>;
}

/** Who the command line is in the trail: no staff member, address 'cli'. */
export const commandLineActor = { staffId: null, address: 'cli' } as const;

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/**
 * The audit trail: rows are only ever appended (the table's trigger refuses UPDATE and
 * DELETE), each in the transaction of the action it describes, so an action and its row
 * commit or fail together — and an action of a member disabled meanwhile fails (23519), as
 * does one of a member who lost a role meanwhile (2001).
 */
export function createStaffAudit(db: Kysely<Database>, nowMs: () => number = Date.now) {
  async function append(trx: StaffDb, by: { staffId: number | null; address: string; roles?: readonly StaffRole[] }, entry: AuditEntry) {
    // The scope checked the session and the roles when the call came in; a member disabled
    // or stripped of a role since then (while this call was running) must not act: their
    // action rolls back with this error. FOR SHARE: a change still being committed is waited
    // for, not read past (on PostgreSQL a plain read would see the member as they were).
    if (by.staffId !== null) {
      const actor = await trx.selectFrom('staff_member').select(['disabled_at', 'roles']).where('id', '=', by.staffId).forShare().executeTakeFirst();
      if (!actor || actor.disabled_at !== null) throw new AppError(ErrorCode.SESSION_ENDED, 'the staff member was disabled during the call');
      const held = storedRoles(actor.roles);
      if (by.roles?.some((role) => !held.includes(role))) throw new AppError(ErrorCode.STAFF_ROLE_REQUIRED, 'a role was taken away during the call', 403);
    }
    await trx
      .insertInto('staff_audit')
      .values({
        staff_id: by.staffId,
        action: entry.action,
        target_type: entry.targetType,
        target_id: entry.targetId,
        uid: entry.uid ?? null,
        before: json(entry.before),
        after: json(entry.after),
        at: new Date(nowMs()),
        address: by.address,
      })
      .execute();
  }

  return {
    append,

    record: ((trx, actor, entry) => append(trx, { staffId: actor.staffId, address: actor.address, roles: actor.roles }, entry)) satisfies StaffAudit['record'],

    /** Newest first, filtered by who, which customer and which action. */
    async list(filter: { page: number; limit: number; staffId?: number | undefined; uid?: number | undefined; action?: string | undefined }): Promise<{ list: AuditRow[]; pages: number }> {
      let query = db.selectFrom('staff_audit as a').leftJoin('staff_member as m', 'm.id', 'a.staff_id');
      if (filter.staffId !== undefined) query = query.where('a.staff_id', '=', filter.staffId);
      if (filter.uid !== undefined) query = query.where('a.uid', '=', filter.uid);
      if (filter.action !== undefined) query = query.where('a.action', '=', filter.action);
      const [rows, total] = await Promise.all([
        query
          .select(['a.id', 'a.staff_id', 'm.email', 'a.action', 'a.target_type', 'a.target_id', 'a.before', 'a.after', 'a.at', 'a.address'])
          .orderBy('a.id', 'desc')
          .offset((filter.page - 1) * filter.limit)
          .limit(filter.limit)
          .execute(),
        query.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return {
        list: rows.map((row) => ({
          id: Number(row.id),
          staffId: row.staff_id,
          staffEmail: row.email,
          action: row.action,
          targetType: row.target_type,
          targetId: row.target_id,
          before: row.before,
          after: row.after,
          time: timeMs(row.at),
          address: row.address,
        })),
        pages: pageCount(Number(total.count), filter.limit),
      };
    },
  };
}

export type StaffAuditTrail = ReturnType<typeof createStaffAudit>;
