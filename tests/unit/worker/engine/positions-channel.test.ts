import { describe, expect, it } from 'vitest';
import { signAccessToken } from '../../support/access-token';
import { createFakeClock, settle } from '../../support/fake-clock';
import { createTestHost, fakeTab, type FakeTab } from '../../support/engine-harness';
import { fakePositionsServer, fakeSessionApi } from '../../support/fake-ports';

const socketUrl = 'ws://x/exchange/ws';
const summary = (count: number) => ({ orderList: [], profitLossSum: String(count), netValue: '0.00', securityDepositPrent: '0.00', securityDepositAvailableSum: '0.00' });
const holtOrder = (count: number) => JSON.stringify({ type: 'holtOrder', data: summary(count) });
const latestPositions = (tab: FakeTab) => tab.events('positions').at(-1);

/** A host with two tabs and the positions socket configured, not yet signed in. */
async function twoTabsWithPositions(sessionApi = fakeSessionApi().api) {
  const time = createFakeClock();
  const feed = fakePositionsServer();
  const host = createTestHost({ time, sessionApi, connectPositions: feed.connect });
  const first = fakeTab();
  const second = fakeTab();
  await host.api.hello('one', first.listener);
  await host.api.hello('two', second.listener);
  await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: socketUrl });
  return { time, feed, host, first, second };
}

