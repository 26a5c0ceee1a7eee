import type { Kysely, Transaction } from 'kysely';
import { staffRoles, type StaffRole } from '../../../src/shared/staff/roles';
import type { Database } from '../../db/schema';

/** A database handle or the caller's transaction: staff writes join the transaction of the action they belong to. */
export type StaffDb = Kysely<Database> | Transaction<Database>;

const knownRoles = new Set<string>(staffRoles);

/** The roles as stored, keeping only the ones this version knows (a role removed from the code grants nothing). */
export function storedRoles(roles: readonly string[] | null | undefined): StaffRole[] {
  return (roles ?? []).filter((role): role is StaffRole => knownRoles.has(role));
}

/** Every staff statement: accounts, session families and refresh tokens. */
export function createStaffRepository(db: Kysely<Database>) {
  return {
    db,
    findByEmail(email: string) {
      return db.selectFrom('staff_member').selectAll().where('email', '=', email).executeTakeFirst();
    },
    findById(id: number, trx: StaffDb = db) {
      return trx.selectFrom('staff_member').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** A staff member's row locked for a change (roles, disabling) in the caller's transaction. */
    lockById(trx: Transaction<Database>, id: number) {
      return trx.selectFrom('staff_member').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },
    /**
     * Several staff rows locked for a change, in id order: two admins acting on each other
     * at once take their locks in the same order, so one waits for the other instead of
     * both deadlocking (or both acting on what the other is about to change).
     */
    lockByIds(trx: Transaction<Database>, ids: readonly number[]) {
      return trx.selectFrom('staff_member').selectAll().where('id', 'in', [...new Set(ids)]).orderBy('id').forUpdate().execute();
    },
    /** A member with credentials from the start (the command line's): enrolled, with a one-time password to change. */
    async insert(trx: StaffDb, member: { email: string; passwordHash: string; roles: StaffRole[]; sealedTotpSecret: string; at: Date }): Promise<number> {
      const row = await trx
        .insertInto('staff_member')
        .values({
          email: member.email,
          password_hash: member.passwordHash,
          roles: member.roles,
          totp_secret: member.sealedTotpSecret,
          must_change_password: true,
          created_at: member.at,
          enrolled_at: member.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    /** An invited member: no password, no second factor, not enrolled (cannot sign in) until they confirm a code. */
    async insertInvited(trx: StaffDb, member: { email: string; roles: StaffRole[]; at: Date }): Promise<number> {
      const row = await trx
        .insertInto('staff_member')
        .values({ email: member.email, password_hash: null, roles: member.roles, totp_secret: null, must_change_password: false, created_at: member.at, enrolled_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async insertInvitation(trx: StaffDb, invitation: { staffId: number; tokenHash: string; expiresAt: Date; at: Date }) {
      await trx.insertInto('staff_invitation').values({ staff_id: invitation.staffId, token_hash: invitation.tokenHash, expires_at: invitation.expiresAt, created_at: invitation.at }).execute();
    },
    /** An invitation by its token's digest, with its member's state, locked for the enrolment step. */
    lockInvitation(trx: Transaction<Database>, tokenHash: string) {
      return trx
        .selectFrom('staff_invitation as i')
        .innerJoin('staff_member as m', 'm.id', 'i.staff_id')
        .select(['i.id', 'i.staff_id', 'i.expires_at', 'i.password_set_at', 'i.confirmed_at', 'i.voided_at', 'm.email', 'm.totp_secret', 'm.disabled_at', 'm.enrolled_at'])
        .where('i.token_hash', '=', tokenHash)
        .forUpdate()
        .executeTakeFirst();
    },
    /** Voids the member's open invitations (a newer one replaces them); answers when the latest of them would have expired, or null. */
    async voidOpenInvitations(trx: StaffDb, staffId: number, at: Date): Promise<Date | null> {
      const rows = await trx
        .updateTable('staff_invitation')
        .set({ voided_at: at })
        .where('staff_id', '=', staffId)
        .where('confirmed_at', 'is', null)
        .where('voided_at', 'is', null)
        .returning('expires_at')
        .execute();
      return rows.reduce<Date | null>((latest, row) => (latest === null || row.expires_at > latest ? row.expires_at : latest), null);
    },
    /** The member's chosen password and their new second-factor secret; the invitation now awaits a first code. */
    async setEnrolmentCredentials(trx: StaffDb, invitation: { id: number; staffId: number }, credentials: { passwordHash: string; sealedTotpSecret: string }, at: Date) {
      await trx.updateTable('staff_member').set({ password_hash: credentials.passwordHash, totp_secret: credentials.sealedTotpSecret, totp_last_step: null }).where('id', '=', invitation.staffId).execute();
      await trx.updateTable('staff_invitation').set({ password_set_at: at }).where('id', '=', invitation.id).execute();
    },
    /** Spends the invitation: the member is enrolled and may sign in. */
    async confirmEnrolment(trx: StaffDb, invitation: { id: number; staffId: number }, at: Date) {
      await trx.updateTable('staff_member').set({ enrolled_at: at }).where('id', '=', invitation.staffId).execute();
      await trx.updateTable('staff_invitation').set({ confirmed_at: at }).where('id', '=', invitation.id).execute();
    },
    /**
     * What any member did to either of two members (created, invited again, re-roled) since `since`, as the audit
     * trail (this module's) recorded it: what segregation of duties is judged on.
     */
    async relationsBetween(trx: StaffDb, a: number, b: number, since: Date) {
      const rows = await trx
        .selectFrom('staff_audit')
        .select(['staff_id', 'target_id', 'at'])
        // Who sent a member the link they enrolled through made them as much as who created them.
        .where('action', 'in', ['staff.create', 'staff.resendInvitation', 'staff.setRoles'])
        .where('target_type', '=', 'staff')
        .where('at', '>=', since)
        // What anyone did to either: the rule looks for one acting on the other, or one maker of both.
        .where('target_id', 'in', [String(a), String(b)])
        .execute();
      return rows.map((row) => ({ actorId: row.staff_id, targetId: Number(row.target_id), atMs: timeMs(row.at) }));
    },
    /** The members who made `staffId` (created, invited again, re-roled) or whom `staffId` made, since `since`. */
    async membersRelatedTo(trx: StaffDb, staffId: number, since: Date): Promise<number[]> {
      const rows = await trx
        .selectFrom('staff_audit')
        .select(['staff_id', 'target_id'])
        .where('action', 'in', ['staff.create', 'staff.resendInvitation', 'staff.setRoles'])
        .where('target_type', '=', 'staff')
        .where('at', '>=', since)
        .where((eb) => eb.or([eb('target_id', '=', String(staffId)), eb('staff_id', '=', staffId)]))
        .execute();
      const related = new Set<number>();
      for (const row of rows) {
        const other = Number(row.target_id) === staffId ? row.staff_id : Number(row.target_id);
        if (other !== null && other !== staffId) related.add(other);
      }
      return [...related].sort((a, b) => a - b);
    },
    async page(offset: number, limit: number) {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('staff_member as m')
          .selectAll('m')
          // A member not enrolled yet: when their latest unvoided link ends (or ended).
          .select((eb) =>
            eb
              .selectFrom('staff_invitation as i')
              .select((sub) => sub.fn.max('i.expires_at').as('expires_at'))
              .whereRef('i.staff_id', '=', 'm.id')
              .where('i.confirmed_at', 'is', null)
              .where('i.voided_at', 'is', null)
              .as('invitation_expires_at'),
          )
          .orderBy('m.id')
          .offset(offset)
          .limit(limit)
          .execute(),
        db.selectFrom('staff_member').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.count) };
    },
    async setRoles(trx: StaffDb, id: number, roles: StaffRole[]) {
      await trx.updateTable('staff_member').set({ roles }).where('id', '=', id).execute();
    },
    async disable(trx: StaffDb, id: number, at: Date) {
      await trx.updateTable('staff_member').set({ disabled_at: at }).where('id', '=', id).execute();
    },
    async setPassword(trx: StaffDb, id: number, passwordHash: string) {
      await trx.updateTable('staff_member').set({ password_hash: passwordHash, must_change_password: false }).where('id', '=', id).execute();
    },
    async markSignedIn(id: number, at: Date) {
      await db.updateTable('staff_member').set({ last_sign_in_at: at }).where('id', '=', id).execute();
    },
    /** Spends a second-factor step: false when it (or a later one) was spent already (a replayed code). */
    async useTotpStep(id: number, step: number, trx: StaffDb = db): Promise<boolean> {
      const result = await trx
        .updateTable('staff_member')
        .set({ totp_last_step: step })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    // Sessions: a family per sign-in, refresh tokens that rotate within it.
    async createFamily(id: string, staffId: number, at: Date) {
      await db.insertInto('staff_session_family').values({ id, staff_id: staffId, created_at: at }).execute();
    },
    findFamily(id: string) {
      return db.selectFrom('staff_session_family').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The session an access token names, with its staff member: what every staff call checks. */
    findSession(familyId: string) {
      return db
        .selectFrom('staff_session_family as f')
        .innerJoin('staff_member as m', 'm.id', 'f.staff_id')
        .select(['f.id as familyId', 'f.revoked_at', 'm.id as staffId', 'm.email', 'm.roles', 'm.must_change_password', 'm.disabled_at'])
        .where('f.id', '=', familyId)
        .executeTakeFirst();
    },
    async revokeFamily(id: string, reason: string, at: Date) {
      await db.updateTable('staff_session_family').set({ revoked_at: at, revoked_reason: reason }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    /** Ends every session of a staff member, but `keepFamilyId` when given (the one changing its password). */
    async revokeFamiliesOf(trx: StaffDb, staffId: number, reason: string, at: Date, keepFamilyId?: string) {
      let query = trx.updateTable('staff_session_family').set({ revoked_at: at, revoked_reason: reason }).where('staff_id', '=', staffId).where('revoked_at', 'is', null);
      if (keepFamilyId) query = query.where('id', '<>', keepFamilyId);
      await query.execute();
    },
    /** Sets a member's own document, once: false when one was declared already. */
    async declareDocument(trx: Transaction<Database>, staffId: number, document: { digest: string; masked: string }, at: Date): Promise<boolean> {
      const result = await trx
        .updateTable('staff_member')
        .set({ document_digest: document.digest, document_masked: document.masked, document_declared_at: at })
        .where('id', '=', staffId)
        .where('document_digest', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Records a customer account as a member's own; false when it was recorded already. */
    async insertCustomerLink(trx: Transaction<Database>, link: { staffId: number; uid: number; recordedBy: number }): Promise<boolean> {
      const inserted = await trx
        .insertInto('staff_customer_link')
        .values({ staff_id: link.staffId, uid: link.uid, recorded_by: link.recordedBy })
        .onConflict((conflict) => conflict.columns(['staff_id', 'uid']).doNothing())
        .returning('uid')
        .executeTakeFirst();
      return inserted !== undefined;
    },
    /** The customer accounts recorded as members' own, by member. */
    async customerLinks(staffIds: readonly number[], trx: StaffDb = db): Promise<Map<number, { uid: number; recordedBy: number; atMs: number }[]>> {
      const links = new Map<number, { uid: number; recordedBy: number; atMs: number }[]>();
      if (staffIds.length === 0) return links;
      const rows = await trx.selectFrom('staff_customer_link').selectAll().where('staff_id', 'in', [...staffIds]).orderBy('created_at').orderBy('uid').execute();
      for (const row of rows) {
        const list = links.get(row.staff_id) ?? [];
        list.push({ uid: row.uid, recordedBy: row.recorded_by, atMs: timeMs(row.created_at) });
        links.set(row.staff_id, list);
      }
      return links;
    },
    async insertRefreshToken(token: { tokenHash: string; familyId: string; expiresAt: Date; createdAt: Date }) {
      await db.insertInto('staff_refresh_token').values({ token_hash: token.tokenHash, family_id: token.familyId, expires_at: token.expiresAt, created_at: token.createdAt }).execute();
    },
    findRefreshToken(tokenHash: string) {
      return db.selectFrom('staff_refresh_token').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /** Spends one refresh token and stores its successor in one transaction; false when it was already spent. */
    async rotateRefreshToken(spentHash: string, next: { tokenHash: string; familyId: string; expiresAt: Date }, at: Date): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const spent = await trx.updateTable('staff_refresh_token').set({ used_at: at }).where('token_hash', '=', spentHash).where('used_at', 'is', null).executeTakeFirst();
        if (Number(spent.numUpdatedRows) !== 1) return false;
        await trx.insertInto('staff_refresh_token').values({ token_hash: next.tokenHash, family_id: next.familyId, expires_at: next.expiresAt, created_at: at }).execute();
        return true;
      });
    },
  };
}

export type StaffRepository = ReturnType<typeof createStaffRepository>;

/** Rows per page and the page count of a total (at least one page only when there are rows). */
export function pageCount(total: number, limit: number): number {
  return Math.ceil(total / limit);
}

/** Stored instants as epoch milliseconds. */
export function timeMs(value: Date | string): number {
  return new Date(value).getTime();
}
