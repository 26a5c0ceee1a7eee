import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import { isValidEmail } from '../../../src/shared/auth/validation';
import type { StaffMember } from '../../../src/shared/api/staff';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { staffRoles, type StaffRole } from '../../../src/shared/staff/roles';
import { hashPassword } from '../../auth/passwords';
import { generateTotpSecret, otpauthUrl } from '../../auth/totp';
import { inTransaction } from '../../db/after-commit';
import { isUniqueViolation } from '../../db/database-errors';
import { AppError } from '../../http/app-error';
import type { Database } from '../../db/schema';
import type { StaffActor } from './audit';
import type { StaffContext, StaffDependencies } from './staff-context';
import type { StaffDuties } from './staff-duties';
import type { StaffEnrolment } from './staff-enrolment';
import { pageCount, storedRoles, timeMs } from './staff-repository';
import type { StaffSessions } from './staff-sessions';

/** Who creates a staff member with credentials: the command line on the server's machine, never an admin in the console. */
export type CommandLineCreator = { staffId: null; address: 'cli' };

/** The audit's view of a staff member: never a password or a secret. */
function auditView(member: { email: string; roles: readonly string[]; disabled: boolean }) {
  return { email: member.email, roles: [...member.roles], disabled: member.disabled };
}

/** Roles as given (a repeated role counts once); a clear error for an empty list or an unknown role. */
export function parseRoles(roles: readonly string[]): StaffRole[] {
  const known = new Set<string>(staffRoles);
  const unknown = roles.filter((role) => !known.has(role));
  if (roles.length === 0 || unknown.length > 0) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `roles: expected one or more of ${staffRoles.join(', ')}`);
  return staffRoles.filter((role) => roles.includes(role));
}

/**
 * Staff accounts: listing, inviting (an admin: the member sets their own credentials),
 * creating with credentials (the command line's first admin), roles and disabling. Every
 * change writes one audit row in its own transaction.
 */
