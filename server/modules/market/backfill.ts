import { marketStatusAt, type TradingHours } from '../../../src/shared/market/market-hours';
import { barStartMs, periodMs, type Bar, type KlinePeriod } from '../../../src/shared/market/kline';
import type { Instrument } from './catalogue';
import type { Random } from './sources/random';

const msPerYear = 365.25 * 24 * 3600 * 1000;
const substeps = 6;
/** How far back to look for tradable slots before giving up (a product closed for good). */
const searchLimitSlots = 20_000;

function hoursOf(instrument: Instrument): TradingHours {
  return { marketStartTime: instrument.hours.start, marketCloseTime: instrument.hours.close };
}

/** A slot has bars when its market is not closed at its start, middle or end. */
function tradable(hours: TradingHours, startMs: number, lengthMs: number): boolean {
  return [startMs, startMs + lengthMs / 2, startMs + lengthMs - 1].some((at) => marketStatusAt(hours, at) !== 'closed');
}

/**
 * History made with the simulator's own model, walked backwards from the live price, so
 * that charts are full at first start and the last stored bar closes where the live bar
 * opens. Slots when the market was closed get no bar. Bars come back in time order.
 */
export function backfillBars(options: {
  instrument: Instrument;
  period: KlinePeriod;
  count: number;
  /** The live mid price, in price units. */
  endPriceUnits: number;
  nowMs: number;
  random: Random;
}): Bar[] {
  const { instrument, period, random } = options;
  const hours = hoursOf(instrument);
  const length = periodMs[period];
  const sigma = instrument.model.annualVolatility;
  const stepYears = length / substeps / msPerYear;
  const meanVolume = Math.max(1, (instrument.model.tickVolume / 2) * instrument.model.ticksPerSecond * (length / 1000));

  const bars: Bar[] = [];
  let close = options.endPriceUnits;
  let slot = barStartMs(options.nowMs, period) - length;
  for (let searched = 0; bars.length < options.count && searched < searchLimitSlots; searched += 1, slot -= length) {
    if (!tradable(hours, slot, length)) continue;
    // Walk back from the close in small steps; the path's extremes are the bar's high and low.
    let level = close;
    let high = close;
    let low = close;
    for (let step = 0; step < substeps; step += 1) {
      level *= Math.exp(sigma * Math.sqrt(stepYears) * random.normal());
      high = Math.max(high, level);
      low = Math.min(low, level);
    }
    const volume = Math.max(1, Math.round(meanVolume * (0.5 + random.next())));
    const open = Math.max(1, Math.round(level));
    const roundedClose = Math.max(1, Math.round(close));
    bars.push({
      time: slot,
      open,
      high: Math.max(open, roundedClose, Math.round(high)),
      low: Math.max(1, Math.min(open, roundedClose, Math.round(low))),
      close: roundedClose,
      volume,
      turnover: volume * Math.round((open + roundedClose) / 2),
    });
    close = level;
  }
  return bars.reverse();
}
