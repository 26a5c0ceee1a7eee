import { describe, expect, it } from 'vitest';
import type { TradeOrder } from '../../../../src/shared/api/trading';
import { signAccessToken } from '../../support/access-token';
import { createFakeClock } from '../../support/fake-clock';
import { createTestHost, fakeTab, type FakeTab } from '../../support/engine-harness';
import { fakeMarket, fakePositionsServer } from '../../support/fake-ports';
import { priceTick } from '../../support/price-tick';

const marketSettings = { socketUrl: 'ws://x/market/stomp', batchWindowMs: 100, marketRoot: '' };
const openState = { status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null } as const;

function position(tradePair: string): TradeOrder {
  return {
    id: 1,
    uid: `P-${tradePair}`,
    orderType: 0,
    buyPoint: 2,
    status: 2,
    positionStatus: 2,
    tradePair,
    productName: tradePair,
    orderQuantity: '1',
    lever: 10,
    securityDepositInitial: '100.00',
    openingPrice: '1.1',
    limitPrice: null,
    currentPrice: '1.1',
    closingPrice: null,
    stopPrice: null,
    takeProfitPrice: null,
    profitLoss: '0.00',
    feeAmount: '0.00',
    overnightFee: '0.00',
    closeReason: null,
    orderTime: 1,
    orderTimeTs: 1,
    transactionTime: 1,
    transactionTimeTs: 1,
    closingTimeTs: null,
    closableAfterTime: null,
  };
}

const holt = (...pairs: string[]) =>
  JSON.stringify({
    type: 'holtOrder',
    data: { orderList: pairs.map(position), profitLossSum: '0.00', netValue: '0.00', securityDepositPrent: '0.00', securityDepositAvailableSum: '0.00' },
  });

/** A signed-in browser with one tab, its market socket open and its exchange socket speaking. */
async function signedInBrowser() {
  const time = createFakeClock();
  const market = fakeMarket();
  const exchange = fakePositionsServer();
  const host = createTestHost({ time, market, connectPositions: exchange.connect });
  const tab = fakeTab();
  await host.api.hello('tab', tab.listener);
  await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
  await host.api.configureMarket(marketSettings);
  market.handlers.onState?.(openState);
  await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
  const positionsSay = (message: string) => exchange.live.at(-1)!.handlers.onMessage(message);
  return { time, market, host, tab, positionsSay, exchange };
}

const following = (selection: { all: boolean; symbols?: readonly string[] }) => (selection.all ? 'all' : selection.symbols);
const shownPrice = (tab: FakeTab, symbol: string) => {
  // The tab's view of a symbol: its last row, unless an expiry came after it.
  let shown: string | null = null;
  for (const batch of tab.batches) {
    for (const event of batch.events) {
      if (event.type === 'prices') for (const row of event.payload) if (row[0] === symbol) shown = row[1];
      if (event.type === 'pricesExpired' && event.payload.includes(symbol)) shown = null;
    }
  }
  return shown;
};

