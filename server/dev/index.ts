import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { formatMoney, money } from '../../src/shared/money/money';
import type { PriceFeedControl } from '../modules/market';
import type { IdentityService } from '../modules/identity/identity-service';
import type { MessageDelivery } from '../modules/identity/delivery';
import type { Ledger } from '../modules/ledger/ledger';
import type { Settings } from '../settings';

const fundBody = z.strictObject({ uid: z.number().int().positive(), amount: z.string().regex(/^\d{1,12}(\.\d{1,8})?$/) });

/**
 * Development routes under `/dev/`, each registered only when its setting is on (never by
 * default): the outbox reader, the price feed's pause and resume, and real-account funding.
 */
export function registerDevRoutes(
  app: FastifyInstance,
  deps: {
    settings: Pick<Settings, 'devOutbox' | 'devMarketControl' | 'devFunding'>;
    delivery: MessageDelivery;
    feedControl: PriceFeedControl | null;
    identity: IdentityService;
    ledger: Ledger;
  },
) {
  const { settings, feedControl } = deps;
  if (settings.devOutbox) {
    // DEV_OUTBOX=1: read the codes the outbox received.
    app.get('/dev/outbox', async (request, reply) => {
      const to = (request.query as { to?: string }).to ?? '';
      if (!to) return reply.status(400).send({ error: 'to is required' });
      return deps.delivery.outboxFor(to.replace(/^\+/, ''));
    });
  }
  if (settings.devMarketControl && feedControl) {
    // For browser tests and local checks of the stale flag: stop and restart the feed.
    app.post('/dev/market/pause', async () => {
      feedControl.pause();
      return { paused: true };
    });
    app.post('/dev/market/resume', async () => {
      feedControl.resume();
      return { paused: false };
    });
  }
  if (settings.devFunding) {
    // Browser tests of real-account trading need money, and no deposit flow exists yet.
    app.post('/dev/fund', async (request, reply) => {
      const body = fundBody.safeParse(request.body);
      const amount = body.success ? money(body.data.amount) : 0n;
      if (!body.success || amount <= 0n) return reply.code(400).send({ error: 'expected { uid, amount > 0 }' });
      if (!(await deps.identity.userExists(body.data.uid))) return reply.code(404).send({ error: 'no such user' });
      await deps.ledger.creditDeposit({ uid: body.data.uid, amount, idempotencyKey: `dev-fund:${crypto.randomUUID()}` });
      return { funded: formatMoney(amount) };
    });
  }
}
