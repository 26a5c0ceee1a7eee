import { isValidNewPassword } from '../../../src/shared/auth/validation';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { AppError } from '../../http/app-error';
import type { StaffContext, StaffDependencies } from './staff-context';
import type { StaffSession, StaffSessions } from './staff-sessions';

/**
 * A staff member changes their own password: the old one must match, the new one follows
 * customers' sign-up rules and must differ. It clears the one-time password's flag and
 * ends the member's other sessions (wherever else the old password was used).
 */
export function createStaffPassword(deps: StaffDependencies, context: StaffContext, sessions: StaffSessions) {
  const { repository, audit, limits } = deps;

  return {
    async changePassword(session: StaffSession, input: { oldPassword: string; newPassword: string }, address: string) {
      const throttleKey = await context.claim(limits.passwordChecks, `staff-password:${session.staffId}`);
      const member = await repository.findById(session.staffId);
      if (!member?.password_hash || !(await verifyPassword(member.password_hash, input.oldPassword))) throw new AppError(ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD);
      await limits.passwordChecks.reset(throttleKey);
      if (!isValidNewPassword(input.newPassword)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'newPassword');
      if (input.newPassword === input.oldPassword) throw new AppError(ErrorCode.PASSWORD_UNCHANGED);
      const passwordHash = await hashPassword(input.newPassword);
      await repository.db.transaction().execute(async (trx) => {
        await repository.setPassword(trx, member.id, passwordHash);
        await sessions.endSessions(trx, member.id, 'password-changed', session.familyId);
        await audit.append(trx, { staffId: member.id, address }, {
          action: 'staff.changePassword',
          targetType: 'staff',
          targetId: String(member.id),
          before: { mustChangePassword: member.must_change_password },
          after: { mustChangePassword: false },
        });
      });
    },
  };
}
