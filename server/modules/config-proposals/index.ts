import { configProposalsDecide, configProposalsList } from '../../../src/shared/api/staff';
import type { DatabaseHandle } from '../../db/database';
import type { StaffAudit, StaffDuties, StaffRoutes } from '../staff';
import { createProposalsRepository } from './proposals-repository';
import { createProposalsService, type ProposalsService } from './proposals-service';

export type { ProposalKind, ProposalsService } from './proposals-service';

/**
 * Dual control (config_proposal): the registry of changes that need two admins, their list
 * and their decision. Registered after the staff core (it asks segregation of duties and
 * learns of disabled members there), before the modules whose set-calls it holds (the staff
 * configuration registers the kinds).
 */
export function registerConfigProposals(deps: { database: DatabaseHandle; staffRoutes: StaffRoutes; audit: StaffAudit; duties: StaffDuties; nowMs?: (() => number) | undefined }): ProposalsService {
  const proposals = createProposalsService({ db: deps.database.db, repository: createProposalsRepository(deps.database.db), audit: deps.audit, duties: deps.duties, nowMs: deps.nowMs });
  deps.staffRoutes.route(configProposalsList, (body) => proposals.list(body));
  deps.staffRoutes.route(configProposalsDecide, async (body, request) => ({ status: await proposals.decide(request.staff, body) }));
  return proposals;
}
