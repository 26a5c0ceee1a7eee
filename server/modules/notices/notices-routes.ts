import { noticeList, noticeRead, noticeUnreadCount } from '../../../src/shared/api/notices';
import type { SignedInRoutes } from '../../http/signed-in';
import type { NoticesService } from './notices-service';

/** The customer's notice calls (src/shared/api/notices.ts): each answers only the caller's own notices. */
export async function registerNoticesRoutes(signedIn: SignedInRoutes, notices: NoticesService) {
  await signedIn((scope) => {
    scope.route(noticeUnreadCount, async (_body, { session }) => notices.unreadCount(session.uid));
    scope.route(noticeList, async (body, { session }) => notices.list(session.uid, body.page, body.limit));
    scope.route(noticeRead, async (body, { session }) => {
      await notices.read(session.uid, body.ids);
      return null;
    });
  });
}
