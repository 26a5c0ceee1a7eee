import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract } from '../../../../src/shared/api/contract';
import type { AccessTokenPayload } from '../../../../src/shared/session/token';
import { registerErrorHandler } from '../../../../server/http/error-handler';
import { registerSignedIn, type SessionCheck } from '../../../../server/http/signed-in';

const alice: AccessTokenPayload = { uid: 7, virtualStatus: 0, aesKey: 'k', exp: 0, fid: 'family-1' };

/** Tokens are 'good' (alive session) and 'ended' (well signed, session over); anything else is not a token. */
const sessions: SessionCheck = {
  verify: async (token) => (token === 'good' || token === 'ended' ? { ...alice, fid: token } : null),
  alive: async (session) => (session.fid === 'good' ? { tradeProhibited: false } : null),
};

const whoAmI = contract('/v1/waa/test/whoami', z.strictObject({}), z.object({ uid: z.number() }));

async function server() {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  const signedIn = registerSignedIn(app, sessions);
  await signedIn((scope) => scope.route(whoAmI, async (_body, { session }) => ({ uid: session.uid })));
  return app;
}

function call(app: Awaited<ReturnType<typeof server>>, url: string, token?: string) {
  return app.inject({ method: 'POST', url, payload: {}, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

describe('the signed-in scope', () => {
  it('hands its routes the verified session, and refuses a missing token (401) and an ended session (23519)', async () => {
    const app = await server();
    expect((await call(app, whoAmI.path, 'good')).json()).toMatchObject({ code: 0, data: { uid: 7 } });
    const missing = await call(app, whoAmI.path);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 400, data: null });
    const ended = await call(app, whoAmI.path, 'ended');
    expect(ended.statusCode).toBe(200);
    expect(ended.json().code).toBe(23519);
    await app.close();
  });

  it('checks what no route matched by its normalized path', async () => {
    const app = await server();
    expect((await call(app, '/V1/WAA//test/whoami')).statusCode).toBe(401);
    expect((await call(app, '/exchange/nothing', 'ended')).json().code).toBe(23519);
    await app.close();
  });

  it('refuses at start a signed-in path declared outside the scope, unless it checks its own credentials', async () => {
    const app = Fastify({ logger: false });
    registerSignedIn(app, sessions);
    expect(() => app.post('/v1/waa/forgotten', async () => null)).toThrow(/signed-in path/);
    expect(() => app.post('/%65xchange/any', async () => null)).toThrow(/signed-in path/);
    expect(() => app.post('/V1/WAA/any', async () => null)).toThrow(/signed-in path/);
    expect(() => app.post('/v1/wa-na/any', async () => null)).not.toThrow();
    expect(() => app.get('/exchange/ws', { config: { signsInItself: true } }, async () => null)).not.toThrow();
    await app.close();
  });
});
