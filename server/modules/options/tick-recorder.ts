import { formatFixed } from '../../../src/shared/market/kline';
import type { MarketDataService } from '../market/market-data-service';
import type { RawTick } from '../market/sources/market-data-source';
import type { OptionsRepository, RecordedTick } from './options-repository';

/**
 * Records the ticks of the symbols that have running options, so that each option
 * settles on the tick at its end time even after a restart. Ticks are buffered and
 * written in batches every `flushMs` (and before every settlement run); a symbol is
 * recorded up to the end time of the last option this instance placed or found running
 * at start (whoever settles them), so an idle market writes nothing.
 */
export function createTickRecorder(deps: {
  repository: OptionsRepository;
  market: MarketDataService;
  flushMs: number;
  /** The most ticks held in memory; beyond it the oldest are written at once. */
  bufferMax: number;
  /** Whether this process records now (with several processes, only the jobs leader does). */
  active?: () => boolean;
  log?: (message: string, error?: unknown) => void;
}) {
  /** Symbol → the last end time its ticks are needed for. */
  const watched = new Map<string, number>();
  let buffer: RecordedTick[] = [];
  let flushing: Promise<void> = Promise.resolve();
  const precisions = new Map<string, number>();

  function precisionOf(symbol: string): number | null {
    let precision = precisions.get(symbol);
    if (precision === undefined) {
      precision = deps.market.products().find((product) => product.productCode === symbol)?.pricePrecision;
      if (precision === undefined) return null;
      precisions.set(symbol, precision);
    }
    return precision;
  }

  /** The bid, as the quotes and the charts show it, as an exact decimal. */
  function recorded(tick: RawTick): RecordedTick | null {
    const precision = precisionOf(tick.symbol);
    return precision === null ? null : { symbol: tick.symbol, timeMs: tick.timeMs, price: formatFixed(tick.bid, precision) };
  }

  function flush(): Promise<void> {
    // One write at a time, in arrival order: ticks of the same millisecond keep their order.
    flushing = flushing.then(async () => {
      if (buffer.length === 0) return;
      const batch = buffer;
      buffer = [];
      try {
        await deps.repository.insertTicks(batch);
      } catch (error) {
        // Kept for the next flush (the newest, within the limit): a passing fault must not lose the tick an option settles on.
        buffer = [...batch, ...buffer].slice(-deps.bufferMax);
        deps.log?.('option ticks: write failed', error);
      }
    });
    return flushing;
  }

  const active = deps.active ?? (() => true);
  const stopListening = deps.market.onQuote((tick) => {
    if (!active()) return;
    const until = watched.get(tick.symbol);
    if (until === undefined) return;
    if (tick.timeMs > until) {
      watched.delete(tick.symbol);
      return;
    }
    const row = recorded(tick);
    if (!row) return;
    buffer.push(row);
    if (buffer.length >= deps.bufferMax) void flush();
  });
  const timer = setInterval(() => void flush(), deps.flushMs);
  timer.unref();

  return {
    /** An option on `symbol` ends at `endMs`: its ticks are recorded up to then. */
    watch(symbol: string, endMs: number) {
      watched.set(symbol, Math.max(watched.get(symbol) ?? endMs, endMs));
    },
    /** The tick as it is recorded (the start tick of an option is written with the option). */
    recorded,
    flush,
    async stop() {
      clearInterval(timer);
      stopListening();
      await flush();
    },
  };
}

export type TickRecorder = ReturnType<typeof createTickRecorder>;
