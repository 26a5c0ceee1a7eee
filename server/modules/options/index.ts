import type { FastifyInstance } from 'fastify';
import type { MoneyModuleBase } from '../module-base';
import type { SignedInRoutes } from '../../http/signed-in';
import type { FreeMarginRead } from '../trading/free-margin';
import type { PositionsFeed } from '../trading/positions-feed';
import { registerOptionsRoutes } from './options-routes';
import { createOptionsService, type OptionsService } from './options-service';
import type { TradeMode } from '../../../src/shared/config/trade-mode';
import type { ClusterContext } from '../../cluster/cluster-context';

declare module 'fastify' {
  interface FastifyInstance {
    /** Timed options (not `options`: Fastify has that route method). */
    timedOptions: OptionsService;
  }
}

/** Timed options: products, placement, settlement on recorded ticks, pushes on the positions feed. */
export async function registerOptions(
  app: FastifyInstance,
  deps: MoneyModuleBase & {
    /** New options need free margin, as orders do (trading's read). */
    freeMarginIn: FreeMarginRead;
    /** Whether the user has a withdrawal awaiting review: the real account cannot trade then (406). */
    withdrawalUnderReview: (uid: number) => Promise<boolean>;
    /** Whether the brand offers a trade mode now (the site's switches). */
    tradeModeOffered: (mode: TradeMode) => Promise<boolean>;
    positionsFeed: PositionsFeed & { optionScheduled(symbol: string, endMs: number): void };
    signedIn: SignedInRoutes;
    cluster: ClusterContext;
  },
): Promise<OptionsService> {
  const { settings, positionsFeed, cluster } = deps;
  const options = createOptionsService({
    db: deps.database.db,
    ledger: deps.ledger,
    market: deps.market,
    settings: {
      stalePriceMs: settings.stalePriceMs,
      settlementGraceMs: settings.optionSettlementGraceMs,
      settlementBatch: settings.optionSettlementBatch,
      settlementSweepMs: settings.optionSettlementSweepMs,
      tickFlushMs: settings.optionTickFlushMs,
      tickBufferMax: settings.optionTickBufferMax,
      tickRetentionHours: settings.optionTickRetentionHours,
    },
    onOrder: (uid, book, order) => positionsFeed.sendTo(uid, book, { type: 'option', data: order }),
    onChange: (uid, book) => positionsFeed.changed(uid, book),
    freeMarginIn: deps.freeMarginIn,
    withdrawalUnderReview: deps.withdrawalUnderReview,
    optionModeOffered: () => deps.tradeModeOffered('option'),
    jobsLeading: () => cluster.jobs.leading(),
    jobsFence: (trx) => cluster.jobs.fenceIn(trx),
    onScheduled: (symbol, endMs) => positionsFeed.optionScheduled(symbol, endMs),
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
    log: (message, error) => app.log.error({ err: error }, message),
  });
  // Before the price source starts: options that ended while the server was down settle on the ticks recorded then.
  await options.start();
  // With several processes: options placed elsewhere are watched here too, and a process
  // that takes the jobs over first records and settles every running option.
  cluster.onOptionScheduled((symbol, endMs) => options.watch(symbol, endMs));
  cluster.jobs.onChange((leading) => {
    if (leading) options.start().catch((error: unknown) => app.log.error({ err: error }, 'taking the option settlement over failed'));
  });
  await registerOptionsRoutes(app, deps.signedIn, options);
  app.decorate('timedOptions', options);
  app.addHook('onClose', () => options.stop());
  return options;
}
