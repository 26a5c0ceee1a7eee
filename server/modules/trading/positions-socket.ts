import type { FastifyInstance } from 'fastify';
import { bookOf } from '../../../src/shared/session/token';
import { createConnectionLimit, tooManyConnectionsCode } from '../../http/connection-limits';
import type { SessionCheck } from '../../http/signed-in';
import type { PositionsFeed } from './positions-feed';

export const positionsSocketPath = '/exchange/ws';

/**
 * `/exchange/ws`: the positions feed of the signed-in account. Browsers cannot set headers
 * on a socket, so its access token is in the query and checked here (4401 when refused),
 * with per-address and per-user limits on open sockets (4429).
 */
export function registerPositionsSocket(
  app: FastifyInstance,
  deps: { feed: PositionsFeed; sessions: SessionCheck; socketsPerAddress: number; socketsPerUser: number },
) {
  const { feed, sessions } = deps;
  const perAddress = createConnectionLimit(deps.socketsPerAddress);
  const perUser = createConnectionLimit(deps.socketsPerUser);
  app.get(positionsSocketPath, { websocket: true, config: { signsInItself: true } }, (socket, request) => {
    const token = (request.query as { token?: string }).token ?? '';
    const refuse = () => socket.close(4401, 'sign-in required');
    const releases: (() => void)[] = [];
    let detach: (() => void) | null = null;
    let closed = false;
    socket.on('close', () => {
      closed = true;
      detach?.();
      for (const release of releases) release();
    });
    const byAddress = perAddress.acquire(request.ip);
    if (!byAddress) return socket.close(tooManyConnectionsCode, 'too many connections from this address');
    releases.push(byAddress);
    void (async () => {
      const payload = token ? await sessions.verify(token) : null;
      if (!payload?.fid || !(await sessions.alive(payload))) return refuse();
      if (closed) return;
      const byUser = perUser.acquire(String(payload.uid));
      if (!byUser) return socket.close(tooManyConnectionsCode, 'too many connections for this account');
      releases.push(byUser);
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
