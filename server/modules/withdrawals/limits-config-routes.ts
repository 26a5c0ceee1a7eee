import { configLimits, configSetLimits } from '../../../src/shared/api/staff';
import type { ProposalsService } from '../config-proposals/proposals-service';
import type { Settings } from '../../settings';
import type { StaffRoutes } from '../staff';
import type { WithdrawalLimits } from './withdrawal-limits';

/**
 * The admin's limits by verification level: `config/limits` reads them with the server's
 * settings around them; `config/setLimits` is dual control (issue 31): one admin proposes,
 * a second approves, and only then are the limits validated again and written (the
 * proposals module audits the proposal, the decision and the change's before and after).
 */
export function registerLimitsConfigRoutes(
  staffRoutes: StaffRoutes,
  deps: { limits: WithdrawalLimits; proposals: Pick<ProposalsService, 'registerKind' | 'propose'>; settings: Settings },
) {
  const { limits, proposals, settings } = deps;
  staffRoutes.route(configLimits, async () => ({
    limits: await limits.read(),
    depositMaxUsd: settings.depositMaxUsd,
    holdSeconds: settings.withdrawalHoldSeconds,
    withdrawMinLevel: settings.withdrawMinVerification,
  }));
  proposals.registerKind('limits', {
    body: configSetLimits.body,
    action: 'config.setLimits',
    targetType: 'limits',
    target: () => null,
    apply: (trx, body) => limits.writeLimits(trx, limits.validateLimits(body)),
  });
  staffRoutes.route(configSetLimits, (body, request) => proposals.propose(request.staff, 'limits', body));
}
