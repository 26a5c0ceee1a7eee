import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { instruments } from '../../../../../../server/modules/market/catalogue';
import { csvMaxErrors, csvReplaySource, loadCsvReplaySource, parseTickCsv } from '../../../../../../server/modules/market/sources/csv-replay';
import type { RawTick } from '../../../../../../server/modules/market/sources/market-data-source';
import { spreadUnitsOf } from '../../../../../../server/modules/market/sources/simulator';

const eurusd = instruments.find((instrument) => instrument.code === 'EURUSD')!;
const btc = instruments.find((instrument) => instrument.code === 'BTCUSDT')!;
const doge = instruments.find((instrument) => instrument.code === 'DOGEUSDT')!;

const t0 = Date.parse('2026-01-12T15:00:00Z');

function ticksOf(text: string): RawTick[] {
  const result = parseTickCsv(text, instruments);
  if ('errors' in result) throw new Error(result.errors.join('\n'));
  return result.ticks;
}

function errorsOf(text: string, limits?: { maxRows?: number; maxErrors?: number }): string[] {
  const result = parseTickCsv(text, instruments, limits);
  if ('ticks' in result) throw new Error(`expected errors, got ${result.ticks.length} ticks`);
  return result.errors;
}

describe('parseTickCsv', () => {
  it('reads ISO-8601 UTC and epoch-millisecond times alike', () => {
    const ticks = ticksOf(
      [
        'time,symbol,bid,ask,volume',
        '2026-01-12T15:00:00Z,EURUSD,1.08512,1.08524,3',
        `${t0 + 250},EURUSD,1.08513,1.08525,2`,
        '2026-01-12T15:00:00.500Z,EURUSD,1.08514,1.08526,1',
        '2026-01-12T15:00:01+00:00,EURUSD,1.08515,1.08527,1',
        '2026-01-12T15:00:01.0009Z,EURUSD,1.08515,1.08527,1',
      ].join('\n'),
    );
    expect(ticks.map((tick) => tick.timeMs - t0)).toEqual([0, 250, 500, 1000, 1000]);
    expect(ticks[0]).toEqual({ symbol: 'EURUSD', timeMs: t0, bid: 108512, ask: 108524, volume: 3 });
  });

  it('takes the columns in any order, case-insensitively, with spaces, CRLF, a BOM, blanks and comments', () => {
    const ticks = ticksOf(
      '\uFEFF# recorded from the demo feed\r\n\r\n Volume , ASK,symbol,bid,time\r\n# first tick\r\n5, 67000.70 ,BTCUSDT, 67000.50 ,2026-01-12T15:00:00Z\r\n\r\n',
    );
    expect(ticks).toEqual([{ symbol: 'BTCUSDT', timeMs: t0, bid: 6700050, ask: 6700070, volume: 5 }]);
  });

  it('defaults a missing ask to bid + spread and a missing volume to 1, whether the column or the cell is missing', () => {
    const noColumns = ticksOf(`time,symbol,bid\n${t0},EURUSD,1.08512\n${t0 + 1},BTCUSDT,67000.5`);
    expect(noColumns).toEqual([
      { symbol: 'EURUSD', timeMs: t0, bid: 108512, ask: 108512 + spreadUnitsOf(eurusd), volume: 1 },
      { symbol: 'BTCUSDT', timeMs: t0 + 1, bid: 6700050, ask: 6700050 + spreadUnitsOf(btc), volume: 1 },
    ]);
    expect(spreadUnitsOf(eurusd)).toBe(12);
    const emptyCells = ticksOf(`time,symbol,bid,ask,volume\n${t0},EURUSD,1.08512,,\n${t0},EURUSD,1.08512,,0.25`);
    expect(emptyCells.map((tick) => [tick.ask, tick.volume])).toEqual([
      [108524, 1],
      [108524, 0.25],
    ]);
  });

  it('reads prices as exact decimals at the instrument precision, rounding half up', () => {
    const ticks = ticksOf(
      [
        'time,symbol,bid,ask',
        `${t0},EURUSD,1.08512,1.085125`,
        `${t0},DOGEUSDT,0.123456,0.123457`,
        `${t0},DOGEUSDT,0.123454,0.1234549`,
        // 1.005 * 100 is 100.49999… in floats; exactly it rounds up to 101.
        `${t0},BTCUSDT,1.005,1.015`,
        `${t0},BTCUSDT,67000,67000.1`,
      ].join('\n'),
    );
    expect(doge.precision).toBe(5);
    expect(ticks.map((tick) => [tick.bid, tick.ask])).toEqual([
      [108512, 108513],
      [12346, 12346],
      [12345, 12345],
      [101, 102],
      [6700000, 6700010],
    ]);
  });

  it('allows equal times across symbols', () => {
    expect(ticksOf(`time,symbol,bid\n${t0},EURUSD,1.1\n${t0},BTCUSDT,1\n${t0},EURUSD,1.2`)).toHaveLength(3);
  });

  it('reports every bad line with its number and reason', () => {
    const errors = errorsOf(
      [
        'time,symbol,bid,ask,volume', // 1
        '# a comment', // 2
        '2026-01-12T15:00:00Z,EURUSD,1.08512,1.08524,3', // 3: fine
        '2026-01-12T15:00:01Z,XXXUSD,1.0,1.1,1', // 4
        '2026-01-12T15:00:02Z,EURUSD,1.08x,1.08524,1', // 5
        '2026-01-12T15:00:03Z,EURUSD,1.08512,abc,1', // 6
        '2026-01-12T15:00:04Z,EURUSD,1.08512,1.08524,-1', // 7
        '2026-01-12T15:00:04Z,EURUSD,-1.08512,,1', // 8
        '2026-01-12T15:00:04Z,EURUSD,0,,1', // 9
        '2026-01-12T15:00:04Z,EURUSD,1e3,,1', // 10
        'yesterday,EURUSD,1.08512,1.08524,1', // 11
        '2026-02-30T15:00:00Z,EURUSD,1.08512,1.08524,1', // 12
        '2026-01-12T17:00:05+02:00,EURUSD,1.08512,1.08524,1', // 13
        '2026-01-12 15:00:05,EURUSD,1.08512,1.08524,1', // 14
        '2026-01-12T15:00:05Z,EURUSD,1.08530,1.08520,1', // 15
        '2026-01-12T14:00:00Z,EURUSD,1.08512,1.08524,1', // 16
        `${t0 + 6000},EURUSD,1.08512`, // 17
        '', // 18
        '2026-01-12T15:00:07Z,EURUSD,1.08512,1.08524,1,', // 19
        '2026-01-12T15:00:08Z,EURUSD,1.08512,1.08524,1', // 20: fine
        `${t0 + 7000},NOPE,x,1,1`, // 21: order and symbol
      ].join('\n'),
    );
    const expected: [number, RegExp][] = [
      [4, /unknown symbol "XXXUSD"/],
      [5, /bad number: bid "1\.08x"/],
      [6, /bad number: ask "abc"/],
      [7, /bad number: volume "-1"/],
      [8, /bad number: bid "-1\.08512"/],
      [9, /bad number: bid "0"/],
      [10, /bad number: bid "1e3"/],
      [11, /bad time "yesterday"/],
      [12, /bad time "2026-02-30T15:00:00Z"/],
      [13, /bad time/],
      [14, /bad time/],
      [15, /ask 1\.08520 below bid 1\.08530/],
      [16, /out of order/],
      [17, /wrong column count: 3 instead of 5/],
      [19, /wrong column count: 6 instead of 5/],
      [21, /out of order.*unknown symbol "NOPE"/],
    ];
    expect(errors).toHaveLength(expected.length);
    expected.forEach(([line, reason], index) => {
      expect(errors[index]).toMatch(new RegExp(`^line ${line}: `));
      expect(errors[index]).toMatch(reason);
    });
  });

  it('rejects a bad header, naming every problem', () => {
    expect(errorsOf('# header follows\ntime,symbol,ask,vol,time\n1,EURUSD,1.1')).toEqual([
      'line 2: bad header: unknown column "vol"; duplicate column "time"; missing column "bid"',
    ]);
  });

  it('rejects an empty file and a file without ticks', () => {
    expect(errorsOf('')).toEqual([expect.stringMatching(/^line 1: missing header/)]);
    expect(errorsOf('# only a comment\n\n')).toEqual([expect.stringMatching(/missing header/)]);
    expect(errorsOf('time,symbol,bid\n\n# nothing recorded\n')).toEqual([expect.stringMatching(/no ticks/)]);
  });

  it(`stops after ${csvMaxErrors} errors`, () => {
    const bad = Array.from({ length: csvMaxErrors + 10 }, (_, index) => `${t0 + index},XXX,1,1,1`);
    const errors = errorsOf(['time,symbol,bid,ask,volume', ...bad].join('\n'));
    expect(errors).toHaveLength(csvMaxErrors + 1);
    expect(errors[csvMaxErrors - 1]).toMatch(new RegExp(`^line ${csvMaxErrors + 1}: unknown symbol`));
    expect(errors[csvMaxErrors]).toBe(`line ${csvMaxErrors + 2}: stopped after ${csvMaxErrors} errors`);
  });

  it('refuses more rows than the limit', () => {
    const rows = Array.from({ length: 4 }, (_, index) => `${t0 + index},EURUSD,1.1`);
    expect(parseTickCsv(['time,symbol,bid', ...rows.slice(0, 3)].join('\n'), instruments, { maxRows: 3 })).toHaveProperty('ticks');
    expect(errorsOf(['time,symbol,bid', ...rows].join('\n'), { maxRows: 3 })).toEqual(['line 5: more than 3 rows; split the recording']);
  });
});

