import type { DatabaseHandle } from '../../db/database';
import type { SignedInRoutes } from '../../http/signed-in';
import type { IdentityService } from '../identity/identity-service';
import { createNoticesRepository } from './notices-repository';
import { registerNoticesRoutes } from './notices-routes';
import { createNoticesService, type NoticesService, type UserMessages } from './notices-service';

export { customNoticeActionType, type NoticesService, type NoticeToSend } from './notices-service';
export { registerNoticesStaffRoutes } from './notices-staff-routes';

/**
 * Notices: a customer's messages (staff notices now; deposits, withdrawals and reviews
 * later), sent inside the sender's transaction, read through `notice/*`, and announced on
 * the exchange socket with the unread count.
 */
export async function registerNotices(deps: {
  database: DatabaseHandle;
  identity: Pick<IdentityService, 'customerUidsQuery'>;
  messages: UserMessages;
  signedIn: SignedInRoutes;
  log?: (message: string, error?: unknown) => void;
}): Promise<NoticesService> {
  const notices = createNoticesService({
    repository: createNoticesRepository(deps.database.db),
    everyone: (executor) => deps.identity.customerUidsQuery(executor),
    messages: deps.messages,
    ...(deps.log ? { log: deps.log } : {}),
  });
  await registerNoticesRoutes(deps.signedIn, notices);
  return notices;
}
