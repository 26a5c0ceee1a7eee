import { describe, expect, it } from 'vitest';
import { productTypes } from '../../../../../src/shared/api/market';
import { instruments, loadTestInstruments } from '../../../../../server/modules/market/catalogue';
import { createSimulatorModel, spreadUnitsOf } from '../../../../../server/modules/market/sources/simulator';

const saturday = Date.parse('2026-01-17T15:00:00Z');

describe('instrument catalogue', () => {
  it('seeds at least 35 instruments across the five categories, each with valid hours', () => {
    expect(instruments.length).toBeGreaterThanOrEqual(35);
    for (const type of productTypes) expect(instruments.some((instrument) => instrument.type === type), type).toBe(true);
    expect(new Set(instruments.map((instrument) => instrument.code)).size).toBe(instruments.length);
    for (const instrument of instruments) {
      expect(instrument.hours.start).toHaveLength(7);
      expect(instrument.hours.close).toHaveLength(7);
      expect(spreadUnitsOf(instrument), instrument.code).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('load-test instruments (MARKET_LOAD_SYMBOLS)', () => {
  it('adds round-the-clock symbols sharing the total tick rate, without history backfill', () => {
    const load = loadTestInstruments(500, 20_000);
    expect(load).toHaveLength(500);
    expect(load[0]?.code).toBe('LOAD001USDT');
    expect(load.at(-1)?.code).toBe('LOAD500USDT');
    expect(load.every((instrument) => instrument.backfill === false && instrument.type === 'Cryptos')).toBe(true);
    expect(load.reduce((sum, instrument) => sum + instrument.model.ticksPerSecond, 0)).toBeCloseTo(20_000, 6);
    // A simulated second of the model gives about the requested rate, Saturday included.
    const model = createSimulatorModel({ instruments: load, seed: 3, startMs: saturday });
    const ticks = model.advance(saturday + 1_000);
    expect(ticks.length).toBeGreaterThan(19_000);
    expect(ticks.length).toBeLessThan(21_000);
  });
});
