import { reviewsDecide, reviewsGet, reviewsList } from '../../../src/shared/api/staff';
import type { StaffRoutes } from '../staff';
import type { ReviewsService } from './reviews-service';

/** The review queues' staff calls; who may call them (the kind's role) is the shared route table's 'byReviewKind'. */
export function registerReviewsRoutes(staffRoutes: StaffRoutes, reviews: ReviewsService) {
  staffRoutes.route(reviewsList, (body, request) => reviews.list(request.staff, body));
  staffRoutes.route(reviewsGet, (body) => reviews.get(body.kind, body.id));
  staffRoutes.route(reviewsDecide, async (body, request) => ({ status: await reviews.decide(request.staff, body) }));
}
