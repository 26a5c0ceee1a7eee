import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MarketDataSource, RawTick } from '../../server/modules/market/sources/market-data-source';
import { UserAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { createLedger } from '../../server/modules/ledger/ledger';
import { money } from '../../src/shared/money/money';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, lastCode, loginByEmail, password, registerByEmail } from './identity-support';
const { cash: cashKind } = UserAccountKind;

interface ClientSocket {
  readonly readyState: number;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(): void;
}
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string, options?: { localAddress?: string }) => ClientSocket };
const SOCKET_OPEN = 1;

/** A positions socket that records its messages and how it closed. */
function feedSocket(url: string, options?: { localAddress?: string }) {
  const socket = new WebSocket(url, options);
  const messages: string[] = [];
  let wake: (() => void) | null = null;
  socket.on('message', (data) => {
    messages.push(data.toString());
    wake?.();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return {
    socket,
    messages,
    closed,
    /** Resolves once the socket has received `count` messages in all. */
    async received(count: number) {
      while (messages.length < count) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

interface FeedMessage {
  type: 'holtOrder' | 'pendingOrder';
  data: { orderList: { uid: string; currentPrice: string; profitLoss: string }[]; profitLossSum: string; netValue: string; securityDepositPrent: string; securityDepositAvailableSum: string };
}

const clock = Date.parse('2026-01-13T12:00:00Z');

describe.each(testBackends())('positions feed on $name', (backend) => {
  let server: TestServer;
  let base = '';
  let emit: ((ticks: RawTick[]) => void) | null = null;
  const source: MarketDataSource = { name: 'scripted', start: (onTicks) => void (emit = onTicks), stop: () => void (emit = null) };
  const quote = (bid: number) => emit?.([{ symbol: 'EURUSD', timeMs: clock, bid, ask: bid + 12, volume: 1 }]);

  beforeAll(async () => {
    server = await startTestServer(backend, { FOREX_MIN_DEPOSIT: '0' }, { marketSource: source, nowMs: () => clock });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    quote(108500);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('pushes positions with live profit and the summary at once on a change and as prices move; refuses a bad token', async () => {
    const email = `feed${Date.now().toString(36)}@example.com`;
    await registerByEmail(server, email);
    const session = await loginByEmail(server, email);
    const uid = ((await call(server, '/v1/waa/user/info', {}, session.token)).data as { uid: number }).uid;
    await createLedger(server.database.db).post({
      idempotencyKey: `feed-deposit:${uid}`,
      book: 'real',
      kind: 'deposit',
      uid,
      postings: [
        { account: { owner: null, book: 'real', kind: 'deposits' }, amount: -money('1000') },
        { account: { owner: uid, book: 'real', kind: cashKind }, amount: money('1000') },
      ],
    });

    const messages: FeedMessage[] = [];
    const socket = new WebSocket(`${base}/exchange/ws?token=${encodeURIComponent(session.token)}`);
    socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as FeedMessage));
    const latest = (type: FeedMessage['type']) => messages.filter((message) => message.type === type).at(-1);
    const waitFor = async (check: () => boolean) => {
      const deadline = Date.now() + 3_000;
      while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(check()).toBe(true);
    };
    try {
      await waitFor(() => latest('holtOrder') !== undefined && latest('pendingOrder') !== undefined);
      expect(latest('holtOrder')?.data).toMatchObject({ orderList: [], netValue: '1000.00', securityDepositPrent: '0.00' });

      const orderNo = (await call(server, '/exchange/addOrder', { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: 'feed-1' }, session.token)).data as string;
      await waitFor(() => latest('holtOrder')?.data.orderList.length === 1);
      expect(latest('holtOrder')?.data.orderList[0]).toMatchObject({ uid: orderNo, currentPrice: '1.085', profitLoss: '-1.20' });

      quote(108612);
      await waitFor(() => latest('holtOrder')?.data.profitLossSum === '10.00');
      // Equity 1000 − 0.217024 fee + 10 profit; margin 108.512; free margin the difference.
      expect(latest('holtOrder')?.data).toMatchObject({ netValue: '1009.782976', securityDepositAvailableSum: '901.270976', securityDepositPrent: '930.57' });

      const refused = new WebSocket(`${base}/exchange/ws?token=not-a-token`);
      const code = await new Promise<number>((resolve) => refused.on('close', resolve));
      expect(code).toBe(4401);
    } finally {
      socket.close();
    }
  });

  it('a socket that asks for a slower cadence (a hidden browser) hears price moves only at that pace, and at once when it asks for the usual one again', async () => {
    const email = `cadence${Date.now().toString(36)}@example.com`;
    await registerByEmail(server, email);
    const session = await loginByEmail(server, email);
    const uid = ((await call(server, '/v1/waa/user/info', {}, session.token)).data as { uid: number }).uid;
    await createLedger(server.database.db).creditDeposit({ uid, amount: money('1000'), idempotencyKey: `cadence-deposit:${uid}` });
    quote(108500);
    await call(server, '/exchange/addOrder', { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: 'cadence-1' }, session.token);
    const url = `${base}/exchange/ws?token=${encodeURIComponent(session.token)}`;
    const shown = feedSocket(url);
    const hidden = feedSocket(url);
    const profits = (feed: ReturnType<typeof feedSocket>) =>
      feed.messages.map((text) => JSON.parse(text) as FeedMessage).filter((message) => message.type === 'holtOrder').map((message) => message.data.profitLossSum);
    try {
      await shown.received(3);
      await hidden.received(3);
      (hidden.socket as unknown as { send(text: string): void }).send(JSON.stringify({ type: 'cadence', data: { intervalMs: 60_000 } }));
      // Something else said on the socket is ignored, and does not close it.
      (hidden.socket as unknown as { send(text: string): void }).send('{"type":"subscribe","data":{}}');
      quote(108612);
      await vi.waitFor(() => expect(profits(shown).at(-1)).toBe('10.00'), { timeout: 3_000 });
      quote(108712);
      await vi.waitFor(() => expect(profits(shown).at(-1)).toBe('20.00'), { timeout: 3_000 });
      // Two pushes later on the usual pace, the hidden socket has heard of neither move (a push
      // already on its way when it asked may still arrive, with the profit from before the moves).
      expect(profits(hidden)).not.toContain('10.00');
      expect(profits(hidden)).not.toContain('20.00');
      expect(hidden.socket.readyState).toBe(SOCKET_OPEN);
      // Visible again: the move it was owed comes at the next push.
      (hidden.socket as unknown as { send(text: string): void }).send(JSON.stringify({ type: 'cadence', data: { intervalMs: 250 } }));
      await vi.waitFor(() => expect(profits(hidden).at(-1)).toBe('20.00'), { timeout: 3_000 });
    } finally {
      shown.socket.close();
      hidden.socket.close();
    }
  });

  it("pushes the account's balance, the values user/balance answers, when a socket joins and after a placement", async () => {
    const email = `feedbalance${Date.now().toString(36)}@example.com`;
    await registerByEmail(server, email);
    const session = await loginByEmail(server, email);
    const uid = ((await call(server, '/v1/waa/user/info', {}, session.token)).data as { uid: number }).uid;
    await createLedger(server.database.db).creditDeposit({ uid, amount: money('1000'), idempotencyKey: `feed-balance-deposit:${uid}` });
    quote(108500);
    const client = feedSocket(`${base}/exchange/ws?token=${encodeURIComponent(session.token)}`);
    const pushed = () => client.messages.map((text) => JSON.parse(text) as { type: string; data: unknown }).filter((message) => message.type === 'account').map((message) => message.data);
    const answered = async () => (await call(server, '/v1/waa/user/balance', {}, session.token)).data;
    try {
      await vi.waitFor(() => expect(pushed()).toHaveLength(1));
      expect(pushed()[0]).toEqual(await answered());
      expect(pushed()[0]).toEqual({ balanceAmount: '1000.00', lockMargin: '0.00' });

      const placed = await call(server, '/exchange/addOrder', { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: 'feed-balance-1' }, session.token);
      expect(placed.code).toBe(0);
      await vi.waitFor(() => expect(pushed()).toHaveLength(2));
      // Margin 108.512 locked and the fee 0.217024 charged: the push and user/balance agree.
      expect(pushed()[1]).toEqual(await answered());
      expect(pushed()[1]).toEqual({ balanceAmount: '891.270976', lockMargin: '108.512' });
    } finally {
      client.socket.close();
    }
  });

  it('closes a socket with 4401 when its session ends: logout, password reset (every socket of the user), a blocked user at the re-check; others stay open', async () => {
    const stamp = Date.now().toString(36);
    const [alice, bob] = [`alice${stamp}@example.com`, `bob${stamp}@example.com`];
    await registerByEmail(server, alice);
    await registerByEmail(server, bob);
    const [aliceOne, aliceTwo, bobOne] = [await loginByEmail(server, alice), await loginByEmail(server, alice), await loginByEmail(server, bob)];
    const open = async (token: string) => {
      const client = feedSocket(`${base}/exchange/ws?token=${encodeURIComponent(token)}`);
      await client.received(2);
      return client;
    };
    const first = await open(aliceOne.token);
    const second = await open(aliceTwo.token);
    const third = await open(aliceTwo.token);
    const other = await open(bobOne.token);
    try {
      // Logout ends one session: only its socket closes.
      expect((await call(server, '/v1/waa/user/logout', {}, aliceOne.token)).code).toBe(0);
      expect(await first.closed).toEqual({ code: 4401, reason: 'session ended' });
      expect([second, third, other].map((each) => each.socket.readyState)).toEqual([SOCKET_OPEN, SOCKET_OPEN, SOCKET_OPEN]);

      // A password reset ends every session of the user.
      expect((await call(server, '/v1/wa-na/sendMail', { email: alice, type: '2', locale: 'en' })).code).toBe(0);
      const code = await lastCode(server, alice);
      expect((await call(server, '/v1/wa-na/forgot', { username: alice, password: `${password}x`, type: 'E', code })).code).toBe(0);
      expect(await second.closed).toEqual({ code: 4401, reason: 'session ended' });
      expect(await third.closed).toEqual({ code: 4401, reason: 'session ended' });

      // Bob's socket is untouched and still served.
      expect(other.socket.readyState).toBe(SOCKET_OPEN);
      const bobUid = ((await call(server, '/v1/waa/user/info', {}, bobOne.token)).data as { uid: number }).uid;
      const before = other.messages.length;
      server.app.positionsFeed.changed(bobUid, 'real');
      await other.received(before + 2);

      // An end no announcement reaches (blocked in the database, or by another process) is caught by the re-check.
      await server.database.db.updateTable('app_user').set({ blocked: true }).where('uid', '=', bobUid).execute();
      await server.app.positionsFeed.recheckSessions();
      expect(await other.closed).toEqual({ code: 4401, reason: 'session ended' });
    } finally {
      for (const each of [first, second, third, other]) each.socket.close();
    }
  });
});

describe.each(testBackends())('positions socket limits on $name', (backend) => {
  let server: TestServer;
  let base = '';

  beforeAll(async () => {
    server = await startTestServer(backend, { POSITIONS_SOCKETS_PER_USER: '2', POSITIONS_SOCKETS_PER_ADDRESS: '3' });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses (4429) sockets over the per-address and per-user limits, not from another address, and takes one again after a close', async () => {
    const stamp = Date.now().toString(36);
    const [carol, dave] = [`carol${stamp}@example.com`, `dave${stamp}@example.com`];
    await registerByEmail(server, carol);
    await registerByEmail(server, dave);
    const [carolSession, daveSession] = [await loginByEmail(server, carol), await loginByEmail(server, dave)];
    const opened: ReturnType<typeof feedSocket>[] = [];
    const open = (token: string, localAddress = '127.0.0.1') => {
      const client = feedSocket(`${base}/exchange/ws?token=${encodeURIComponent(token)}`, { localAddress });
      opened.push(client);
      return client;
    };
    const connections = async () => ((await server.app.inject({ method: 'GET', url: '/healthz' })).json() as { positionsConnections: number }).positionsConnections;
    try {
      const carolOne = open(carolSession.token);
      const carolTwo = open(carolSession.token);
      const daveOne = open(daveSession.token);
      await Promise.all([carolOne, carolTwo, daveOne].map((each) => each.received(2)));

      // A fourth socket from 127.0.0.1 is one too many for the address.
      expect(await open(daveSession.token).closed).toEqual({ code: 4429, reason: 'too many connections from this address' });
      // From another address it is taken.
      const daveTwo = open(daveSession.token, '127.0.0.2');
      await daveTwo.received(2);
      // A third socket of one account is one too many, from any address.
      expect(await open(carolSession.token, '127.0.0.2').closed).toEqual({ code: 4429, reason: 'too many connections for this account' });

      carolOne.socket.close();
      await carolOne.closed;
      await vi.waitFor(async () => expect(await connections()).toBe(3));
      const carolAgain = open(carolSession.token);
      await carolAgain.received(2);
      expect(carolAgain.socket.readyState).toBe(SOCKET_OPEN);
    } finally {
      for (const each of opened) each.socket.close();
    }
  });
});
