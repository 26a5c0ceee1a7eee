import type { FastifyInstance } from 'fastify';
import { exchangeCadenceMessage } from '../../../src/shared/api/trading';
import { bookOf } from '../../../src/shared/session/token';
import { tooManyConnectionsCode, type ConnectionLimit } from '../../http/connection-limits';
import type { SessionCheck } from '../../http/signed-in';
import type { PositionsFeed } from './positions-feed';

export const positionsSocketPath = '/exchange/ws';
/** A cadence message is a few dozen octets; longer ones are not parsed. */
const maxInboundBytes = 256;

/**
 * `/exchange/ws`: the positions feed of the signed-in account. Browsers cannot set headers
 * on a socket, so its access token is in the query and checked here (4401 when refused),
 * with per-address and per-user limits on open sockets (4429).
 */
export function registerPositionsSocket(
  app: FastifyInstance,
  deps: {
    feed: PositionsFeed;
    sessions: SessionCheck;
    /** Open sockets per client address and per user, counted across every server process. */
    perAddress: ConnectionLimit;
    perUser: ConnectionLimit;
  },
) {
  const { feed, sessions, perAddress, perUser } = deps;
  app.get(positionsSocketPath, { websocket: true, config: { signsInItself: true } }, (socket, request) => {
    const token = (request.query as { token?: string }).token ?? '';
    const refuse = () => socket.close(4401, 'sign-in required');
    const releases: (() => void)[] = [];
    let detach: (() => void) | null = null;
    let closed = false;
    // The one thing a browser may say: the pace of its price-moved pushes. Anything else, or
    // anything before the socket has joined the feed, is ignored.
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary || !Buffer.isBuffer(data) || data.length > maxInboundBytes) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString('utf8'));
      } catch {
        return;
      }
      const message = exchangeCadenceMessage.safeParse(parsed);
      if (message.success) feed.setCadence(socket, message.data.data.intervalMs);
    });
    socket.on('close', () => {
      closed = true;
      detach?.();
      for (const release of releases) release();
    });
    void (async () => {
      const byAddress = await perAddress.acquire(request.ip);
      if (!byAddress) return socket.close(tooManyConnectionsCode, 'too many connections from this address');
      releases.push(byAddress);
      if (closed) return byAddress();
      const payload = token ? await sessions.verify(token) : null;
      if (!payload?.fid || !(await sessions.alive(payload))) return refuse();
      if (closed) return;
      const byUser = await perUser.acquire(String(payload.uid));
      if (!byUser) return socket.close(tooManyConnectionsCode, 'too many connections for this account');
      releases.push(byUser);
      if (closed) return byUser();
      // Remembered with its session, so that the socket closes (4401) when the session ends.
      const session = { uid: payload.uid, fid: payload.fid, virtualStatus: payload.virtualStatus };
      detach = await feed.attach(socket, payload.uid, bookOf(payload), session);
      if (closed) return detach();
      // A session that ended while this socket was joining was announced before it was
      // listed: look once more rather than leave it to the periodic re-check.
      if (!(await sessions.alive(payload))) feed.endSessions({ fid: payload.fid });
    })().catch((error: unknown) => {
      app.log.error({ err: error }, 'positions socket failed');
      refuse();
    });
  });
}
