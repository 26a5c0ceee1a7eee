import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../support/fake-clock';
import { createTestHost, fakeTab, type FakeTab } from '../../support/engine-harness';
import { fakeMarket } from '../../support/fake-ports';
import { priceTick } from '../../support/price-tick';
import { createBinaryTickDecoder, createBinaryTickEncoder } from '../../../../src/shared/market/binary-ticks';

const marketSettings = { socketUrl: 'ws://x', batchWindowMs: 100, marketRoot: '' };

/** A host with one tab configured for the market; the test drives the market's socket. */
async function oneTabOnTheMarket() {
  const time = createFakeClock();
  const market = fakeMarket();
  const host = createTestHost({ time, market });
  const only = fakeTab();
  await host.api.hello('tab', only.listener);
  await host.api.configureMarket(marketSettings);
  return { time, market, host, only };
}

const priceRows = (tab: FakeTab) => tab.events('prices').flat();

describe('engine market feed', () => {
  it('opens one socket however many tabs configure it', async () => {
    const market = fakeMarket();
    const host = createTestHost({ time: createFakeClock(), market });
    await host.api.hello('tab-1', fakeTab().listener);
    await host.api.hello('tab-2', fakeTab().listener);
    await host.api.configureMarket({ ...marketSettings, socketUrl: 'ws://x/market/stomp' });
    await host.api.configureMarket({ ...marketSettings, socketUrl: 'ws://x/market/stomp' });
    expect(market.urls).toEqual(['ws://x/market/stomp']);
  });

  it('batches each tab its watched prices: the first at once, the rest at the window\'s end', async () => {
    const time = createFakeClock();
    const market = fakeMarket();
    const host = createTestHost({ time, market });
    const first = fakeTab();
    const second = fakeTab();
    await host.api.hello('tab-1', first.listener);
    await host.api.hello('tab-2', second.listener);
    await host.api.configureMarket(marketSettings);
    await host.api.watchPrices('tab-1', ['EURUSD', 'GBPUSD']);
    await host.api.watchPrices('tab-2', ['BTCUSDT']);

    market.handlers.onState?.({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
    market.handlers.onPrices?.([priceTick('EURUSD', '1.00', 0), priceTick('USDJPY', '150.0', 0)]);
    // Leading edge: the first prices after a quiet window go out at once (as soon as the
    // messages that came with them are read); the next 19 ticks wait for the window's end
    // and arrive as one row carrying the latest.
    time.advance(0);
    expect(priceRows(first)).toEqual([['EURUSD', '1.00', '1.00', '1.00', '0.00', '1.00', '1.00', '1', 0]]);
    for (let index = 1; index < 20; index += 1) {
      market.handlers.onPrices?.([priceTick('EURUSD', `1.0${index}`, index), priceTick('USDJPY', '150.0', index)]);
    }
    time.advance(99);
    expect(priceRows(first)).toHaveLength(1);
    time.advance(1);
    expect(priceRows(first)).toEqual([
      ['EURUSD', '1.00', '1.00', '1.00', '0.00', '1.00', '1.00', '1', 0],
      ['EURUSD', '1.019', '1.019', '1.019', '0.00', '1.019', '1.019', '1', 19],
    ]);
    time.advance(1_000);
    expect(priceRows(first)).toHaveLength(2);
    expect(priceRows(second)).toEqual([]);
    expect(first.events('market').at(-1)).toMatchObject({ status: 'open', ready: true, stale: false, symbolCount: 2 });
    expect(await host.api.diagnostics()).toMatchObject({ marketSocketOpen: true, watchedSymbols: 3 });
  });

  it('sends per-symbol messages that arrive together (a glance burst) in one flush, not the first alone and the rest a window later', async () => {
    const { time, market, host, only } = await oneTabOnTheMarket();
    await host.api.watchPrices('tab', ['EURUSD', 'GBPUSD', 'USDJPY'], ['EURUSD', 'GBPUSD', 'USDJPY']);
    market.handlers.onState?.({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
    // One server flush published three glance topics: three frames, read one after another.
    market.handlers.onPrices?.([priceTick('EURUSD', '1.1', 1)]);
    market.handlers.onPrices?.([priceTick('GBPUSD', '1.2', 1)]);
    market.handlers.onPrices?.([priceTick('USDJPY', '150.1', 1)]);
    time.advance(0);
    expect(only.events('prices')).toHaveLength(1);
    expect(priceRows(only).map((row) => row[0]).sort()).toEqual(['EURUSD', 'GBPUSD', 'USDJPY']);
  });

  it('sends a glance at once inside a window an every-tick symbol keeps busy, and leaves that symbol\'s cadence as it was', async () => {
    const { time, market, host, only } = await oneTabOnTheMarket();
    // An open chart follows BTCUSDT at every tick; a list row glances at EURUSD.
    await host.api.watchPrices('tab', ['BTCUSDT', 'EURUSD'], ['EURUSD']);
    market.handlers.onState?.({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
    const batches = () => only.events('prices').map((rows) => rows.map((row) => row[0]));
    market.handlers.onPrices?.([priceTick('BTCUSDT', '65000', 1)]);
    time.advance(0);
    expect(batches()).toEqual([['BTCUSDT']]);
    time.advance(40);
    market.handlers.onPrices?.([priceTick('EURUSD', '1.1', 2)], true);
    time.advance(0);
    expect(batches()).toEqual([['BTCUSDT'], ['EURUSD']]);
    // The chart's next tick, a window after its last, goes out at once as before.
    time.advance(60);
    market.handlers.onPrices?.([priceTick('BTCUSDT', '65001', 3)]);
    time.advance(0);
    expect(batches()).toEqual([['BTCUSDT'], ['EURUSD'], ['BTCUSDT']]);
    // Every-tick prices inside the window still wait for its end.
    time.advance(10);
    market.handlers.onPrices?.([priceTick('BTCUSDT', '65002', 4)]);
    time.advance(89);
    expect(batches()).toHaveLength(3);
    time.advance(1);
    expect(batches()).toHaveLength(4);
  });

  it('sends a feed on the window\'s own cadence at once, even after a flush off the beat (no phase lock)', async () => {
    const { time, market, host, only } = await oneTabOnTheMarket();
    const delivered: number[] = [];
    const prices = (lastUpdate: number) => {
      market.handlers.onPrices?.([priceTick('EURUSD', `1.${lastUpdate}`, lastUpdate), priceTick('GBPUSD', `1.${lastUpdate}`, lastUpdate)]);
    };
    const seen = () => only.events('prices').length;
    await host.api.watchPrices('tab', ['EURUSD']);
    prices(1);
    // A row scrolls into view 42 ms after a batch: its price is sent at once, off the beat.
    time.advance(42);
    await host.api.watchPrices('tab', ['EURUSD', 'GBPUSD']);
    for (let batch = 2; batch <= 6; batch += 1) {
      time.advance(batch === 2 ? 58 : 100);
      const before = seen();
      prices(batch);
      time.advance(0);
      delivered.push(seen() - before);
    }
    // At most one batch is held back (to the window's end); the feed then goes out as it arrives.
    expect(delivered.slice(1)).toEqual([1, 1, 1, 1]);
  });

  it('flags the feed stale after 10 s of silence once prices moved, and fresh on the next prices; a price sent once and then silence (a closed market) is not stale', async () => {
    const { time, market, only } = await oneTabOnTheMarket();
    market.handlers.onPrices?.([priceTick('EURUSD', '1.1', 1)]);
    time.advance(30_000);
    const staleStates = () => only.events('market').map((snapshot) => snapshot.stale);
    expect(staleStates().includes(true)).toBe(false);
    market.handlers.onPrices?.([priceTick('EURUSD', '1.15', 1)]);
    time.advance(9_000);
    expect(staleStates().includes(true)).toBe(false);
    time.advance(1_000);
    expect(staleStates().at(-1)).toBe(true);
    market.handlers.onPrices?.([priceTick('EURUSD', '1.2', 2)]);
    expect(staleStates().at(-1)).toBe(false);
  });

  it('stops sending prices to a tab that left', async () => {
    const { time, market, host, only } = await oneTabOnTheMarket();
    await host.api.watchPrices('tab', ['EURUSD']);
    await host.api.goodbye('tab');
    market.handlers.onPrices?.([priceTick('EURUSD', '1.1', 1)]);
    time.advance(200);
    expect(only.events('prices')).toEqual([]);
    expect((await host.api.diagnostics()).watchedSymbols).toBe(0);
  });
});

describe('engine kline watch', () => {
  it('fetches history once per browser, then pushes the forming bar to the tabs watching it', async () => {
    const time = createFakeClock(Date.parse('2026-01-12T10:00:30Z'));
    const market = fakeMarket();
    const requests: string[] = [];
    const t0 = Date.parse('2026-01-12T10:00:00Z');
    const history = [
      { time: t0 - 60_000, openPrice: '1.10000', highestPrice: '1.10100', lowestPrice: '1.09900', closePrice: '1.10050', volume: '10', turnover: '11' },
      { time: t0, openPrice: '1.10050', highestPrice: '1.10060', lowestPrice: '1.10040', closePrice: '1.10055', volume: '3', turnover: '3' },
    ];
    const host = createTestHost({
      time,
      market,
      fetchHistory: async (root, symbol, period) => {
        requests.push(`${root}|${symbol}|${period}`);
        return history;
      },
    });
    const chart = fakeTab();
    const otherChart = fakeTab();
    const quotes = fakeTab();
    await host.api.hello('chart', chart.listener);
    await host.api.hello('other', otherChart.listener);
    await host.api.hello('quotes', quotes.listener);
    await host.api.configureMarket({ ...marketSettings, marketRoot: 'https://md.example' });
    const bars = await host.api.watchKline('chart', 'EURUSD', '1min');
    await host.api.watchKline('other', 'EURUSD', '1min');
    expect(bars).toEqual(history);
    expect(requests).toEqual(['https://md.example|EURUSD|1min']);

    market.handlers.onPrices?.([priceTick('EURUSD', '1.10200', t0 + 31_000)]);
    time.advance(100);
    expect(chart.events('kline')).toEqual([
      { symbol: 'EURUSD', period: '1min', bar: { time: t0, openPrice: '1.10050', highestPrice: '1.10200', lowestPrice: '1.10040', closePrice: '1.10200', volume: '3', turnover: '3' } },
    ]);
    // The server's forming bar carries the real volume: the tabs' bar takes it (VOL does not jump on reload).
    expect([...market.klineTopics]).toEqual(['EURUSD|1min']);
    const serverBar = { time: t0, openPrice: '1.10050', highestPrice: '1.10210', lowestPrice: '1.10040', closePrice: '1.10205', volume: '812', turnover: '894.8' };
    market.handlers.onBar?.('EURUSD', '1min', serverBar);
    time.advance(100);
    expect(chart.events('kline').at(-1)).toMatchObject({ symbol: 'EURUSD', period: '1min', bar: { time: t0, highestPrice: '1.10210', closePrice: '1.10205', volume: '812' } });
    expect(otherChart.events('kline')).toHaveLength(2);
    expect(quotes.events('kline')).toEqual([]);

    await host.api.unwatchKline('chart', 'EURUSD', '1min');
    await host.api.goodbye('other');
    market.handlers.onPrices?.([priceTick('EURUSD', '1.10300', t0 + 40_000)]);
    time.advance(100);
    expect(chart.events('kline')).toHaveLength(2);
    expect(market.klineTopics.size).toBe(0);
    // Nobody watches the pair any more: the next watch fetches fresh history.
    await host.api.watchKline('quotes', 'EURUSD', '1min');
    expect(requests).toHaveLength(2);
  });
});

describe('engine market feed, binary ticks', () => {
  it('folds every decoded tick of a charted symbol into its bar, two in one body included, and sends the tabs the latest', async () => {
    const t0 = Date.parse('2026-01-12T10:00:00Z');
    const time = createFakeClock(t0 + 30_000);
    const market = fakeMarket();
    const history = [{ time: t0, openPrice: '1.10050', highestPrice: '1.10060', lowestPrice: '1.10040', closePrice: '1.10055', volume: '3', turnover: '3' }];
    const host = createTestHost({ time, market, fetchHistory: async () => history });
    const chart = fakeTab();
    await host.api.hello('chart', chart.listener);
    await host.api.configureMarket(marketSettings);
    market.handlers.onState?.({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
    await host.api.watchPrices('chart', ['EURUSD']);
    await host.api.watchKline('chart', 'EURUSD', '1min');
    time.advance(100);
    const encoder = createBinaryTickEncoder('p');
    const decoder = createBinaryTickDecoder();
    // A state and a change of the same symbol in one MESSAGE (a new member's state, then the publication).
    const body = encoder.encode([priceTick('EURUSD', '1.10300', t0 + 31_000), priceTick('EURUSD', '1.10100', t0 + 31_050), priceTick('GBPUSD', '1.27000', t0 + 31_060)]);
    market.handlers.onPrices?.(decoder.decodeInto(body)!);
    time.advance(100);
    expect(chart.events('kline').at(-1)).toMatchObject({ bar: { time: t0, highestPrice: '1.10300', lowestPrice: '1.10040', closePrice: '1.10100' } });
    expect(priceRows(chart).at(-1)).toEqual(['EURUSD', '1.10100', '1.10100', '1.10100', '0.00', '1.10100', '1.10100', '1', t0 + 31_050]);
  });
});

describe('engine sparklines', () => {
  it('forms a sparkline\'s bar from the prices the tab glances at, following the kline topic only while a chart shows the pair', async () => {
    const t0 = Date.parse('2026-01-12T10:00:00Z');
    const time = createFakeClock(t0 + 30_000);
    const market = fakeMarket();
    const history = [{ time: t0, openPrice: '1.10050', highestPrice: '1.10060', lowestPrice: '1.10040', closePrice: '1.10055', volume: '3', turnover: '3' }];
    const host = createTestHost({ time, market, fetchHistory: async () => history });
    const home = fakeTab();
    const chart = fakeTab();
    await host.api.hello('home', home.listener);
    await host.api.hello('chart', chart.listener);
    await host.api.configureMarket(marketSettings);
    market.handlers.onState?.({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
    await host.api.watchPrices('home', ['EURUSD'], ['EURUSD']);
    await host.api.watchKline('home', 'EURUSD', '1min', true);
    time.advance(100);
    // A hot card: its price once a second, its line from those prices, no kline topic.
    expect(market.following).toEqual({ all: false, symbols: ['EURUSD'], everyTick: [] });
    expect(market.klineTopics.size).toBe(0);
    market.handlers.onPrices?.([priceTick('EURUSD', '1.10200', t0 + 31_000)]);
    time.advance(100);
    expect(home.events('kline').at(-1)).toMatchObject({ symbol: 'EURUSD', period: '1min', bar: { time: t0, highestPrice: '1.10200', closePrice: '1.10200' } });

    // A chart of the same pair: every tick, and the server's bar with its volume.
    await host.api.watchPrices('chart', ['EURUSD']);
    await host.api.watchKline('chart', 'EURUSD', '1min');
    time.advance(100);
    expect(market.following).toEqual({ all: false, symbols: ['EURUSD'], everyTick: ['EURUSD'] });
    expect([...market.klineTopics]).toEqual(['EURUSD|1min']);
    // The chart closes: back to a glance and no kline topic, the sparkline still drawn.
    await host.api.goodbye('chart');
    time.advance(100);
    expect(market.following).toEqual({ all: false, symbols: ['EURUSD'], everyTick: [] });
    expect(market.klineTopics.size).toBe(0);
    market.handlers.onPrices?.([priceTick('EURUSD', '1.10010', t0 + 40_000)]);
    time.advance(100);
    expect(home.events('kline').at(-1)).toMatchObject({ bar: { lowestPrice: '1.10010', closePrice: '1.10010' } });
  });
});

describe('engine ranged history', () => {
  it('asks /market/history/limit under the market root for the window given, each time, and answers its bars', async () => {
    const time = createFakeClock(Date.parse('2026-01-12T10:30:00Z'));
    const asked: string[] = [];
    const bar = { time: Date.parse('2026-01-12T10:01:00Z'), openPrice: '1.1', highestPrice: '1.2', lowestPrice: '1.0', closePrice: '1.15', volume: '4', turnover: '4.4' };
    const host = createTestHost({
      time,
      fetchHistoryRange: async (root, symbol, period, fromMs, toMs) => {
        asked.push(`${root}|${symbol}|${period}|${new Date(fromMs).toISOString()}|${new Date(toMs).toISOString()}`);
        return [bar];
      },
    });
    const home = fakeTab();
    await host.api.hello('home', home.listener);
    await expect(host.api.historyRange('EURUSD', '1min', 0, 1)).rejects.toThrow('configureMarket first');
    await host.api.configureMarket({ ...marketSettings, marketRoot: 'https://md.example' });
    const from = Date.parse('2026-01-12T10:00:00Z');
    const to = Date.parse('2026-01-12T10:30:00Z');
    expect(await host.api.historyRange('EURUSD', '1min', from, to)).toEqual([bar]);
    expect(await host.api.historyRange('EURUSD', '1min', from, to)).toEqual([bar]);
    expect(asked).toEqual(Array(2).fill('https://md.example|EURUSD|1min|2026-01-12T10:00:00.000Z|2026-01-12T10:30:00.000Z'));
  });
});
