import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AccountBalance } from '../../../../src/shared/api/account';
import type { EngineBatch } from '../../../../src/shared/protocol/engine';
import type { PositionsConnector } from '../../../../src/worker/engine/positions-channel';
import { memoryStore, type Clock, type Timers } from '../../../../src/worker/engine/ports';
import { createEngineHost } from '../../../../src/worker/hub/engine-host';

const signingKey = new TextEncoder().encode('k'.repeat(40));
function accessToken(uid: number, virtualStatus: number) {
  return new SignJWT({ uid, virtualStatus, aesKey: 'a'.repeat(16) }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(2_000_000_000).sign(signingKey);
}

/** This test's own clock: time stands still, timers are kept and never fire. */
function stillClock(): { clock: Clock; timers: Timers } {
  const clock: Clock = { nowMs: () => 1_700_000_000_000 };
  const timers: Timers = {
    setInterval: () => ({}),
    clearInterval: () => undefined,
    setTimeout: () => ({}),
    clearTimeout: () => undefined,
  };
  return { clock, timers };
}

/** The exchange socket as the server would drive it: each opened connection's handlers. */
function fakeExchange() {
  const sockets: Parameters<PositionsConnector>[1][] = [];
  const connect: PositionsConnector = (_url, handlers) => {
    sockets.push(handlers);
    return { close: () => undefined };
  };
  const push = (socket: number, balance: AccountBalance) => sockets[socket]!.onMessage(JSON.stringify({ type: 'account', data: balance }));
  return { connect, sockets, push };
}

function tab() {
  const batches: EngineBatch[] = [];
  const balances = () => batches.flatMap((batch) => batch.events.filter((event) => event.type === 'balance').map((event) => event.payload));
  return { listener: (batch: EngineBatch) => void batches.push(batch), balances };
}

function engineWith(exchange: ReturnType<typeof fakeExchange>) {
  const { clock, timers } = stillClock();
  return createEngineHost({
    kind: 'shared',
    clock,
    timers,
    store: memoryStore(),
    peers: null,
    connectMarket: () => () => ({ start: () => undefined, restart: () => undefined, stop: async () => undefined }),
    fetchHistory: async () => [],
    sessionApi: () => ({ checkToken: async () => 'valid', refresh: async () => ({ kind: 'unreachable' }) }),
    connectPositions: exchange.connect,
  });
}

const real = { balanceAmount: '900.00', lockMargin: '100.00' };
const realAfterOrder = { balanceAmount: '850.00', lockMargin: '150.00' };
const demo = { balanceAmount: '100000.00', lockMargin: '0.00' };

describe('engine balance', () => {
  it('keeps the account balance the exchange socket pushes and hands it to every tab and to a tab that joins later', async () => {
    const exchange = fakeExchange();
    const host = engineWith(exchange);
    const first = tab();
    await host.api.hello('one', first.listener);
    await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    expect(await host.api.balance()).toBeNull();

    await host.api.signIn({ token: await accessToken(9, 0), refreshToken: 'r' });
    exchange.push(0, real);
    exchange.push(0, realAfterOrder);
    expect(first.balances()).toEqual([real, realAfterOrder]);

    const later = tab();
    await host.api.hello('two', later.listener);
    expect(await host.api.balance()).toEqual(realAfterOrder);
  });

  it('forgets the balance when the account switches, until the other account\'s socket speaks', async () => {
    const exchange = fakeExchange();
    const host = engineWith(exchange);
    const first = tab();
    await host.api.hello('one', first.listener);
    await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    await host.api.signIn({ token: await accessToken(9, 0), refreshToken: 'r' });
    exchange.push(0, real);

    await host.api.signIn({ token: await accessToken(9, 1), refreshToken: 'r2' });
    expect(first.balances()).toEqual([real, null]);
    expect(await host.api.balance()).toBeNull();
    // A late message of the closed real socket is not the demo account's money.
    exchange.push(0, realAfterOrder);
    expect(await host.api.balance()).toBeNull();

    exchange.push(1, demo);
    expect(first.balances()).toEqual([real, null, demo]);
    expect(await host.api.balance()).toEqual(demo);
  });

  it('keeps the balance across a refreshed token of the same account', async () => {
    const exchange = fakeExchange();
    const host = engineWith(exchange);
    const first = tab();
    await host.api.hello('one', first.listener);
    await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    await host.api.signIn({ token: await accessToken(9, 0), refreshToken: 'r' });
    exchange.push(0, real);

    await host.api.signIn({ token: await accessToken(9, 0), refreshToken: 'r2' });
    expect(first.balances()).toEqual([real]);
    expect(await host.api.balance()).toEqual(real);
  });

  it('forgets the balance at sign-out', async () => {
    const exchange = fakeExchange();
    const host = engineWith(exchange);
    const first = tab();
    await host.api.hello('one', first.listener);
    await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    await host.api.signIn({ token: await accessToken(9, 0), refreshToken: 'r' });
    exchange.push(0, real);

    await host.api.signOut('logout');
    expect(first.balances()).toEqual([real, null]);
    expect(await host.api.balance()).toBeNull();
  });
});
