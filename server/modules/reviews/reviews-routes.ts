import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { reviewsDecide, reviewsGet, reviewsList } from '../../../src/shared/api/staff';
import type { StaffAudit, StaffRoutes } from '../staff';
import type { ReviewsService } from './reviews-service';

/** The review queues' staff calls; who may call them (the kind's role) is the shared route table's 'byReviewKind'. */
export function registerReviewsRoutes(staffRoutes: StaffRoutes, reviews: ReviewsService, audit: StaffAudit, db: Kysely<Database>) {
  staffRoutes.route(reviewsList, async (body, request) => {
    const answer = await reviews.list(request.staff, body);
    // A queue page shows customers' amounts and facts: audited with the items it showed.
    await audit.record(db, request.staff, { action: 'reviews.list', targetType: 'review', targetId: null, before: null, after: { kind: body.kind, status: body.status ?? null, page: body.page, shown: answer.list.map((item) => item.id) } });
    return answer;
  });
  staffRoutes.route(reviewsGet, async (body, request) => {
    const answer = await reviews.get(body.kind, body.id);
    // An item shows a customer's money or identity facts: every read is audited before it is answered.
    await audit.record(db, request.staff, { action: 'reviews.get', targetType: 'review', targetId: String(body.id), uid: answer.item.uid, before: null, after: { kind: body.kind } });
    return answer;
  });
  staffRoutes.route(reviewsDecide, async (body, request) => ({ status: await reviews.decide(request.staff, body) }));
}