describe('loadCsvReplaySource', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csv-replay-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads a good file', async () => {
    const path = join(dir, 'good.csv');
    await writeFile(path, `time,symbol,bid\n${t0},EURUSD,1.08512\n`);
    const source = await loadCsvReplaySource(path, instruments, { speed: 2 });
    expect(source.name).toBe('csv-replay');
  });

  it('throws listing the first errors of a bad file', async () => {
    const path = join(dir, 'bad.csv');
    const bad = Array.from({ length: 15 }, (_, index) => `${t0 + index},XXX,1`);
    await writeFile(path, ['time,symbol,bid', ...bad].join('\n'));
    const failure = loadCsvReplaySource(path, instruments);
    await expect(failure).rejects.toThrow(/bad\.csv: not a valid tick recording:\nline 2: unknown symbol "XXX"\nline 3: /);
    await expect(failure).rejects.toThrow(/line 11: unknown symbol[^]*…and 5 more$/);
    await expect(failure).rejects.not.toThrow(/line 12:/);
  });

  it('passes on a missing file as an error', async () => {
    await expect(loadCsvReplaySource(join(dir, 'missing.csv'), instruments)).rejects.toThrow(/ENOENT/);
  });
});

describe('csvReplaySource', () => {
  const start = Date.parse('2026-03-02T09:00:00Z');
  const recordedAt = Date.parse('2025-06-01T12:00:00Z');
  const recording = (offsets: number[]): RawTick[] =>
    offsets.map((offset, index) => ({ symbol: index % 2 ? 'BTCUSDT' : 'EURUSD', timeMs: recordedAt + offset, bid: 100 + index, ask: 110 + index, volume: 1 }));

  interface Batch {
    at: number;
    /** Stamped times relative to the start. */
    times: number[];
    ticks: RawTick[];
  }
  function listen(source: ReturnType<typeof csvReplaySource>, batches: Batch[]) {
    source.start((ticks) => batches.push({ at: Date.now() - start, times: ticks.map((tick) => tick.timeMs - start), ticks }));
  }

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(start);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands over each batch at the first step after it falls due, stamped from the start time', () => {
    const source = csvReplaySource({ ticks: recording([0, 10, 100, 250, 1000]), nowMs: () => Date.now() });
    const batches: Batch[] = [];
    listen(source, batches);
    vi.advanceTimersByTime(49);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(batches.map(({ at, times }) => [at, times])).toEqual([[50, [0, 10]]]);
    vi.advanceTimersByTime(2000);
    expect(batches.map(({ at, times }) => [at, times])).toEqual([
      [50, [0, 10]],
      [100, [100]],
      [250, [250]],
      [1000, [1000]],
    ]);
    // Prices and symbols pass through unchanged.
    expect(batches[0]!.ticks[1]).toEqual({ symbol: 'BTCUSDT', timeMs: start + 10, bid: 101, ask: 111, volume: 1 });
    // The recording is over: no timer left behind.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('honours stepMs and does not change the given ticks', () => {
    const ticks = recording([0, 100, 250]);
    const copy = structuredClone(ticks);
    const batches: Batch[] = [];
    listen(csvReplaySource({ ticks, stepMs: 200, nowMs: () => Date.now() }), batches);
    vi.advanceTimersByTime(1000);
    expect(batches.map(({ at, times }) => [at, times])).toEqual([
      [200, [0, 100]],
      [400, [250]],
    ]);
    expect(ticks).toEqual(copy);
  });

  it('speed 2 halves the gaps', () => {
    const batches: Batch[] = [];
    listen(csvReplaySource({ ticks: recording([0, 10, 100, 250, 1000]), speed: 2, nowMs: () => Date.now() }), batches);
    vi.advanceTimersByTime(1000);
    expect(batches.map(({ at, times }) => [at, times])).toEqual([
      [50, [0, 5, 50]],
      [150, [125]],
      [500, [500]],
    ]);
  });

  it('speed 3 stamps whole milliseconds, in order', () => {
    const batches: Batch[] = [];
    listen(csvReplaySource({ ticks: recording([0, 100, 200]), speed: 3, nowMs: () => Date.now() }), batches);
    vi.advanceTimersByTime(100);
    expect(batches.flatMap(({ times }) => times)).toEqual([0, 33, 66]);
  });

  it('with loop, starts over one average gap after the last tick, times moving on', () => {
    const batches: Batch[] = [];
    const source = csvReplaySource({ ticks: recording([0, 100, 200]), loop: true, nowMs: () => Date.now() });
    listen(source, batches);
    vi.advanceTimersByTime(1000);
    const ticks = batches.flatMap(({ ticks }) => ticks);
    expect(ticks.map((tick) => tick.timeMs - start)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(ticks.map((tick) => tick.bid)).toEqual([100, 101, 102, 100, 101, 102, 100, 101, 102, 100, 101]);
    expect(vi.getTimerCount()).toBe(1);
    source.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('loops a recording of a single instant without spinning', () => {
    const batches: Batch[] = [];
    const source = csvReplaySource({ ticks: recording([0]), loop: true, nowMs: () => Date.now() });
    listen(source, batches);
    vi.advanceTimersByTime(50);
    // One pass per millisecond: the passes stamped 0, 1, … 50.
    expect(batches).toHaveLength(1);
    expect(batches[0]!.times).toEqual(Array.from({ length: 51 }, (_, index) => index));
    source.stop();
  });

  it('stop then start continues with the next tick, shifted by the pause, without a burst', () => {
    const batches: Batch[] = [];
    const source = csvReplaySource({ ticks: recording([0, 10, 100, 250, 1000]), nowMs: () => Date.now() });
    listen(source, batches);
    vi.advanceTimersByTime(120);
    source.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(batches.map(({ at, times }) => [at, times])).toEqual([
      [50, [0, 10]],
      [100, [100]],
    ]);
    listen(source, batches);
    vi.advanceTimersByTime(149);
    // Restarted at 10 120 ms: the tick due 130 ms after the stop is now due 130 ms after the restart,
    // handed over at the third step (10 270 ms), alone.
    expect(batches).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(batches.slice(2).map(({ at, times }) => [at, times])).toEqual([[10_270, [10_250]]]);
    vi.advanceTimersByTime(5000);
    expect(batches.slice(2).map(({ at, times }) => [at, times])).toEqual([
      [10_270, [10_250]],
      [11_020, [11_000]],
    ]);
  });

  it('start while running and stop while stopped change nothing', () => {
    const batches: Batch[] = [];
    const source = csvReplaySource({ ticks: recording([0, 100]), nowMs: () => Date.now() });
    listen(source, batches);
    listen(source, batches);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(60);
    source.stop();
    vi.advanceTimersByTime(1000);
    source.stop();
    listen(source, batches);
    vi.advanceTimersByTime(100);
    expect(batches.map(({ at, times }) => [at, times])).toEqual([
      [50, [0]],
      [1110, [1100]],
    ]);
  });

  it('an empty recording starts no timer', () => {
    const source = csvReplaySource({ ticks: [], loop: true, nowMs: () => Date.now() });
    source.start(() => {
      throw new Error('no ticks expected');
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses a bad speed, a bad step and unsorted ticks', () => {
    expect(() => csvReplaySource({ ticks: [], speed: 0 })).toThrow(/speed/);
    expect(() => csvReplaySource({ ticks: [], speed: Number.NaN })).toThrow(/speed/);
    expect(() => csvReplaySource({ ticks: [], stepMs: -1 })).toThrow(/stepMs/);
    expect(() => csvReplaySource({ ticks: recording([100, 0]) })).toThrow(/out of time order at index 1/);
  });
});
