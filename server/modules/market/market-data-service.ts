import { glancePriceIntervalMs, priceTopic, type PriceTick, type Product } from '../../../src/shared/api/market';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { barStartMs, foldTick, formatFixed, klinePeriods, toWireBar, type Bar, type KlinePeriod, type WireBar } from '../../../src/shared/market/kline';
import { marketStatusAt, type MarketStatus } from '../../../src/shared/market/market-hours';
import { isPriceFresh, staleAfterMs } from '../../../src/shared/market/price-freshness';
import { createTickLinesEncoder, type TickLinesEncoder } from '../../../src/shared/market/tick-lines';
import { createBinaryTickEncoder, type BinaryTickEncoder } from '../../../src/shared/market/binary-ticks';
import { productTermsViolation, type ProductTerms } from '../../../src/shared/market/product-fields';
import type { Kysely } from 'kysely';
import { afterCommit, type Executor } from '../../db/after-commit';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { backfillBars } from './backfill';
import { createGlanceThrottle } from './glance-throttle';
import type { Instrument } from './catalogue';
import type { MarketRepository } from './market-repository';
import type { RawTick } from './sources/market-data-source';
import { seededRandom } from './sources/random';

/** The part of the topic bus this service needs. */
export interface TopicPublisher {
  publish(destination: string, body: string): void;
  subscriberCount(destination: string): number;
}

/**
 * The bus destination carrying a price topic's ticks as tick lines (the compact form a
 * batch subscription gathers; `src/shared/market/tick-lines.ts`). Never a STOMP
 * destination, and never sent to the broker.
 */
export const tickLinesSource = (topic: string) => `lines:${topic}`;
/**
 * The bus destination carrying a price topic's ticks in the binary form (`binary-ticks.ts`),
 * each body a binary string (one character an octet, as Buffer's latin1 reads and writes them:
 * the bus carries strings). Never a STOMP destination either.
 */
export const binaryTicksSource = (topic: string) => `octets:${topic}`;
/** Whether a bus destination carries a batch form (tick lines or binary ticks): for this process's batch subscriptions only. */
export const isTickLinesSource = (destination: string) => destination.startsWith('lines:') || destination.startsWith('octets:');
/** The price topic a batch source carries; null for any other destination. */
export const batchSourceTopic = (destination: string) =>
  destination.startsWith('lines:') ? destination.slice('lines:'.length) : destination.startsWith('octets:') ? destination.slice('octets:'.length) : null;

const binaryString = (octets: Uint8Array) => Buffer.from(octets.buffer, octets.byteOffset, octets.length).toString('latin1');

export const backfillBarCount = 300;
const dayMs = 86_400_000;
const minuteMs = 60_000;

interface MinuteBucket {
  time: number;
  open: number;
  high: number;
  low: number;
  volume: number;
}

interface SymbolState {
  instrument: Instrument;
  product: Product | null;
  latest: RawTick | null;
  bars: Map<KlinePeriod, Bar | null>;
  /** Completed minutes of the last 24 hours, oldest first, and their running aggregates. */
  minutes: MinuteBucket[];
  current: MinuteBucket | null;
  window: { open: number; high: number; low: number; volume: number } | null;
}

/**
 * Everything the server knows of prices: the latest tick per symbol with 24-hour low,
 * high, volume and change, the forming bar of every period, the stored history, and the
 * topics it publishes. Ticks are taken in batches and published on a cadence, never one
 * message per tick.
 */
