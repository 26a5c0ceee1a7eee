import { describe, expect, it } from 'vitest';
import {
  choosePriceSelection,
  createPriceSubscriptions,
  type PriceSelection,
} from '../../../../src/worker/engine/price-subscriptions';
import { createFakeClock } from '../../support/fake-clock';

/** The subscriptions with a fake clock; `following` is what the socket follows now. */
function subscriptionsUnderTest() {
  const time = createFakeClock();
  const applied: PriceSelection[] = [];
  const subscriptions = createPriceSubscriptions({
    clock: time.clock,
    timers: time.timers,
    apply: (selection) => applied.push(selection),
    debounceMs: 50,
    lingerMs: 5_000,
    quietAfterMs: 60_000,
  });
  const following = () => {
    const last = applied.at(-1);
    if (!last) return [];
    return last.all ? 'all' : last.symbols;
  };
  return { time, subscriptions, applied, following };
}

describe('price subscriptions', () => {
  it('follows the union of what the tabs show, after a short debounce', () => {
    const { time, subscriptions, following } = subscriptionsUnderTest();
    subscriptions.setTab('home', ['BTCUSDT', 'ETHUSDT']);
    subscriptions.setTab('chart', ['EURUSD', 'BTCUSDT']);
    expect(following()).toEqual([]);
    time.advance(50);
    expect(following()).toEqual(['BTCUSDT', 'ETHUSDT', 'EURUSD']);
  });

  it('keeps a row that scrolled away for the linger, so scrolling back does not resubscribe', () => {
    const { time, subscriptions, applied, following } = subscriptionsUnderTest();
    subscriptions.setTab('list', ['A', 'B', 'C']);
    time.advance(50);
    const changes = applied.length;
    // Scrolled down then back within the linger: no change reaches the socket.
    subscriptions.setTab('list', ['C', 'D']);
    time.advance(50);
    expect(following()).toEqual(['A', 'B', 'C', 'D']);
    subscriptions.setTab('list', ['A', 'B', 'C']);
    time.advance(4_000);
    expect(following()).toEqual(['A', 'B', 'C', 'D']);
    expect(applied.length).toBe(changes + 1);
    // D has not been shown for 5 s: it goes.
    time.advance(1_050);
    expect(following()).toEqual(['A', 'B', 'C']);
  });

  it('a steady scroll does not postpone the rows it stops on, and rows that only flew past are never subscribed', () => {
    const { time, subscriptions, following } = subscriptionsUnderTest();
    subscriptions.setTab('list', ['A']);
    for (let frame = 0; frame < 3; frame += 1) {
      time.advance(16);
      subscriptions.setTab('list', ['A', `R${frame}`]);
    }
    time.advance(2);
    expect(following()).toEqual(['A', 'R2']);
  });

  it('drops a closed tab\'s symbols after the linger and keeps the other tab\'s', () => {
    const { time, subscriptions, following } = subscriptionsUnderTest();
    subscriptions.setTab('one', ['BTCUSDT']);
    subscriptions.setTab('two', ['EURUSD']);
    time.advance(50);
    subscriptions.removeTab('two');
    time.advance(5_050);
    expect(following()).toEqual(['BTCUSDT']);
  });

  it('keeps open positions\' and running options\' symbols live, and lets a closed one go', () => {
    const { time, subscriptions, following } = subscriptionsUnderTest();
    subscriptions.setTab('positions', []);
    subscriptions.setAccountSymbols(['XAUUSD', 'EURUSD']);
    time.advance(50);
    expect(following()).toEqual(['EURUSD', 'XAUUSD']);
    subscriptions.setAccountSymbols(['XAUUSD']);
    time.advance(5_050);
    expect(following()).toEqual(['XAUUSD']);
  });

  it('goes quiet 60 s after the last tab hides: only the account\'s symbols stay; a visible tab resumes at once', () => {
    const { time, subscriptions, following } = subscriptionsUnderTest();
    subscriptions.setTab('home', ['BTCUSDT', 'ETHUSDT']);
    subscriptions.setAccountSymbols(['XAUUSD']);
    time.advance(50);
    subscriptions.setVisible('home', false);
    time.advance(59_000);
    expect(following()).toEqual(['BTCUSDT', 'ETHUSDT', 'XAUUSD']);
    expect(subscriptions.quiet).toBe(false);
    time.advance(1_000);
    expect(subscriptions.quiet).toBe(true);
    expect(following()).toEqual(['XAUUSD']);
    // Shown again: no debounce, no wait.
    subscriptions.setVisible('home', true);
    expect(subscriptions.quiet).toBe(false);
    expect(following()).toEqual(['BTCUSDT', 'ETHUSDT', 'XAUUSD']);
  });

  it('a second tab visible keeps the engine awake, and a tab shown briefly restarts the wait', () => {
    const { time, subscriptions, following } = subscriptionsUnderTest();
    subscriptions.setTab('one', ['BTCUSDT']);
    subscriptions.setTab('two', ['EURUSD']);
    time.advance(50);
    subscriptions.setVisible('one', false);
    time.advance(120_000);
    expect(following()).toEqual(['BTCUSDT', 'EURUSD']);
    subscriptions.setVisible('two', false);
    time.advance(30_000);
    subscriptions.setVisible('two', true);
    subscriptions.setVisible('two', false);
    time.advance(59_000);
    expect(subscriptions.quiet).toBe(false);
    time.advance(1_000);
    expect(following()).toEqual([]);
  });

  it('a visible tab closing while the others are hidden starts the quiet wait', () => {
    const { time, subscriptions, following } = subscriptionsUnderTest();
    subscriptions.setTab('hidden', ['BTCUSDT']);
    subscriptions.setVisible('hidden', false);
    subscriptions.setTab('shown', ['EURUSD']);
    time.advance(50);
    subscriptions.removeTab('shown');
    time.advance(60_000);
    expect(following()).toEqual([]);
  });
});

