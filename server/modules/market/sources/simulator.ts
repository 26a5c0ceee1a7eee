import { marketStatusAt } from '../../../../src/shared/market/market-hours';
import type { Instrument } from '../catalogue';
import type { MarketDataSource, RawTick } from './market-data-source';
import { seededRandom, type Random } from './random';

const msPerYear = 365.25 * 24 * 3600 * 1000;
/** How often the live simulator wakes up to emit the ticks due since the last wake-up. */
export const simulatorStepMs = 50;

interface InstrumentState {
  instrument: Instrument;
  scale: number;
  spreadUnits: number;
  /** Mid price in price units (not rounded: rounding happens per tick). */
  mid: number;
  nextTickMs: number;
  random: Random;
}

export function spreadUnitsOf(instrument: Instrument): number {
  return Math.max(1, Math.round(instrument.spreadPips * Number(instrument.pipSize) * 10 ** instrument.precision));
}

/**
 * Prices that move like the instrument: a geometric random walk with its yearly
 * volatility, ticks arriving at its rate (Poisson), a bid/ask spread in pips, and no
 * ticks while its market is closed (quotes do move in early trading). Deterministic
 * for a seed, so tests and benches can replay it.
 */
export function createSimulatorModel(options: {
  instruments: readonly Instrument[];
  seed: number;
  startMs: number;
  /** Starting mid prices by symbol, e.g. the last stored close; else the model's level. */
  startPrices?: ReadonlyMap<string, number>;
}) {
  const states: InstrumentState[] = options.instruments.map((instrument, index) => {
    const random = seededRandom(options.seed * 1000 + index + 1);
    const scale = 10 ** instrument.precision;
    return {
      instrument,
      scale,
      spreadUnits: spreadUnitsOf(instrument),
      mid: options.startPrices?.get(instrument.code) ?? instrument.model.startPrice * scale,
      nextTickMs: options.startMs + random.exponential(instrument.model.ticksPerSecond / 1000),
      random,
    };
  });
  let lastTickMs = new Map<string, number>(states.map((state) => [state.instrument.code, options.startMs]));

  function tickOf(state: InstrumentState, timeMs: number): RawTick {
    const { instrument, random } = state;
    const previous = lastTickMs.get(instrument.code) ?? timeMs;
    const years = Math.max(timeMs - previous, 1) / msPerYear;
    const sigma = instrument.model.annualVolatility;
    state.mid *= Math.exp(-0.5 * sigma * sigma * years + sigma * Math.sqrt(years) * random.normal());
    lastTickMs.set(instrument.code, timeMs);
    const half = state.spreadUnits / 2;
    const bid = Math.max(1, Math.round(state.mid - half));
    return {
      symbol: instrument.code,
      timeMs,
      bid,
      ask: bid + state.spreadUnits,
      volume: 1 + Math.floor(random.next() * instrument.model.tickVolume),
    };
  }

  return {
    /** Every tick due in (fromMs, toMs], in time order. */
    advance(toMs: number): RawTick[] {
      const ticks: RawTick[] = [];
      for (const state of states) {
        const rate = state.instrument.model.ticksPerSecond / 1000;
        while (state.nextTickMs <= toMs) {
          const at = Math.floor(state.nextTickMs);
          const hours = { marketStartTime: state.instrument.hours.start, marketCloseTime: state.instrument.hours.close };
          if (marketStatusAt(hours, at) !== 'closed') ticks.push(tickOf(state, at));
          else lastTickMs.set(state.instrument.code, at);
          state.nextTickMs += state.random.exponential(rate);
        }
      }
      return ticks.sort((a, b) => a.timeMs - b.timeMs);
    },
    midUnits(symbol: string): number | undefined {
      return states.find((state) => state.instrument.code === symbol)?.mid;
    },
    /** Continues after a pause from `atMs`, without replaying the ticks of the pause. */
    resumeAt(atMs: number) {
      lastTickMs = new Map(states.map((state) => [state.instrument.code, atMs]));
      for (const state of states) {
        state.nextTickMs = atMs + state.random.exponential(state.instrument.model.ticksPerSecond / 1000);
      }
    },
  };
}

/** The live simulator: wakes every step and hands over the ticks that fell due. */
export function simulatorSource(options: {
  instruments: readonly Instrument[];
  seed: number;
  nowMs?: () => number;
  startPrices?: ReadonlyMap<string, number>;
}): MarketDataSource {
  const nowMs = options.nowMs ?? Date.now;
  let timer: ReturnType<typeof setInterval> | null = null;
  let model: ReturnType<typeof createSimulatorModel> | null = null;
  return {
    name: 'simulator',
    start(onTicks) {
      if (timer) return;
      if (model) model.resumeAt(nowMs());
      else {
        model = createSimulatorModel({
          instruments: options.instruments,
          seed: options.seed,
          startMs: nowMs(),
          ...(options.startPrices ? { startPrices: options.startPrices } : {}),
        });
      }
      const running = model;
      timer = setInterval(() => {
        const ticks = running.advance(nowMs());
        if (ticks.length > 0) onTicks(ticks);
      }, simulatorStepMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