export function createStaffManagement(deps: StaffDependencies, context: StaffContext, sessions: StaffSessions, enrolment: StaffEnrolment, duties: StaffDuties) {
  const { repository, audit, cipher, settings } = deps;

  /**
   * Locks the acting admin's row and the target's (in id order), then checks the actor as
   * they are now, not as the call found them: an admin disabled or demoted by another admin
   * meanwhile (two admins disabling or demoting each other at once) may no longer act, so
   * the actor, who cannot disable or demote themselves, stays an enabled admin and the back
   * office never loses its last one.
   */
  async function lockActorAndTarget(trx: Transaction<Database>, actor: StaffActor, targetId: number) {
    const rows = await repository.lockByIds(trx, [actor.staffId, targetId]);
    stillAnAdmin(rows.find((row) => row.id === actor.staffId));
    const member = rows.find((row) => row.id === targetId);
    if (!member) throw new AppError(ErrorCode.ADMIN_NOT_FOUND, 'no such staff member');
    return member;
  }

  function stillAnAdmin(self: { disabled_at: Date | null; roles: readonly string[] | null } | undefined) {
    if (!self || self.disabled_at !== null) throw new AppError(ErrorCode.SESSION_ENDED, 'the staff member was disabled during the call');
    if (!storedRoles(self.roles).includes('admin')) throw new AppError(ErrorCode.STAFF_ROLE_REQUIRED, 'the admin role was taken away during the call', 403);
  }

  return {
    async list(page: number, limit: number): Promise<{ list: StaffMember[]; pages: number }> {
      const { rows, total } = await repository.page((page - 1) * limit, limit);
      const links = await repository.customerLinks(rows.map((row) => row.id));
      return {
        list: rows.map((row) => ({
          staffId: row.id,
          email: row.email,
          roles: storedRoles(row.roles),
          disabled: row.disabled_at !== null,
          mustChangePassword: row.must_change_password,
          enrolled: row.enrolled_at !== null,
          invitationExpiresTime: row.enrolled_at === null && row.invitation_expires_at !== null ? timeMs(row.invitation_expires_at) : null,
          createdTime: timeMs(row.created_at),
          lastSignInTime: row.last_sign_in_at ? timeMs(row.last_sign_in_at) : null,
          documentDeclared: row.document_digest !== null,
          linkedUids: (links.get(row.id) ?? []).map((link) => link.uid),
        })),
        pages: pageCount(total, limit),
      };
    },

    /**
     * A new staff member with a one-time password (to change at first sign-in) and a
     * second-factor secret, both handed out only in this answer: `npm run staff -- create`
     * on the server's machine, for the first admin. In the console an admin invites instead.
     */
    async create(input: { email: string; roles: readonly string[] }, by: CommandLineCreator): Promise<{ staffId: number; email: string; oneTimePassword: string; otpauthUrl: string }> {
      const email = input.email.trim().toLowerCase();
      if (!isValidEmail(email)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'email: not an e-mail address');
      const roles = parseRoles(input.roles);
      const oneTimePassword = crypto.randomBytes(12).toString('base64url');
      const secret = generateTotpSecret();
      const passwordHash = await hashPassword(oneTimePassword);
      try {
        const staffId = await repository.db.transaction().execute(async (trx) => {
          const id = await repository.insert(trx, { email, passwordHash, roles, sealedTotpSecret: cipher.encrypt(secret), at: context.now() });
          await audit.append(trx, { staffId: by.staffId, address: by.address }, {
            action: 'staff.create',
            targetType: 'staff',
            targetId: String(id),
            before: null,
            after: auditView({ email, roles, disabled: false }),
          });
          return id;
        });
        return { staffId, email, oneTimePassword, otpauthUrl: otpauthUrl(`${settings.siteName} Staff`, email, secret) };
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(ErrorCode.ACCOUNT_EXISTS, 'a staff member has this e-mail');
        throw error;
      }
    },

    /**
     * `staff/create`: a new member with no credentials and an invitation sent to their
     * address (the outbox, in this transaction). The admin learns where it went, nothing
     * that signs in: the member chooses their password and receives their authenticator
     * secret themselves (staff-enrolment.ts).
     */
    async invite(actor: StaffActor, input: { email: string; roles: readonly string[] }): Promise<{ staffId: number; invitationSentTo: string }> {
      const email = input.email.trim().toLowerCase();
      if (!isValidEmail(email)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'email: not an e-mail address');
      const roles = parseRoles(input.roles);
      try {
        // inTransaction: the outbox's sender is woken once the member and their invitation have committed.
        const staffId = await inTransaction(repository.db, async (trx) => {
          stillAnAdmin((await repository.lockByIds(trx, [actor.staffId]))[0]);
          const id = await repository.insertInvited(trx, { email, roles, at: context.now() });
          const { expiresAt } = await enrolment.sendInvitation(trx, { staffId: id, email });
          await audit.record(trx, actor, {
            action: 'staff.create',
            targetType: 'staff',
            targetId: String(id),
            before: null,
            after: { ...auditView({ email, roles, disabled: false }), invitationExpiresTime: expiresAt.getTime() },
          });
          return id;
        });
        return { staffId, invitationSentTo: email };
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(ErrorCode.ACCOUNT_EXISTS, 'a staff member has this e-mail');
        throw error;
      }
    },

    /**
     * `staff/resendInvitation`: a member who has not enrolled (an expired or lost link) is
     * sent a new single-use link; every older open link is voided in the same transaction, so
     * only the newest works. The admin learns where it went, nothing that signs in; the audit
     * row counts as making the member for segregation of duties, as `staff.create` does.
     */
    async resendInvitation(actor: StaffActor, input: { staffId: number }): Promise<{ staffId: number; invitationSentTo: string }> {
      if (input.staffId === actor.staffId) throw new AppError(ErrorCode.STAFF_SELF_PROTECTED);
      return inTransaction(repository.db, async (trx) => {
        const member = await lockActorAndTarget(trx, actor, input.staffId);
        if (member.enrolled_at !== null || member.disabled_at !== null) throw new AppError(ErrorCode.STAFF_NOT_INVITABLE);
        const replacedExpiry = await repository.voidOpenInvitations(trx, member.id, context.now());
        const { expiresAt } = await enrolment.sendInvitation(trx, { staffId: member.id, email: member.email });
        await audit.record(trx, actor, {
          action: 'staff.resendInvitation',
          targetType: 'staff',
          targetId: String(member.id),
          before: { email: member.email, invitationExpiresTime: replacedExpiry?.getTime() ?? null },
          after: { email: member.email, invitationExpiresTime: expiresAt.getTime() },
        });
        return { staffId: member.id, invitationSentTo: member.email };
      });
    },

    async setRoles(actor: StaffActor, input: { staffId: number; roles: readonly string[] }) {
      const roles = parseRoles(input.roles);
      await repository.db.transaction().execute(async (trx) => {
        const member = await lockActorAndTarget(trx, actor, input.staffId);
        const before = storedRoles(member.roles);
        // An admin cannot take away their own admin role: the last admin could lock everyone out.
        if (member.id === actor.staffId && before.includes('admin') && !roles.includes('admin')) throw new AppError(ErrorCode.STAFF_SELF_PROTECTED);
        if (before.length === roles.length && before.every((role) => roles.includes(role))) throw new AppError(ErrorCode.STATUS_UNCHANGED, 'the roles are already these');
        await repository.setRoles(trx, member.id, roles);
        const disabled = member.disabled_at !== null;
        await audit.record(trx, actor, {
          action: 'staff.setRoles',
          targetType: 'staff',
          targetId: String(member.id),
          before: auditView({ email: member.email, roles: before, disabled }),
          after: auditView({ email: member.email, roles, disabled }),
        });
      });
    },

    /**
     * Disables a staff member: every session ends at once (their next call answers 23519),
     * and their pending first approvals and open proposals are voided (the listeners, first).
     */
    async disable(actor: StaffActor, input: { staffId: number }) {
      if (input.staffId === actor.staffId) throw new AppError(ErrorCode.STAFF_SELF_PROTECTED);
      await repository.db.transaction().execute(async (trx) => {
        await duties.memberDisabled(trx, input.staffId, actor);
        const member = await lockActorAndTarget(trx, actor, input.staffId);
        if (member.disabled_at !== null) throw new AppError(ErrorCode.STATUS_UNCHANGED, 'already disabled');
        await repository.disable(trx, member.id, context.now());
        await sessions.endSessions(trx, member.id, 'disabled');
        const roles = storedRoles(member.roles);
        await audit.record(trx, actor, {
          action: 'staff.disable',
          targetType: 'staff',
          targetId: String(member.id),
          before: auditView({ email: member.email, roles, disabled: false }),
          after: auditView({ email: member.email, roles, disabled: true }),
        });
      });
    },
  };
}

export type StaffManagement = ReturnType<typeof createStaffManagement>;