describe('choosing per-symbol or all-prices topics', () => {
  const ticking = (symbols: readonly string[]) => new Map(symbols.map((symbol) => [symbol, true]));
  const glancedAt = (symbols: readonly string[]) => new Map(symbols.map((symbol) => [symbol, false]));
  it('follows per symbol while few are wanted at every tick, all prices when nearly all are, and nothing for nothing', () => {
    expect(choosePriceSelection(ticking(['A', 'B']), 39)).toEqual({ all: false, symbols: ['A', 'B'], everyTick: ['A', 'B'] });
    const most = Array.from({ length: 28 }, (_, index) => `S${index}`);
    expect(choosePriceSelection(ticking(most), 39)).toEqual({ all: true });
    expect(choosePriceSelection(new Map(), 39)).toEqual({ all: false, symbols: [], everyTick: [] });
    // Unknown market size: per symbol up to the subscription budget.
    const many = Array.from({ length: 151 }, (_, index) => `S${index}`);
    expect(choosePriceSelection(ticking(most), 0)).toMatchObject({ all: false });
    expect(choosePriceSelection(ticking(many), 0)).toEqual({ all: true });
  });

  it('glances at nearly every symbol per symbol (one message a second each costs less than every tick in the batch)', () => {
    const most = Array.from({ length: 28 }, (_, index) => `S${index}`);
    expect(choosePriceSelection(glancedAt(most), 39)).toMatchObject({ all: false, everyTick: [] });
    expect(choosePriceSelection(new Map([['B', false], ['A', true]]), 39)).toEqual({ all: false, symbols: ['A', 'B'], everyTick: ['A'] });
  });
});

describe('every tick or a glance', () => {
  function cadence() {
    const under = subscriptionsUnderTest();
    const last = () => {
      const selection = under.applied.at(-1);
      return selection && !selection.all ? selection : null;
    };
    return { ...under, everyTick: () => last()?.everyTick ?? [], symbols: () => last()?.symbols ?? [] };
  }

  it('glances at list rows and hot cards, and follows every tick of what a chart or form shows', () => {
    const { time, subscriptions, everyTick, symbols } = cadence();
    subscriptions.setTab('home', ['BTCUSDT', 'ETHUSDT', 'EURUSD'], ['BTCUSDT', 'ETHUSDT', 'EURUSD']);
    time.advance(50);
    expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT', 'EURUSD']);
    expect(everyTick()).toEqual([]);
    // Another tab opens BTCUSDT's chart: that symbol now comes at every tick, for both tabs.
    subscriptions.setTab('chart', ['BTCUSDT']);
    time.advance(50);
    expect(everyTick()).toEqual(['BTCUSDT']);
    // The chart closes: BTCUSDT goes back to a glance at once (home still shows it), no linger.
    subscriptions.removeTab('chart');
    time.advance(50);
    expect(everyTick()).toEqual([]);
    expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT', 'EURUSD']);
  });

  it("glances at the account's symbols, at every tick when a screen trades them, and only glances when quiet", () => {
    const { time, subscriptions, everyTick, symbols } = cadence();
    subscriptions.setAccountSymbols(['BTCUSDT', 'ETHUSDT']);
    subscriptions.setTab('form', ['ETHUSDT']);
    time.advance(50);
    expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(everyTick()).toEqual(['ETHUSDT']);
    subscriptions.setVisible('form', false);
    time.advance(60_000);
    expect(subscriptions.quiet).toBe(true);
    expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(everyTick()).toEqual([]);
    // Back: every tick of the form's symbol at once.
    subscriptions.setVisible('form', true);
    expect(everyTick()).toEqual(['ETHUSDT']);
  });

  it('a row scrolled away keeps its cadence while it lingers', () => {
    const { time, subscriptions, applied, everyTick, symbols } = cadence();
    subscriptions.setTab('list', ['A', 'B'], ['A', 'B']);
    subscriptions.setTab('chart', ['B']);
    time.advance(50);
    const changes = applied.length;
    subscriptions.setTab('chart', []);
    time.advance(50);
    // B is still a row of the list: it goes back to a glance at once; nothing else changed.
    expect(everyTick()).toEqual([]);
    expect(applied.length).toBe(changes + 1);
    subscriptions.setTab('list', ['A'], ['A']);
    subscriptions.setTab('chart', ['C']);
    time.advance(50);
    expect(symbols()).toEqual(['A', 'B', 'C']);
    expect(everyTick()).toEqual(['C']);
  });
});
