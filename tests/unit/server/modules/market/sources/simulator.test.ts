import { describe, expect, it } from 'vitest';
import { instruments } from '../../../../../../server/modules/market/catalogue';
import { createSimulatorModel } from '../../../../../../server/modules/market/sources/simulator';

const monday = Date.parse('2026-01-12T15:00:00Z');
const saturday = Date.parse('2026-01-17T15:00:00Z');

describe('simulator', () => {
  const eurusd = instruments.find((instrument) => instrument.code === 'EURUSD')!;
  const btc = instruments.find((instrument) => instrument.code === 'BTCUSDT')!;
  const apple = instruments.find((instrument) => instrument.code === 'AAPL')!;

  it('replays exactly for the same seed', () => {
    const run = () => createSimulatorModel({ instruments: [eurusd, btc], seed: 7, startMs: monday }).advance(monday + 60_000);
    expect(run()).toEqual(run());
    const other = createSimulatorModel({ instruments: [eurusd, btc], seed: 8, startMs: monday }).advance(monday + 60_000);
    expect(other).not.toEqual(run());
  });

  it('ticks at about the instrument rate, in time order, with the spread in pips', () => {
    const ticks = createSimulatorModel({ instruments: [eurusd], seed: 1, startMs: monday }).advance(monday + 600_000);
    // 4 ticks per second for 600 s: 2400 expected; Poisson spread is about ±50.
    expect(ticks.length).toBeGreaterThan(2200);
    expect(ticks.length).toBeLessThan(2600);
    for (let index = 1; index < ticks.length; index += 1) expect(ticks[index]!.timeMs).toBeGreaterThanOrEqual(ticks[index - 1]!.timeMs);
    // 1.2 pips of 0.0001 at 5 decimals = 12 units.
    for (const tick of ticks) expect(tick.ask - tick.bid).toBe(12);
    const last = ticks.at(-1)!;
    expect(last.bid / 1e5).toBeGreaterThan(1.0);
    expect(last.bid / 1e5).toBeLessThan(1.2);
  });

  it('moves with the instrument volatility', () => {
    // The standard deviation of one-hour log returns over many hours matches sigma·sqrt(1h).
    // Few ticks per second keep the test quick; the walk's variance scales with time, not ticks.
    const slowBtc = { ...btc, model: { ...btc.model, ticksPerSecond: 0.05 } };
    const model = createSimulatorModel({ instruments: [slowBtc], seed: 3, startMs: saturday });
    const returns: number[] = [];
    let previous = model.midUnits('BTCUSDT')!;
    for (let hour = 1; hour <= 400; hour += 1) {
      model.advance(saturday + hour * 3_600_000);
      const mid = model.midUnits('BTCUSDT')!;
      returns.push(Math.log(mid / previous));
      previous = mid;
    }
    const mean = returns.reduce((sum, value) => sum + value, 0) / returns.length;
    const deviation = Math.sqrt(returns.reduce((sum, value) => sum + (value - mean) ** 2, 0) / returns.length);
    const expected = 0.6 * Math.sqrt(1 / (365.25 * 24));
    expect(deviation).toBeGreaterThan(expected * 0.8);
    expect(deviation).toBeLessThan(expected * 1.2);
  });

  it('sends nothing while the market is closed, and crypto trades at the weekend', () => {
    const ticks = createSimulatorModel({ instruments: [apple, eurusd, btc], seed: 2, startMs: saturday }).advance(saturday + 60_000);
    expect(ticks.some((tick) => tick.symbol === 'AAPL')).toBe(false);
    expect(ticks.some((tick) => tick.symbol === 'EURUSD')).toBe(false);
    expect(ticks.some((tick) => tick.symbol === 'BTCUSDT')).toBe(true);
  });
});
