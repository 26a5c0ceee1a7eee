import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import type { Settings } from '../../settings';
import type { StaffAudit, StaffConflicts, StaffDuties, StaffRoutes } from '../staff';
import type { CustomerOfReview } from './reviews-service';
import { createReviewsRepository } from './reviews-repository';
import { registerReviewsRoutes } from './reviews-routes';
import { createReviewsService, type ReviewsService } from './reviews-service';

export type { ReviewEffectContext, ReviewKindHandler, ReviewSubmission, ReviewsService, SubmittedReview } from './reviews-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The review queues: modules register their kinds' effects and submit items through it. */
    reviews: ReviewsService;
  }
}

/**
 * The staff review queues (one mechanism for every review kind): registered after the
 * staff module, before the modules that submit items (money, account), which receive the
 * service and call `registerKind` and `submit`.
 */
export function registerReviews(
  app: FastifyInstance,
  deps: {
    settings: Settings;
    database: DatabaseHandle;
    staffRoutes: StaffRoutes;
    audit: StaffAudit;
    duties: StaffDuties;
    conflicts: Pick<StaffConflicts, 'requireUnconflicted'>;
    customerOf: CustomerOfReview;
  },
): ReviewsService {
  const reviews = createReviewsService({
    db: deps.database.db,
    repository: createReviewsRepository(deps.database.db),
    audit: deps.audit,
    duties: deps.duties,
    conflicts: deps.conflicts,
    customerOf: deps.customerOf,
    fourEyesUsd: deps.settings.fourEyesUsd,
    soloApprovalsUsd: deps.settings.soloApprovalsUsd,
  });
  registerReviewsRoutes(deps.staffRoutes, reviews, deps.audit, deps.database.db);
  app.decorate('reviews', reviews);
  return reviews;
}
