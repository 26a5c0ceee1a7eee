import { describe, expect, it } from 'vitest';
import type { AccountBalance } from '../../../../src/shared/api/account';
import type { PositionsConnector } from '../../../../src/worker/engine/positions-channel';
import type { PeerMessage } from '../../../../src/worker/hub/engine-host';
import { memoryStore } from '../../../../src/worker/engine/ports';
import { signAccessToken } from '../../support/access-token';
import { fakeBroadcastNetwork } from '../../support/fake-broadcast';
import { createFakeClock } from '../../support/fake-clock';
import { createTestHost, fakeTab } from '../../support/engine-harness';

describe('engine host', () => {
  it('answers the ready handshake with the session and the kind of engine', async () => {
    const host = createTestHost({ time: createFakeClock() });
    const welcome = await host.api.hello('tab', fakeTab().listener);
    expect(welcome.session.signedIn).toBe(false);
    expect(welcome.kind).toBe('shared');
  });

  it('pushes sign-in and sign-out to every tab, numbering each tab\'s batches', async () => {
    const host = createTestHost({ time: createFakeClock() });
    const first = fakeTab();
    const second = fakeTab();
    await host.api.hello('tab-1', first.listener);
    await host.api.hello('tab-2', second.listener);

    const token = await signAccessToken(42, 1);
    await host.api.signIn({ token, refreshToken: 'r1' });
    for (const each of [first, second]) {
      expect(each.sessions()).toHaveLength(1);
      expect(each.sessions()[0]).toMatchObject({ signedIn: true, uid: 42, book: 'demo', token });
    }
    expect(first.batches[0]?.seq).toBe(1);

    await host.api.signOut('logout');
    expect(second.sessions()[1]).toMatchObject({ signedIn: false, token: null, endReason: 'logout' });
    expect(second.batches[1]?.seq).toBe(2);
  });

  it('ends only the session that holds the given token: a delayed sign-out of a replaced session leaves the new sign-in be', async () => {
    const host = createTestHost({ time: createFakeClock() });
    const tab = fakeTab();
    await host.api.hello('tab', tab.listener);
    const before = await signAccessToken(42, 0);
    await host.api.signIn({ token: before, refreshToken: 'r1' });
    const after = await signAccessToken(42, 0, 2_000_000_001);
    await host.api.signIn({ token: after, refreshToken: 'r2' });

    const kept = await host.api.signOut('password-changed', before);
    expect(kept).toMatchObject({ signedIn: true, token: after });
    expect(tab.sessions().at(-1)).toMatchObject({ signedIn: true, token: after });

    const ended = await host.api.signOut('password-changed', after);
    expect(ended).toMatchObject({ signedIn: false, endReason: 'password-changed' });
    expect(tab.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'password-changed' });
  });

  it('keeps the session across an engine restart (reload) through its store', async () => {
    const time = createFakeClock();
    const store = memoryStore();
    const before = createTestHost({ time, store });
    await before.api.signIn({ token: await signAccessToken(7), refreshToken: 'r' });
    before.dispose();
    const after = createTestHost({ time, store });
    const welcome = await after.api.hello('tab', fakeTab().listener);
    expect(welcome.session).toMatchObject({ signedIn: true, uid: 7, book: 'real' });
  });

  it('refuses a token that is not an access token and changes nothing', async () => {
    const host = createTestHost({ time: createFakeClock() });
    const only = fakeTab();
    await host.api.hello('tab', only.listener);
    await expect(host.api.signIn({ token: 'not-a-jwt', refreshToken: 'r' })).rejects.toThrow();
    expect(only.batches).toHaveLength(0);
    expect(host.session.snapshot.signedIn).toBe(false);
  });

  it('keeps dedicated-worker engines of several tabs in step (fallback)', async () => {
    const time = createFakeClock();
    const network = fakeBroadcastNetwork<PeerMessage>();
    const store = memoryStore();
    const engineA = createTestHost({ time, store, kind: 'dedicated', peers: network() });
    const engineB = createTestHost({ time, store, kind: 'dedicated', peers: network() });
    const tabA = fakeTab();
    const tabB = fakeTab();
    await engineA.api.hello('a', tabA.listener);
    await engineB.api.hello('b', tabB.listener);

    await engineA.api.signIn({ token: await signAccessToken(99), refreshToken: 'r' });
    expect(tabB.sessions().at(-1)).toMatchObject({ signedIn: true, uid: 99 });

    time.advance(5);
    await engineB.api.signOut('logout');
    expect(tabA.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'logout' });
    // An older snapshot arriving late does not undo the newer one.
    expect(engineA.session.adopt({ ...tabA.sessions()[0]!, version: 1 })).toBe(false);
  });
});

/** The exchange socket as the server would drive it: each opened connection's handlers. */
function fakeExchange() {
  const sockets: Parameters<PositionsConnector>[1][] = [];
  const connect: PositionsConnector = (_url, handlers) => {
    sockets.push(handlers);
    return { close: () => undefined, send: () => undefined };
  };
  const push = (socket: number, balance: AccountBalance) => sockets[socket]!.onMessage(JSON.stringify({ type: 'account', data: balance }));
  return { connect, sockets, push };
}

const real = { balanceAmount: '900.00', lockMargin: '100.00' };
const realAfterOrder = { balanceAmount: '850.00', lockMargin: '150.00' };
const demo = { balanceAmount: '100000.00', lockMargin: '0.00' };

/** An engine with one tab and the exchange socket configured, signed out. */
async function engineWithTab() {
  const exchange = fakeExchange();
  const host = createTestHost({ time: createFakeClock(), connectPositions: exchange.connect });
  const first = fakeTab();
  await host.api.hello('one', first.listener);
  await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
  return { exchange, host, first };
}

/** The same, signed in to user 9's real account, whose socket has pushed `real`. */
async function signedInWithBalance() {
  const engine = await engineWithTab();
  await engine.host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
  engine.exchange.push(0, real);
  return engine;
}


describe('engine balance', () => {
  it('keeps the account balance the exchange socket pushes and hands it to every tab and to a tab that joins later', async () => {
    const { exchange, host, first } = await engineWithTab();
    expect(await host.api.balance()).toBeNull();

    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    exchange.push(0, real);
    exchange.push(0, realAfterOrder);
    expect(first.events('balance')).toEqual([real, realAfterOrder]);

    const later = fakeTab();
    await host.api.hello('two', later.listener);
    expect(await host.api.balance()).toEqual(realAfterOrder);
  });

  it('forgets the balance when the account switches, until the other account\'s socket speaks', async () => {
    const { exchange, host, first } = await signedInWithBalance();

    await host.api.signIn({ token: await signAccessToken(9, 1), refreshToken: 'r2' });
    expect(first.events('balance')).toEqual([real, null]);
    expect(await host.api.balance()).toBeNull();
    // A late message of the closed real socket is not the demo account's money.
    exchange.push(0, realAfterOrder);
    expect(await host.api.balance()).toBeNull();

    exchange.push(1, demo);
    expect(first.events('balance')).toEqual([real, null, demo]);
    expect(await host.api.balance()).toEqual(demo);
  });

  it('keeps the balance across a refreshed token of the same account', async () => {
    const { host, first } = await signedInWithBalance();

    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r2' });
    expect(first.events('balance')).toEqual([real]);
    expect(await host.api.balance()).toEqual(real);
  });

  it('forgets the balance at sign-out', async () => {
    const { host, first } = await signedInWithBalance();

    await host.api.signOut('logout');
    expect(first.events('balance')).toEqual([real, null]);
    expect(await host.api.balance()).toBeNull();
  });
});
