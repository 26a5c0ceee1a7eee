import { noticesSend } from '../../../src/shared/api/staff';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { inTransaction } from '../../db/after-commit';
import type { DatabaseHandle } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { IdentityService } from '../identity/identity-service';
import type { StaffAudit, StaffRoutes } from '../staff';
import { customNoticeActionType, type NoticesService } from './notices-service';

/** `notices/send` (support): a custom notice to one customer (an unknown uid is USER_NOT_FOUND) or to every customer. */
export function registerNoticesStaffRoutes(deps: {
  database: DatabaseHandle;
  staffRoutes: StaffRoutes;
  audit: StaffAudit;
  notices: NoticesService;
  identity: Pick<IdentityService, 'userExists'>;
}) {
  const { staffRoutes, audit, notices } = deps;
  staffRoutes.route(noticesSend, async ({ uid, title, content }, request) => {
    if (uid !== undefined && !(await deps.identity.userExists(uid))) throw new AppError(ErrorCode.USER_NOT_FOUND);
    const count = await inTransaction(deps.database.db, async (trx) => {
      const sent = await notices.send(trx, { uid: uid ?? 'everyone', actionType: customNoticeActionType, title, content });
      await audit.record(trx, request.staff, {
        action: 'notices.send',
        targetType: 'notice',
        targetId: uid === undefined ? 'everyone' : String(uid),
        uid: uid ?? null,
        before: null,
        after: { to: uid ?? 'everyone', title, content, recipients: sent },
      });
      return sent;
    });
    return { count };
  });
}
