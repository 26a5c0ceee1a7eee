import { sql, type Kysely, type Transaction } from 'kysely';
import type { ContactType } from '../../../src/shared/api/auth';
import { inTransaction, type Executor } from '../../db/after-commit';
import type { Database } from '../../db/schema';

export function createIdentityRepository(db: Kysely<Database>) {
  return {
    findUserByContact(type: ContactType, username: string) {
      const query = db.selectFrom('app_user').selectAll();
      return (type === 'E' ? query.where('email', '=', username.toLowerCase()) : query.where('phone', '=', username)).executeTakeFirst();
    },
    findUserByUid(uid: number, executor: Executor = db) {
      return executor.selectFrom('app_user').selectAll().where('uid', '=', uid).executeTakeFirst();
    },
    findUserByInviteCode(inviteCode: string) {
      return db.selectFrom('app_user').select('uid').where('invite_code', '=', inviteCode.toUpperCase()).executeTakeFirst();
    },
    async createUser(user: { email: string | null; phone: string | null; registerType: ContactType; passwordHash: string; nick: string; inviteCode: string; invitedBy: number | null; locale: string }) {
      const row = await db
        .insertInto('app_user')
        .values({
          email: user.email,
          phone: user.phone,
          register_type: user.registerType,
          password_hash: user.passwordHash,
          nick: user.nick,
          invite_code: user.inviteCode,
          invited_by: user.invitedBy,
          locale: user.locale,
        })
        .returning('uid')
        .executeTakeFirstOrThrow();
      return row.uid;
    },
    async updatePassword(uid: number, passwordHash: string, executor: Executor = db) {
      // A password change starts the withdrawals' cooling-off (security_changed_at), in the same statement.
      await executor.updateTable('app_user').set({ password_hash: passwordHash, security_changed_at: sql<Date>`now()` }).where('uid', '=', uid).execute();
    },
    /** Work in one transaction whose after-commit callbacks run once it commits (server/db/after-commit.ts). */
    inTransaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return inTransaction(db, work);
    },
    /** Sets the e-mail of a user who has none; false when one was set meanwhile. A taken address throws the unique violation. */
    async bindEmail(executor: Executor, uid: number, email: string): Promise<boolean> {
      const result = await executor.updateTable('app_user').set({ email, security_changed_at: sql<Date>`now()` }).where('uid', '=', uid).where('email', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /**
     * Stores a new, not yet active secret in one conditional statement: false when the second
     * factor is on (an enable that committed meanwhile is never overwritten).
     */
    async startTotpSetup(uid: number, sealedSecret: string): Promise<boolean> {
      const result = await db.updateTable('app_user').set({ totp_secret: sealedSecret }).where('uid', '=', uid).where('totp_enabled', '=', false).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Turns the second factor on for the secret the code was checked against: false when a set-up replaced it (or it is on) meanwhile. */
    async enableTotp(uid: number, sealedSecret: string): Promise<boolean> {
      const result = await db
        .updateTable('app_user')
        // Turning the second factor on starts the withdrawals' cooling-off, in the same statement.
        .set({ totp_enabled: true, security_changed_at: sql<Date>`now()` })
        .where('uid', '=', uid)
        .where('totp_secret', '=', sealedSecret)
        .where('totp_enabled', '=', false)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async setTotp(uid: number, sealedSecret: string | null, enabled: boolean) {
      // Turning the second factor on or off starts the withdrawals' cooling-off; a new secret not yet enabled does not.
      await db
        .updateTable('app_user')
        .set({
          totp_secret: sealedSecret,
          totp_enabled: enabled,
          security_changed_at: sql<Date>`case when totp_enabled is distinct from ${enabled} then now() else security_changed_at end`,
        })
        .where('uid', '=', uid)
        .execute();
    },
    /**
     * Spends a second-factor step: false when it (or a later one) was spent already (a
     * replayed code). With `request` (an idempotent request's tag), the step that same
     * request spent may be presented again: a retry, never another request.
     */
    async useTotpStep(uid: number, step: number, request: string | null = null): Promise<boolean> {
      const result = await db
        .updateTable('app_user')
        .set({ totp_last_step: step, totp_last_request: request })
        .where('uid', '=', uid)
        .where((eb) => {
          const unspent = [eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)];
          if (request !== null) unspent.push(eb.and([eb('totp_last_step', '=', step), eb('totp_last_request', '=', request)]));
          return eb.or(unspent);
        })
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Records the first switch to demo; true only for the call that recorded it. */
    async markVirtualUsed(uid: number, at: Date): Promise<boolean> {
      const result = await db.updateTable('app_user').set({ virtual_used_at: at }).where('uid', '=', uid).where('virtual_used_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    // One-time codes
    async insertCode(code: { destination: string; purpose: number; codeHash: string; expiresAt: Date; createdAt: Date }): Promise<number> {
      const row = await db
        .insertInto('verification_code')
        .values({ destination: code.destination, purpose: code.purpose, code_hash: code.codeHash, expires_at: code.expiresAt, created_at: code.createdAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    /**
     * Records a request for a code and says whether it may be served: not within
     * `resendMs` of the last one that was, nor beyond `limit` in the `windowMs` window.
     * One statement, so two parallel requests never both pass; a refused request changes
     * nothing. Answers the seconds to wait when refused.
     */
    async recordCodeRequest(key: string, at: Date, rule: { resendMs: number; windowMs: number; limit: number }, executor: Executor = db): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
      const resendAfter = new Date(at.getTime() - rule.resendMs);
      const windowAfter = new Date(at.getTime() - rule.windowMs);
      const newWindow = sql<boolean>`r.window_start <= ${windowAfter}`;
      const recorded = await sql<{ key: string }>`
        insert into code_request as r (key, last_at, window_start, window_count)
        values (${key}, ${at}, ${at}, 1)
        on conflict (key) do update set
          last_at = ${at},
          window_start = case when ${newWindow} then ${at} else r.window_start end,
          window_count = case when ${newWindow} then 1 else r.window_count + 1 end
        where r.last_at <= ${resendAfter} and (${newWindow} or r.window_count < ${rule.limit})
        returning key`.execute(executor);
      if (recorded.rows.length === 1) return { allowed: true };
      const row = await executor.selectFrom('code_request').selectAll().where('key', '=', key).executeTakeFirst();
      if (!row) return { allowed: false, retryAfterSeconds: 1 };
      const resendWaitMs = new Date(row.last_at).getTime() + rule.resendMs - at.getTime();
      const windowWaitMs = row.window_count >= rule.limit ? new Date(row.window_start).getTime() + rule.windowMs - at.getTime() : 0;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(resendWaitMs, windowWaitMs) / 1000)) };
    },
    latestCode(destination: string, purpose: number) {
      return db
        .selectFrom('verification_code')
        .selectAll()
        .where('destination', '=', destination)
        .where('purpose', '=', purpose)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    async setCodeHash(id: number, codeHash: string) {
      await db.updateTable('verification_code').set({ code_hash: codeHash }).where('id', '=', id).execute();
    },
    /**
     * One guess at a code, checked and counted in one statement: only a live code (not
     * used, not expired, under `maxAttempts`) is evaluated, each evaluation counts, and a
     * matching guess consumes it. Concurrent guesses queue on the row, and each one sees
     * the count the previous left, so no more than `maxAttempts` are ever evaluated.
     * Comparing the keyed hashes in SQL leaks nothing a guesser can use.
     */
    async guessCode(id: number, guessHash: string, maxAttempts: number, at: Date): Promise<'accepted' | 'wrong' | 'refused'> {
      const row = await db
        .updateTable('verification_code')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          consumed_at: eb.case().when('code_hash', '=', guessHash).then(sql<Date>`${at}::timestamptz`).else(null).end(),
        }))
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .where('attempts', '<', maxAttempts)
        .where('expires_at', '>', at)
        .returning('consumed_at')
        .executeTakeFirst();
      if (!row) return 'refused';
      return row.consumed_at ? 'accepted' : 'wrong';
    },

    // Image captchas
    async insertCaptcha(uuid: string, answerHash: string, expiresAt: Date) {
      await db.insertInto('image_captcha').values({ uuid, answer_hash: answerHash, expires_at: expiresAt }).execute();
    },
    /** Takes a captcha for one check (used or not, it cannot be checked again). */
    async takeCaptcha(uuid: string, at: Date) {
      const row = await db.selectFrom('image_captcha').selectAll().where('uuid', '=', uuid).executeTakeFirst();
      if (!row || row.used_at) return null;
      const result = await db.updateTable('image_captcha').set({ used_at: at }).where('uuid', '=', uuid).where('used_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? row : null;
    },

    // Sessions: a family per sign-in, refresh tokens that rotate within it
    async createFamily(id: string, uid: number, at: Date) {
      await db.insertInto('session_family').values({ id, uid, created_at: at }).execute();
    },
    /** A live session's state in one read: its family (ended or not, whose) and whether its user is blocked (the signed-in check of every call). */
    sessionState(familyId: string) {
      return db
        .selectFrom('session_family')
        .leftJoin('app_user', 'app_user.uid', 'session_family.uid')
        .select(['session_family.uid', 'session_family.revoked_at', 'app_user.uid as user_uid', 'app_user.blocked', 'app_user.trade_prohibited'])
        .where('session_family.id', '=', familyId)
        .executeTakeFirst();
    },
    findFamily(id: string) {
      return db.selectFrom('session_family').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async revokeFamily(id: string, reason: string, at: Date) {
      await db.updateTable('session_family').set({ revoked_at: at, revoked_reason: reason }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    /** Answers how many live sessions ended. */
    async revokeFamiliesOfUser(uid: number, reason: string, at: Date, executor: Executor = db): Promise<number> {
      const result = await executor.updateTable('session_family').set({ revoked_at: at, revoked_reason: reason }).where('uid', '=', uid).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async insertRefreshToken(token: { tokenHash: string; familyId: string; virtualStatus: number; expiresAt: Date; createdAt: Date }) {
      await db
        .insertInto('refresh_token')
        .values({ token_hash: token.tokenHash, family_id: token.familyId, virtual_status: token.virtualStatus, expires_at: token.expiresAt, created_at: token.createdAt })
        .execute();
    },
    findRefreshToken(tokenHash: string) {
      return db.selectFrom('refresh_token').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /**
     * Spends one refresh token and stores its successor, in one transaction; false when
     * the token was already spent (a reuse, or a concurrent refresh that won).
     */
    async rotateRefreshToken(spentHash: string, next: { tokenHash: string; familyId: string; virtualStatus: number; expiresAt: Date }, at: Date): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const spent = await trx.updateTable('refresh_token').set({ used_at: at }).where('token_hash', '=', spentHash).where('used_at', 'is', null).executeTakeFirst();
        if (Number(spent.numUpdatedRows) !== 1) return false;
        await trx
          .insertInto('refresh_token')
          .values({ token_hash: next.tokenHash, family_id: next.familyId, virtual_status: next.virtualStatus, expires_at: next.expiresAt, created_at: at })
          .execute();
        return true;
      });
    },
    // The back office
    /** Every customer's uid, as a query another statement can use (a notice to everyone). */
    customerUidsQuery(executor: Executor) {
      return executor.selectFrom('app_user').select('uid');
    },
    /** The user's row locked for a change in the caller's transaction. */
    lockUser(executor: Executor, uid: number) {
      return executor.selectFrom('app_user').selectAll().where('uid', '=', uid).forUpdate().executeTakeFirst();
    },
    async setTradeProhibited(executor: Executor, uid: number, change: { prohibited: boolean; reason: string; at: Date }) {
      await executor
        .updateTable('app_user')
        .set({ trade_prohibited: change.prohibited, trade_prohibited_reason: change.reason, trade_prohibited_changed_at: change.at })
        .where('uid', '=', uid)
        .execute();
    },
    /**
     * Customers by exact uid (a numeric query) or by the start of their e-mail (any case) or
     * phone, lowest uid first, with the number of matches.
     */
    async searchUsers(query: string, page: number, limit: number) {
      const escaped = query.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`);
      const prefix = `${escaped}%`;
      const asUid = /^\d{1,9}$/.test(query) ? Number(query) : null;
      const matching = db.selectFrom('app_user').where((eb) =>
        eb.or([
          ...(asUid !== null ? [eb('uid', '=', asUid)] : []),
          eb(eb.fn('lower', ['email']), 'like', prefix),
          eb('phone', 'like', prefix),
        ]),
      );
      const [rows, total] = await Promise.all([
        matching.selectAll().orderBy('uid').limit(limit).offset((page - 1) * limit).execute(),
        matching.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.count) };
    },

    /** Spends every live refresh token of a family (an account switch replaces them). */
    async spendFamilyTokens(familyId: string, at: Date) {
      await db.updateTable('refresh_token').set({ used_at: at }).where('family_id', '=', familyId).where('used_at', 'is', null).execute();
    },
  };
}

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
