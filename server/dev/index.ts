import type { FastifyInstance } from 'fastify';
import type { PriceFeedControl } from '../modules/market';
import type { StompEndpoint } from '../modules/market/stomp/stomp-endpoint';
import type { MessageDelivery } from '../messaging/delivery';
import type { Settings } from '../settings';

/**
 * Development routes under `/dev/`, each registered only when its setting is on (never by
 * default): the outbox reader, the price feed's pause and resume, and an outage of the market's socket endpoint. Tests fund real accounts
 * the product's way (a deposit approved by finance staff, moved in through a wallet transfer).
 */
export function registerDevRoutes(
  app: FastifyInstance,
  deps: {
    settings: Pick<Settings, 'devOutbox' | 'devMarketControl'>;
    delivery: MessageDelivery;
    feedControl: PriceFeedControl | null;
    /** The market's STOMP endpoint, for the outage route. */
    stomp?: Pick<StompEndpoint, 'cutFor'>;
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
    // For the browser test of reconnection: the market sockets go away for `seconds` (up to 10 minutes).
    const stomp = deps.stomp;
    if (stomp)
      app.post('/dev/market/outage', async (request, reply) => {
        const seconds = Number((request.query as { seconds?: string }).seconds);
        if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) return reply.status(400).send({ error: 'seconds: 1 to 600' });
        stomp.cutFor(seconds * 1000);
        return { outageSeconds: seconds };
      });
  }
}