export function createMarketDataService(options: {
  instruments: readonly Instrument[];
  repository: MarketRepository;
  publisher: TopicPublisher;
  nowMs?: () => number;
  seed?: number;
  /** How old the newest tick of a symbol may be and still be quoted as live (STALE_PRICE_MS). */
  stalePriceMs?: number;
}) {
  const nowMs = options.nowMs ?? Date.now;
  const stalePriceMs = options.stalePriceMs ?? staleAfterMs;
  const { repository, publisher } = options;
  const states = new Map<string, SymbolState>(
    options.instruments.map((instrument) => [
      instrument.code,
      { instrument, product: null, latest: null, bars: new Map(), minutes: [], current: null, window: null },
    ]),
  );
  const changed = new Set<string>();
  const glance = createGlanceThrottle(glancePriceIntervalMs);
  /** Who hears every accepted tick as it arrives (the trading engine's triggers). */
  const quoteListeners = new Set<(tick: RawTick) => void>();
  const unsavedBars = new Map<string, { symbol: string; period: KlinePeriod; precision: number; bar: Bar }>();
  /**
   * The tick-lines encoder of each lines source someone follows (its state: what its
   * subscribers last got of each symbol). One left without subscribers at a publication is
   * dropped, so that a later subscriber's snapshot and the next publication start afresh.
   */
  const lineEncoders = new Map<string, TickLinesEncoder>();
  /** The same for the sources of the binary form. */
  const binaryEncoders = new Map<string, BinaryTickEncoder>();
  let nextEncoderKey = 0;
  const lineEncoder = (source: string) => {
    let encoder = lineEncoders.get(source);
    if (!encoder) lineEncoders.set(source, (encoder = createTickLinesEncoder((nextEncoderKey++).toString(36))));
    return encoder;
  };
  const binaryEncoder = (source: string) => {
    let encoder = binaryEncoders.get(source);
    if (!encoder) binaryEncoders.set(source, (encoder = createBinaryTickEncoder((nextEncoderKey++).toString(36))));
    return encoder;
  };

  function stateOf(symbol: string): SymbolState {
    const state = states.get(symbol);
    if (!state) throw new AppError(ErrorCode.PAIR_DOES_NOT_EXIST);
    return state;
  }

  function recomputeWindow(state: SymbolState) {
    const cutoff = nowMs() - dayMs;
    while (state.minutes.length > 0 && (state.minutes[0]?.time ?? 0) < cutoff) state.minutes.shift();
    const buckets = state.current ? [...state.minutes, state.current] : state.minutes;
    const first = buckets[0];
    if (!first) {
      state.window = null;
      return;
    }
    let high = first.high;
    let low = first.low;
    let volume = 0;
    for (const bucket of buckets) {
      high = Math.max(high, bucket.high);
      low = Math.min(low, bucket.low);
      volume += bucket.volume;
    }
    state.window = { open: first.open, high, low, volume };
  }

  function noteMinute(state: SymbolState, tick: RawTick) {
    const time = barStartMs(tick.timeMs, '1min');
    if (!state.current || time > state.current.time) {
      if (state.current) state.minutes.push(state.current);
      state.current = { time, open: tick.bid, high: tick.bid, low: tick.bid, volume: tick.volume };
      recomputeWindow(state);
      return;
    }
    state.current.high = Math.max(state.current.high, tick.bid);
    state.current.low = Math.min(state.current.low, tick.bid);
    state.current.volume += tick.volume;
    if (state.window) {
      state.window.high = Math.max(state.window.high, tick.bid);
      state.window.low = Math.min(state.window.low, tick.bid);
      state.window.volume += tick.volume;
    }
  }

  function statusOf(symbol: string, at = nowMs()): MarketStatus {
    const state = stateOf(symbol);
    const hours = state.product
      ? { marketStartTime: state.product.marketStartTime, marketCloseTime: state.product.marketCloseTime }
      : { marketStartTime: state.instrument.hours.start, marketCloseTime: state.instrument.hours.close };
    return marketStatusAt(hours, at);
  }

  function isLive(symbol: string, at = nowMs()): boolean {
    const latest = stateOf(symbol).latest;
    return latest !== null && isPriceFresh(latest.timeMs, at, stalePriceMs);
  }

  function wireTick(state: SymbolState): PriceTick | null {
    const tick = state.latest;
    if (!tick) return null;
    const precision = state.instrument.precision;
    const window = state.window ?? { open: tick.bid, high: tick.bid, low: tick.bid, volume: tick.volume };
    // Change in hundredths of a percent, rounded half away from zero.
    const changeBasisPoints = window.open > 0 ? Math.round(((tick.bid - window.open) * 10_000) / window.open) : 0;
    return {
      symbol: state.instrument.code,
      name: state.instrument.name,
      price: formatFixed(tick.bid, precision),
      bidPrice: formatFixed(tick.bid, precision),
      askPrice: formatFixed(tick.ask, precision),
      volume: formatFixed(window.volume, 0),
      lastUpdate: tick.timeMs,
      type: state.instrument.type,
      priceChangePercent: formatFixed(changeBasisPoints, 2),
      low: formatFixed(Math.min(window.low, tick.bid), precision),
      high: formatFixed(Math.max(window.high, tick.bid), precision),
    };
  }

  return {
    /**
     * Prepares the market: products seeded, history backfilled where it is short, the
     * forming bars and 24-hour window restored. Answers the price each symbol resumes at.
     */
    async initialize(): Promise<Map<string, number>> {
      await repository.seedProducts(options.instruments);
      const products = await repository.listProducts();
      for (const product of products) {
        const state = states.get(product.productCode);
        if (state) state.product = product;
      }
      const now = nowMs();
      const resumeAt = new Map<string, number>();
      const random = seededRandom(options.seed ?? now % 2_147_483_647);
      for (const state of states.values()) {
        const { instrument } = state;
        const [lastMinute] = await repository.loadBars({ symbol: instrument.code, period: '1min', precision: instrument.precision, limit: 1 });
        const resume = lastMinute?.close ?? Math.round(instrument.model.startPrice * 10 ** instrument.precision);
        resumeAt.set(instrument.code, resume);
        const backfill: { symbol: string; period: KlinePeriod; precision: number; bar: Bar }[] = [];
        for (const period of instrument.backfill === false ? [] : klinePeriods) {
          if ((await repository.countBars(instrument.code, period)) >= backfillBarCount) continue;
          for (const bar of backfillBars({ instrument, period, count: backfillBarCount, endPriceUnits: resume, nowMs: now, random })) {
            backfill.push({ symbol: instrument.code, period, precision: instrument.precision, bar });
          }
        }
        await repository.saveBars(backfill);
        for (const period of klinePeriods) {
          const [last] = await repository.loadBars({ symbol: instrument.code, period, precision: instrument.precision, limit: 1 });
          state.bars.set(period, last && last.time === barStartMs(now, period) ? last : null);
        }
        const minutes = await repository.loadBars({
          symbol: instrument.code, period: '1min', precision: instrument.precision, fromMs: now - dayMs, limit: 1440,
        });
        state.minutes = minutes.map((bar) => ({ time: bar.time, open: bar.open, high: bar.high, low: bar.low, volume: bar.volume }));
        recomputeWindow(state);
        // The last known price, also for a product whose market is closed (it will not tick until it opens):
        // the last stored minute, or on a fresh database the last backfilled one.
        const [latestMinute] = lastMinute ? [lastMinute] : await repository.loadBars({ symbol: instrument.code, period: '1min', precision: instrument.precision, limit: 1 });
        if (latestMinute) {
          // Dated at the minute's end, but never after now: a restart inside the minute it stored
          // would otherwise refuse every live tick (older, by that date) until the minute ended.
          state.latest = { symbol: instrument.code, timeMs: Math.min(latestMinute.time + minuteMs - 1, now), bid: latestMinute.close, ask: latestMinute.close, volume: 0 };
        }
      }
      return resumeAt;
    },

    /** Takes a batch of ticks: latest price, 24-hour window and every period's bar. */
    ingest(ticks: readonly RawTick[]) {
      for (const tick of ticks) {
        const state = states.get(tick.symbol);
        if (!state) continue;
        if (state.latest && tick.timeMs < state.latest.timeMs) continue; // out of order: keep the newer
        state.latest = tick;
        noteMinute(state, tick);
        for (const period of klinePeriods) {
          const previous = state.bars.get(period) ?? null;
          const next = foldTick(previous, period, tick.timeMs, tick.bid, tick.volume);
          if (previous && next !== previous) {
            unsavedBars.set(`${tick.symbol}|${period}|${previous.time}`, { symbol: tick.symbol, period, precision: state.instrument.precision, bar: { ...previous } });
          }
          state.bars.set(period, next);
        }
        changed.add(tick.symbol);
        for (const listener of quoteListeners) listener(tick);
      }
    },

    /** Calls `listener` with every tick the service accepts; answers how to stop. */
    onQuote(listener: (tick: RawTick) => void): () => void {
      quoteListeners.add(listener);
      return () => quoteListeners.delete(listener);
    },

    /**
     * Publishes what changed since the last flush: one batch on /topic/prices, then the
     * per-symbol topics someone watches, and the glance topics (at most one a second per symbol),
     * each also as tick lines where a batch subscription follows it.
     */
    flush() {
      const ticks: PriceTick[] = [];
      const publishLines = (topic: string, batch: readonly PriceTick[]) => {
        const source = tickLinesSource(topic);
        if (publisher.subscriberCount(source) > 0) publisher.publish(source, lineEncoder(source).encode(batch));
        else lineEncoders.delete(source);
        const octets = binaryTicksSource(topic);
        if (publisher.subscriberCount(octets) > 0) publisher.publish(octets, binaryString(binaryEncoder(octets).encode(batch)));
        else binaryEncoders.delete(octets);
      };
      for (const symbol of changed) {
        const state = states.get(symbol);
        const tick = state && wireTick(state);
        if (!state || !tick) continue;
        ticks.push(tick);
        glance.changed(symbol);
        const everyTick = priceTopic(symbol);
        if (publisher.subscriberCount(everyTick) > 0) publisher.publish(everyTick, JSON.stringify(tick));
        publishLines(everyTick, [tick]);
        for (const period of klinePeriods) {
          const topic = `/topic/kline/${symbol}/${period}`;
          const bar = state.bars.get(period);
          if (bar && publisher.subscriberCount(topic) > 0) publisher.publish(topic, JSON.stringify(toWireBar(bar, state.instrument.precision)));
        }
      }
      changed.clear();
      if (ticks.length > 0) {
        publisher.publish('/topic/prices', JSON.stringify(ticks));
        publishLines('/topic/prices', ticks);
      }
      // Also when nothing changed in this window: a change held back earlier is due at its window's end.
      for (const symbol of glance.due(nowMs())) {
        const topic = priceTopic(symbol, true);
        const state = states.get(symbol);
        const tick = state && wireTick(state);
        if (tick && publisher.subscriberCount(topic) > 0) publisher.publish(topic, JSON.stringify(tick));
        if (tick) publishLines(topic, [tick]);
      }
    },

    /** Drops the finished bars not yet written (another process stores them). */
    forgetUnsaved() {
      unsavedBars.clear();
    },

    /**
     * Writes finished bars, and the forming ones when `includeForming` (at shutdown and
     * periodically); under `fence` (the market lease's), refused whole once another process
     * took the market over. Either way they are no longer this process's to write.
     */
    async persist(includeForming = false, fence?: (trx: Kysely<Database>) => Promise<void>) {
      const entries = [...unsavedBars.values()];
      unsavedBars.clear();
      if (includeForming) {
        for (const state of states.values()) {
          for (const [period, bar] of state.bars) {
            if (bar) entries.push({ symbol: state.instrument.code, period, precision: state.instrument.precision, bar: { ...bar } });
          }
        }
      }
      if (entries.length > 0) await repository.saveBars(entries, fence);
    },

    /**
     * Changes a product's terms (trade status, spread, fees, leverage, counts; never a price)
     * in the caller's transaction, opened with `inTransaction`: refused with
     * INCORRECT_PARAMETER_VALUE when the result breaks a rule (product-fields.ts), unknown
     * product DATA_NOT_FOUND. Every order, the catalogue and the feeds read the new terms
     * from the commit on. Answers the product before and after.
     */
    async setProductTerms(executor: Executor, code: string, change: Partial<Omit<ProductTerms, 'pip'>>): Promise<{ before: Product; after: Product }> {
      const before = await repository.lockProduct(executor, code);
      const state = states.get(code);
      if (!before || !state) throw new AppError(ErrorCode.DATA_NOT_FOUND, `no product ${code}`);
      const terms: ProductTerms = {
        tradeStatus: change.tradeStatus ?? before.tradeStatus,
        spread: change.spread ?? before.spread,
        feeRate: change.feeRate ?? before.feeRate,
        overnightRate: change.overnightRate ?? before.overnightRate,
        multiple: change.multiple ?? before.multiple,
        minCount: change.minCount ?? before.minCount,
        maxCount: change.maxCount ?? before.maxCount,
        pip: before.pip,
      };
      const violation = productTermsViolation(terms);
      if (violation) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, `${violation.field} ${violation.problem}`);
      const after = await repository.updateProductTerms(executor, code, terms);
      // The in-memory product is what orders, the catalogue and the feeds read.
      afterCommit(executor, () => (state.product = after));
      return { before, after };
    },

    products(): Product[] {
      return [...states.values()].flatMap((state) => (state.product ? [state.product] : []));
    },

    latestTick(symbol: string): PriceTick | null {
      return wireTick(stateOf(symbol));
    },

    allTicks(): PriceTick[] {
      return [...states.values()].flatMap((state) => wireTick(state) ?? []);
    },

    /**
     * What a new subscriber of a batch source starts from (`latest` against the source's state,
     * as tick lines or, for a binary source, a binary string); empty for no ticks.
     */
    tickLinesSnapshot(source: string, latest: readonly PriceTick[]): string {
      return source.startsWith('octets:') ? binaryString(binaryEncoder(source).snapshot(latest)) : lineEncoder(source).snapshot(latest);
    },

    /** The server's own latest quote, in units, with its time (fills and settlement use this). */
    latestQuote(symbol: string): RawTick | null {
      return stateOf(symbol).latest;
    },

    status: statusOf,

    /** The last `limit` bars up to now, the forming bar last, so that history joins the live bar. */
    async history(symbol: string, period: KlinePeriod, limit: number): Promise<WireBar[]> {
      const state = stateOf(symbol);
      const forming = state.bars.get(period) ?? null;
      const stored = await repository.loadBars({
        symbol, period, precision: state.instrument.precision, limit,
        ...(forming ? { toMs: forming.time - 1 } : {}),
      });
      const bars = forming ? [...stored, forming].slice(-limit) : stored;
      return bars.map((bar) => toWireBar(bar, state.instrument.precision));
    },

    async historyRange(symbol: string, period: KlinePeriod, fromMs: number, toMs: number, limit: number): Promise<WireBar[]> {
      const state = stateOf(symbol);
      const stored = await repository.loadBars({ symbol, period, precision: state.instrument.precision, fromMs, toMs, limit });
      const forming = state.bars.get(period);
      const bars = forming && forming.time >= fromMs && forming.time <= toMs && !stored.some((bar) => bar.time === forming.time)
        ? [...stored, forming]
        : stored;
      return bars.slice(-limit).map((bar) => toWireBar(bar, state.instrument.precision));
    },

    /**
     * Whether this process has a live price of `symbol`: its newest tick is within the
     * staleness limit. A process that follows no feed (no source, the leader's ticks not
     * arriving) still holds its last price, which is then answered as stale, never as live.
     */
    isLive,

    /** The symbols whose market is open but whose newest tick is stale (what /healthz reports); closed markets are quiet, not stale. */
    staleOpenSymbols(at = nowMs()): string[] {
      return [...states.keys()].filter((symbol) => statusOf(symbol, at) !== 'closed' && !isLive(symbol, at));
    },

    knownSymbol(symbol: string): boolean {
      return states.has(symbol);
    },
  };
}

export type MarketDataService = ReturnType<typeof createMarketDataService>;
