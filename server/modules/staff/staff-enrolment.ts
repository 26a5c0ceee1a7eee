import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import { isValidNewPassword } from '../../../src/shared/auth/validation';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { hashPassword } from '../../auth/passwords';
import { generateTotpSecret, matchTotpStep, otpauthUrl } from '../../auth/totp';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { StaffContext, StaffDependencies } from './staff-context';

/** The console's page an invitation opens; the token rides in the fragment, which no server log or Referer carries. */
export const enrolmentPagePath = '/enrol';

/**
 * Enrolment by invitation: an admin's `staff/create` makes the member and a single-use link;
 * the member (never the admin) chooses a password and receives the authenticator secret
 * (`enrol`), then proves the authenticator with a first code (`confirm`). Until then the
 * member cannot sign in. Each step locks the invitation, so two uses of one link take turns
 * and only one succeeds.
 */
export function createStaffEnrolment(deps: StaffDependencies, context: StaffContext) {
  const { repository, audit, cipher, limits, settings } = deps;
  const { limit, claim, nowMs, now } = context;
  const tokenHash = (token: string) => cipher.digest(`staff-invitation:${token}`);

  /** The invitation a token names, locked, or the translated refusal: unknown (or its member disabled), spent, replaced by a newer one, expired. */
  async function usableInvitation(trx: Transaction<Database>, token: string, step: 'enrol' | 'confirm') {
    const invitation = await repository.lockInvitation(trx, tokenHash(token));
    if (!invitation || invitation.disabled_at !== null) throw new AppError(ErrorCode.STAFF_INVITATION_INVALID);
    if (invitation.confirmed_at !== null || (step === 'enrol' && invitation.password_set_at !== null)) throw new AppError(ErrorCode.STAFF_INVITATION_USED);
    if (invitation.voided_at !== null) throw new AppError(ErrorCode.STAFF_INVITATION_REPLACED);
    if (invitation.expires_at.getTime() <= nowMs()) throw new AppError(ErrorCode.STAFF_INVITATION_EXPIRED);
    if (step === 'confirm' && (invitation.password_set_at === null || invitation.totp_secret === null)) throw new AppError(ErrorCode.STAFF_INVITATION_INVALID, 'choose a password first');
    return invitation;
  }

  return {
    /**
     * Writes a new member's invitation in the creating transaction and queues its message
     * there too: the link exists exactly when the member does. Answers nothing the admin
     * could sign in with.
     */
    async sendInvitation(trx: Transaction<Database>, member: { staffId: number; email: string }) {
      if (!deps.messages) throw new Error('staff invitations need the outbox: the staff core was built without one');
      const token = crypto.randomBytes(32).toString('base64url');
      const expiresAt = new Date(nowMs() + settings.staffInvitationTtlMs);
      await repository.insertInvitation(trx, { staffId: member.staffId, tokenHash: tokenHash(token), expiresAt, at: now() });
      const link = `${settings.staffConsoleUrl}${enrolmentPagePath}#${token}`;
      const hours = Math.round(settings.staffInvitationTtlMs / 3_600_000);
      await deps.messages.enqueue(trx, {
        channel: 'email',
        to: member.email,
        subject: `${settings.siteName}: your staff account`,
        text: `You have been given a ${settings.siteName} staff account. Open ${link} within ${hours} hours to choose your password and set up your authenticator app. The link works once. If you did not expect this, ignore this message.`,
        code: link,
        purpose: 'staff invitation',
      });
      return { expiresAt };
    },

    /** Step one: the member's own password (customers' rules) and a new authenticator secret, shown to them only. */
    async enrol(input: { token: string; password: string }, address: string): Promise<{ otpauthUrl: string }> {
      await limit(limits.enrolPerAddress, address);
      if (!isValidNewPassword(input.password)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'password');
      // The slow hash outside the lock; the invitation is checked (again) under it.
      const passwordHash = await hashPassword(input.password);
      const secret = generateTotpSecret();
      const email = await repository.db.transaction().execute(async (trx) => {
        const invitation = await usableInvitation(trx, input.token, 'enrol');
        await repository.setEnrolmentCredentials(trx, { id: invitation.id, staffId: invitation.staff_id }, { passwordHash, sealedTotpSecret: cipher.encrypt(secret) }, now());
        await audit.append(trx, { staffId: invitation.staff_id, address }, { action: 'staff.enrol', targetType: 'staff', targetId: String(invitation.staff_id), before: { enrolled: false }, after: { passwordSet: true } });
        return invitation.email;
      });
      return { otpauthUrl: otpauthUrl(`${settings.siteName} Staff`, email, secret) };
    },

    /** Step two: a first code from the authenticator; its step is spent (no replay at sign-in) and the invitation with it. */
    async confirm(input: { token: string; code: string }, address: string): Promise<void> {
      await limit(limits.enrolPerAddress, address);
      const throttleKey = await claim(limits.enrolCodes, `staff-enrol:${tokenHash(input.token)}`);
      await repository.db.transaction().execute(async (trx) => {
        const invitation = await usableInvitation(trx, input.token, 'confirm');
        const secret = invitation.totp_secret === null ? null : cipher.decrypt(invitation.totp_secret);
        const step = secret === null ? null : matchTotpStep(secret, input.code, nowMs());
        if (step === null || !(await repository.useTotpStep(invitation.staff_id, step, trx))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
        await repository.confirmEnrolment(trx, { id: invitation.id, staffId: invitation.staff_id }, now());
        await audit.append(trx, { staffId: invitation.staff_id, address }, { action: 'staff.enrolConfirm', targetType: 'staff', targetId: String(invitation.staff_id), before: { enrolled: false }, after: { enrolled: true } });
      });
      await limits.enrolCodes.reset(throttleKey);
    },
  };
}

export type StaffEnrolment = ReturnType<typeof createStaffEnrolment>;
