import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../../../src/worker/engine/reconnect-policy';
import { signAccessToken } from '../../support/access-token';
import { createFakeClock, settle } from '../../support/fake-clock';
import { createTestHost, fakeTab, type FakeTab } from '../../support/engine-harness';
import { fakeMarket, fakePositionsServer, fakeSessionApi } from '../../support/fake-ports';
import { priceTick } from '../../support/price-tick';

const marketSettings = { socketUrl: 'ws://x', batchWindowMs: 100, marketRoot: '' };
const open: ConnectionState = { status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null };
const closed = (failedAttempts: number): ConnectionState => ({ status: 'closed', failedAttempts, connectionFailed: failedAttempts > 10, retryAtMs: null });
const bids = (tab: FakeTab, symbol: string) => tab.events('prices').flat().filter((row) => row[0] === symbol).map((row) => row[2]);

/** Two tabs on the market, both watching BTCUSDT, the socket open and prices moving. */
async function twoTabsWatching() {
  const time = createFakeClock();
  const market = fakeMarket();
  const host = createTestHost({ time, market });
  const tabs = [fakeTab(), fakeTab()] as const;
  await host.api.hello('one', tabs[0].listener);
  await host.api.hello('two', tabs[1].listener);
  await host.api.configureMarket(marketSettings);
  await host.api.watchPrices('one', ['BTCUSDT']);
  await host.api.watchPrices('two', ['BTCUSDT']);
  market.handlers.onState?.(open);
  return { time, market, host, tabs };
}

describe('engine across a lost market connection', () => {
  it('shows prices as stale while the socket is down, and moves them again in every tab once it reopens, however the server before dated its last price', async () => {
    const { time, market, tabs } = await twoTabsWatching();
    const now = time.clock.nowMs();
    // The server before the outage dated its last price later than its successor's clock
    // (its stored bar's end, or a clock ahead): that date must not hold the new prices back.
    market.handlers.onPrices?.([priceTick('BTCUSDT', '67000.00', now)]);
    market.handlers.onPrices?.([priceTick('BTCUSDT', '67001.00', now + 100_000)]);
    time.advance(200);
    for (const tab of tabs) expect(tab.events('market').at(-1)).toMatchObject({ status: 'open', stale: false });

    // Down: not live, at once (not only after 10 s of silence).
    market.handlers.onState?.(closed(1));
    for (const tab of tabs) expect(tab.events('market').at(-1)).toMatchObject({ status: 'closed', stale: true });
    time.advance(40_000);

    market.handlers.onState?.(open);
    market.handlers.onPrices?.([priceTick('BTCUSDT', '66991.00', now + 40_300)]);
    time.advance(200);
    market.handlers.onPrices?.([priceTick('BTCUSDT', '66992.00', now + 40_500)]);
    time.advance(200);
    for (const tab of tabs) {
      expect(bids(tab, 'BTCUSDT').slice(-3)).toEqual(['67001.00', '66991.00', '66992.00']);
      expect(tab.events('market').at(-1)).toMatchObject({ status: 'open', stale: false });
    }
    // Within one connection an older tick still never replaces a newer one.
    market.handlers.onPrices?.([priceTick('BTCUSDT', '66000.00', now + 40_400)]);
    time.advance(200);
    for (const tab of tabs) expect(bids(tab, 'BTCUSDT').at(-1)).toBe('66992.00');
  });

  it('asks the waiting socket to try now when a tab is shown or the browser is back online', async () => {
    const { market, host } = await twoTabsWatching();
    market.handlers.onState?.(closed(14));
    expect(market.retriesNow).toBe(0);
    await host.api.setVisible('one', true);
    expect(market.retriesNow).toBe(1);
    await host.api.connectivityHint();
    expect(market.retriesNow).toBe(2);
    // Hidden is no reason to hurry.
    await host.api.setVisible('two', false);
    expect(market.retriesNow).toBe(2);
  });

  it('lets the exchange socket and the session clock catch up at once when the market socket is back', async () => {
    const time = createFakeClock();
    const market = fakeMarket();
    const feed = fakePositionsServer();
    const sessions = fakeSessionApi({ check: 'unreachable' });
    const host = createTestHost({ time, market, connectPositions: feed.connect, sessionApi: sessions.api });
    await host.api.hello('one', fakeTab().listener);
    await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
    await host.api.configureMarket(marketSettings);
    await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    await settle();
    market.handlers.onState?.(open);
    // The server goes away: the start check could not reach it, the exchange socket waits out its backoff.
    expect(sessions.checks).toHaveLength(1);
    market.handlers.onState?.(closed(1));
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      feed.live.at(-1)!.handlers.onClose(1006);
      time.advance(500 * attempt);
    }
    feed.live.at(-1)!.handlers.onClose(1006);
    const opened = feed.opened.length;

    sessions.answerChecksWith('valid');
    market.handlers.onState?.(open);
    await settle();
    expect(feed.opened).toHaveLength(opened + 1);
    expect(sessions.checks).toHaveLength(2);
  });
});