describe('engine positions feed', () => {
  it('opens one socket once an account signs in, and pushes its messages to every tab', async () => {
    const { feed, host, first, second } = await twoTabsWithPositions();
    expect(feed.opened).toEqual([]);

    const real = await signAccessToken(9, 0);
    await host.api.signIn({ token: real, refreshToken: 'r' });
    expect(feed.opened).toEqual([`${socketUrl}?token=${encodeURIComponent(real)}`]);
    feed.live[0]!.handlers.onMessage(holtOrder(1));
    feed.live[0]!.handlers.onMessage('not json');
    feed.live[0]!.handlers.onMessage(JSON.stringify({ type: 'notice', data: { count: 2 } }));
    for (const each of [first, second]) expect(latestPositions(each)?.holt?.profitLossSum).toBe('1');
    expect((await host.api.positions()).holt?.profitLossSum).toBe('1');
  });

  it('hands a notice\'s unread count to every tab as a notice event, apart from the positions', async () => {
    const { feed, host, first, second } = await twoTabsWithPositions();
    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    feed.live[0]!.handlers.onMessage(holtOrder(1));
    feed.live[0]!.handlers.onMessage(JSON.stringify({ type: 'notice', data: { count: 3 } }));
    feed.live[0]!.handlers.onMessage(JSON.stringify({ type: 'notice', data: { count: -1 } }));
    for (const each of [first, second]) {
      expect(each.events('notice')).toEqual([{ unreadCount: 3 }]);
      expect(latestPositions(each)?.holt?.profitLossSum).toBe('1');
    }
  });

  it('keeps the socket for a refreshed token of the same account, and replaces it on a switch to demo', async () => {
    const { feed, host, first } = await twoTabsWithPositions();
    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    feed.live[0]!.handlers.onMessage(holtOrder(1));

    await host.api.signIn({ token: await signAccessToken(9, 0, 2_000_000_100), refreshToken: 'r2' });
    expect(feed.opened).toHaveLength(1);
    await host.api.signIn({ token: await signAccessToken(9, 1), refreshToken: 'r3' });
    expect(feed.opened).toHaveLength(2);
    expect(feed.live[0]!.closed).toBe(true);
    expect(latestPositions(first)).toEqual({ holt: null, pending: null, connectionFailed: false });
  });

  it('reconnects a dropped socket with the market socket\'s rule (500 ms × attempt), and not after a refusal (4401)', async () => {
    const { time, feed, host } = await twoTabsWithPositions();
    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    feed.live[0]!.handlers.onClose(1006);
    time.advance(499);
    expect(feed.opened).toHaveLength(1);
    time.advance(1);
    expect(feed.opened).toHaveLength(2);
    // The second attempt in a row waits 2 × 500 ms.
    feed.live[1]!.handlers.onClose(1006);
    time.advance(999);
    expect(feed.opened).toHaveLength(2);
    time.advance(1);
    expect(feed.opened).toHaveLength(3);
    // A message resets the count: the next drop waits 500 ms again.
    feed.live[2]!.handlers.onMessage(holtOrder(1));
    feed.live[2]!.handlers.onClose(1006);
    time.advance(500);
    expect(feed.opened).toHaveLength(4);
    feed.live[3]!.handlers.onClose(4401);
    time.advance(60_000);
    expect(feed.opened).toHaveLength(4);
  });

  it('after 10 failed reconnections tells every tab (the reload alert) and keeps trying, at most 30 s apart, until the socket speaks again', async () => {
    const { time, feed, host, first, second } = await twoTabsWithPositions();
    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      feed.live.at(-1)!.handlers.onClose(1006);
      time.advance(500 * attempt);
      expect(feed.opened).toHaveLength(attempt + 1);
      expect(latestPositions(first)?.connectionFailed).toBe(false);
    }
    feed.live.at(-1)!.handlers.onClose(1006);
    for (const each of [first, second]) expect(latestPositions(each)?.connectionFailed).toBe(true);
    expect((await host.api.positions()).connectionFailed).toBe(true);
    // A server away for ten minutes more: the attempts go on.
    for (let attempt = 12; attempt <= 40; attempt += 1) {
      time.advance(Math.min(30_000, 500 * (attempt - 1)));
      expect(feed.opened).toHaveLength(attempt);
      feed.live.at(-1)!.handlers.onClose(1006);
      // The tabs stay open meanwhile.
      await host.api.heartbeat('one');
      await host.api.heartbeat('two');
    }
    time.advance(30_000);
    feed.live.at(-1)!.handlers.onMessage(holtOrder(3));
    for (const each of [first, second]) expect(latestPositions(each)).toMatchObject({ connectionFailed: false, holt: summary(3) });
  });

  it('tries again at once when a tab shows or the browser is back online, from the first attempt', async () => {
    const { time, feed, host } = await twoTabsWithPositions();
    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    for (let attempt = 1; attempt <= 15; attempt += 1) {
      feed.live.at(-1)!.handlers.onClose(1006);
      time.advance(500 * attempt);
    }
    feed.live.at(-1)!.handlers.onClose(1006);
    expect(feed.opened).toHaveLength(16);
    await host.api.connectivityHint();
    expect(feed.opened).toHaveLength(17);
    // Failing again waits 500 ms, not 8 s.
    feed.live.at(-1)!.handlers.onClose(1006);
    time.advance(500);
    expect(feed.opened).toHaveLength(18);
    feed.live.at(-1)!.handlers.onClose(1006);
    await host.api.setVisible('one', true);
    expect(feed.opened).toHaveLength(19);
    // An open socket is left alone.
    feed.live.at(-1)!.handlers.onMessage(holtOrder(1));
    await host.api.connectivityHint();
    await host.api.setVisible('two', true);
    expect(feed.opened).toHaveLength(19);
  });

  it('closes the socket at sign-out and clears the positions', async () => {
    const { feed, host, first } = await twoTabsWithPositions();
    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    feed.live[0]!.handlers.onMessage(holtOrder(1));
    expect(latestPositions(first)?.holt?.profitLossSum).toBe('1');

    await host.api.signOut('logout');
    expect(feed.live.every((entry) => entry.closed)).toBe(true);
    expect(latestPositions(first)).toEqual({ holt: null, pending: null, connectionFailed: false });
  });

  it('asks the server at once when the socket is refused (4401), and signs every tab out when the session ended', async () => {
    const server = fakeSessionApi();
    const { time, feed, host, first, second } = await twoTabsWithPositions(server.api);
    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    await settle();
    const before = server.checks.length;

    // Logged out elsewhere: the server closes the socket with 4401 and says -1 to checkToken.
    server.answerChecksWith('invalid');
    feed.live[0]!.handlers.onClose(4401);
    await settle();
    expect(server.checks.length).toBe(before + 1);
    for (const each of [first, second]) expect(each.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'ended-by-server' });
    time.advance(60_000);
    expect(feed.opened).toHaveLength(1);
  });
});