describe('engine prices follow what the tabs show', () => {
  it('subscribes to the tabs\' symbols and the open positions\' symbols, nothing else', async () => {
    const { time, market, host, positionsSay } = await signedInBrowser();
    await host.api.watchPrices('tab', ['BTCUSDT', 'ETHUSDT']);
    positionsSay(holt('XAUUSD'));
    time.advance(100);
    expect(following(market.following)).toEqual(['BTCUSDT', 'ETHUSDT', 'XAUUSD']);
    // The position closes: its symbol goes after the linger.
    positionsSay(holt());
    time.advance(6_000);
    expect(following(market.following)).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  it('a second tab\'s symbol joins the same socket\'s subscriptions and reaches only that tab', async () => {
    const { time, market, host, tab } = await signedInBrowser();
    const second = fakeTab();
    await host.api.hello('second', second.listener);
    await host.api.watchPrices('tab', ['BTCUSDT']);
    await host.api.watchPrices('second', ['EURUSD']);
    time.advance(100);
    expect(market.urls).toEqual(['ws://x/market/stomp']);
    expect(following(market.following)).toEqual(['BTCUSDT', 'EURUSD']);
    market.handlers.onPrices?.([priceTick('EURUSD', '1.08', 1)]);
    time.advance(100);
    expect(shownPrice(second, 'EURUSD')).toBe('1.08');
    expect(shownPrice(tab, 'EURUSD')).toBeNull();
  });

  it('goes quiet a minute after the last tab hides, keeps the positions live, and shows no old price as current on return', async () => {
    const { time, market, host, tab, positionsSay } = await signedInBrowser();
    await host.api.watchPrices('tab', ['BTCUSDT']);
    positionsSay(holt('XAUUSD'));
    time.advance(100);
    market.handlers.onPrices?.([priceTick('BTCUSDT', '64000', 1), priceTick('XAUUSD', '2400', 1)]);
    time.advance(100);
    expect(shownPrice(tab, 'BTCUSDT')).toBe('64000');

    await host.api.setVisible('tab', false);
    time.advance(59_000);
    expect(following(market.following)).toEqual(['BTCUSDT', 'XAUUSD']);
    time.advance(1_000);
    expect(following(market.following)).toEqual(['XAUUSD']);
    // The tab forgets BTCUSDT's price: it is no longer current.
    expect(shownPrice(tab, 'BTCUSDT')).toBeNull();

    await host.api.setVisible('tab', true);
    expect(following(market.following)).toEqual(['BTCUSDT', 'XAUUSD']);
    // Nothing is re-sent from memory: the tab shows BTCUSDT again only with the server's fresh price.
    time.advance(200);
    expect(shownPrice(tab, 'BTCUSDT')).toBeNull();
    market.handlers.onPrices?.([priceTick('BTCUSDT', '64100', 2)]);
    time.advance(100);
    expect(shownPrice(tab, 'BTCUSDT')).toBe('64100');
  });

  it('quiet, the positions are glanced at and the exchange socket asked for a slow pace; visible again, every tick and the usual pace at once', async () => {
    const { time, market, host, positionsSay, exchange } = await signedInBrowser();
    await host.api.watchPrices('tab', ['BTCUSDT', 'XAUUSD'], ['BTCUSDT']);
    positionsSay(holt('XAUUSD'));
    time.advance(100);
    // The order form of XAUUSD: every tick; the hot card of BTCUSDT: a glance.
    expect(market.following).toEqual({ all: false, symbols: ['BTCUSDT', 'XAUUSD'], everyTick: ['XAUUSD'] });
    const said = () => exchange.live.at(-1)!.said.map((text) => JSON.parse(text) as unknown);
    expect(said()).toEqual([]);

    await host.api.setVisible('tab', false);
    time.advance(60_000);
    expect(market.following).toEqual({ all: false, symbols: ['XAUUSD'], everyTick: [] });
    expect(said()).toEqual([{ type: 'cadence', data: { intervalMs: 10_000 } }]);
    // A reconnection while quiet asks again once the new socket has joined.
    exchange.live.at(-1)!.handlers.onClose(1006);
    time.advance(500);
    expect(said()).toEqual([]);
    positionsSay(holt('XAUUSD'));
    expect(said()).toEqual([{ type: 'cadence', data: { intervalMs: 10_000 } }]);

    await host.api.setVisible('tab', true);
    expect(said().at(-1)).toEqual({ type: 'cadence', data: { intervalMs: 0 } });
    expect(market.following).toEqual({ all: false, symbols: ['BTCUSDT', 'XAUUSD'], everyTick: ['XAUUSD'] });
  });

  it('the brand\'s quiet wait replaces the default minute', async () => {
    const time = createFakeClock();
    const market = fakeMarket();
    const host = createTestHost({ time, market });
    await host.api.hello('tab', fakeTab().listener);
    await host.api.configureMarket({ ...marketSettings, quietAfterMs: 20_000 });
    await host.api.watchPrices('tab', ['BTCUSDT']);
    time.advance(100);
    await host.api.setVisible('tab', false);
    time.advance(19_000);
    expect(following(market.following)).toEqual(['BTCUSDT']);
    time.advance(1_000);
    expect(following(market.following)).toEqual([]);
  });

  it('the brand\'s followAllPrices keeps the all-prices topic whatever is shown', async () => {
    const time = createFakeClock();
    const market = fakeMarket();
    const host = createTestHost({ time, market });
    await host.api.hello('tab', fakeTab().listener);
    await host.api.configureMarket({ ...marketSettings, followAllPrices: true });
    await host.api.watchPrices('tab', ['BTCUSDT']);
    await host.api.setVisible('tab', false);
    time.advance(120_000);
    expect(market.selections).toEqual([{ all: true }]);
  });

  it('following nothing is not staleness', async () => {
    const { time, market, host, tab } = await signedInBrowser();
    await host.api.watchPrices('tab', ['BTCUSDT']);
    time.advance(100);
    market.handlers.onPrices?.([priceTick('BTCUSDT', '64000', 1)]);
    await host.api.watchPrices('tab', []);
    time.advance(30_000);
    expect(following(market.following)).toEqual([]);
    expect(tab.events('market').some((snapshot) => snapshot.stale)).toBe(false);
  });

  it('the market is ready once the socket opens, before any price', async () => {
    const time = createFakeClock();
    const market = fakeMarket();
    const host = createTestHost({ time, market });
    const tab = fakeTab();
    await host.api.hello('tab', tab.listener);
    await host.api.configureMarket(marketSettings);
    market.handlers.onState?.(openState);
    expect(tab.events('market').at(-1)).toMatchObject({ status: 'open', ready: true });
  });
});
