import type { FastifyInstance } from 'fastify';
import type { PriceFeedControl } from '../modules/market';
import type { MessageDelivery } from '../messaging/delivery';
import type { Settings } from '../settings';

/**
 * Development routes under `/dev/`, each registered only when its setting is on (never by
 * default): the outbox reader and the price feed's pause and resume. Tests fund real accounts
 * the product's way (a deposit approved by finance staff, moved in through a wallet transfer).
 */
export function registerDevRoutes(
  app: FastifyInstance,
  deps: {
    settings: Pick<Settings, 'devOutbox' | 'devMarketControl'>;
    delivery: MessageDelivery;
    feedControl: PriceFeedControl | null;
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
}
