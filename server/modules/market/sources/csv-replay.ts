/**
 * A market-data source that replays ticks recorded in a CSV file.
 *
 * Format:
 *   - The first line that is neither blank nor a `#` comment is the header, naming the
 *     columns in any order (case-insensitive): `time`, `symbol`, `bid` are required,
 *     `ask` and `volume` are optional. Any other column name is an error (a typo such
 *     as `vol` would otherwise silently default every volume).
 *   - One tick per line, fields separated by commas (no quoting: no field contains a
 *     comma), surrounding spaces ignored. Blank lines and lines starting with `#` are
 *     skipped; line numbers in error messages count every line of the file.
 *   - `time`: ISO-8601 UTC (`2026-01-12T15:00:00Z`, `…:00.250Z` or `+00:00`; digits
 *     beyond milliseconds are truncated) or integer milliseconds since the epoch.
 *   - `symbol`: an instrument code from the catalogue, exactly (`EURUSD`).
 *   - `bid`, `ask`: exact positive decimals, read at the instrument's precision
 *     (digits beyond it are rounded half up), never through floats. A missing or
 *     empty ask is the bid plus the instrument's spread; an ask below the bid is an error.
 *   - `volume`: a non-negative decimal; missing or empty means 1.
 *   - Lines are in time order (equal times allowed); a line earlier than the one
 *     before it is an error, since the replay could not honour it.
 *
 * Example:
 *   time,symbol,bid,ask,volume
 *   2026-01-12T15:00:00.000Z,EURUSD,1.08512,1.08524,3
 *   1768230000250,BTCUSDT,67000.5,,
 */
import { readFile } from 'node:fs/promises';
import type { Instrument } from '../catalogue';
import { decimalToUnits, type MarketDataSource, type RawTick } from './market-data-source';
import { spreadUnitsOf } from './simulator';

/** Data rows accepted from one file: about 150 MB of CSV, enough for a day of busy symbols. */
export const csvMaxRows = 5_000_000;
/** Errors collected before parsing gives up: a wrong file would otherwise list every line. */
export const csvMaxErrors = 50;
/** Errors quoted in the message thrown by `loadCsvReplaySource`. */
export const csvErrorsInMessage = 10;
/** How often the replay wakes up to hand over the ticks that fell due. */
export const csvReplayStepMs = 50;
/** Ticks handed over in one wake-up at most, so a very high speed cannot stall the event loop; the rest follow next wake-up. */
export const csvReplayMaxBatch = 100_000;

export interface CsvLimits {
  maxRows: number;
  maxErrors: number;
}

export type TickCsvResult = { ticks: RawTick[] } | { errors: string[] };

const requiredColumns = ['time', 'symbol', 'bid'] as const;
const knownColumns = new Set<string>([...requiredColumns, 'ask', 'volume']);

const isoUtc = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:Z|\+00:?00)$/;
const epochMs = /^\d+$/;
const plainDecimal = /^\d+(?:\.\d+)?$/;

/** Milliseconds since the epoch, or null when the text is neither an integer nor an ISO-8601 UTC time. */
function parseTime(text: string): number | null {
  if (epochMs.test(text)) {
    const ms = Number(text);
    return Number.isSafeInteger(ms) ? ms : null;
  }
  const match = isoUtc.exec(text);
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const millis = Number(((match[7] ?? '') + '000').slice(0, 3));
  const ms = Date.UTC(year, month - 1, day, hours, minutes, seconds, millis);
  // Date.UTC rolls 2026-02-30 over into March; a recorded time must name a real instant.
  const back = new Date(ms);
  const real =
    back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day &&
    back.getUTCHours() === hours && back.getUTCMinutes() === minutes && back.getUTCSeconds() === seconds;
  return real ? ms : null;
}

/** A price in units of the instrument's precision, or null unless it is an exact positive decimal. */
function parsePrice(text: string, precision: number): number | null {
  if (!plainDecimal.test(text)) return null;
  const units = decimalToUnits(text, precision);
  return units !== null && units > 0 && Number.isSafeInteger(units) ? units : null;
}

function parseVolume(text: string): number | null {
  if (!plainDecimal.test(text)) return null;
  const volume = Number(text);
  return Number.isFinite(volume) ? volume : null;
}

/**
 * Parses recorded ticks (format in this file's header). Pure: returns every tick, or
 * the bad lines with their numbers and reasons (up to `maxErrors`, then a final note).
 */
export function parseTickCsv(text: string, instruments: readonly Instrument[], limits: Partial<CsvLimits> = {}): TickCsvResult {
  const maxRows = limits.maxRows ?? csvMaxRows;
  const maxErrors = limits.maxErrors ?? csvMaxErrors;
  const bySymbol = new Map(instruments.map((instrument) => [instrument.code, instrument]));
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const errors: string[] = [];
  const ticks: RawTick[] = [];
  let columns: Map<string, number> | null = null;
  let columnCount = 0;
  let lastTimeMs = -Infinity;
  let rows = 0;

  for (let index = 0; index < lines.length; index += 1) {
    const lineNumber = index + 1;
    const line = (lines[index] ?? '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const cells = line.split(',').map((cell) => cell.trim());

    if (!columns) {
      const names = cells.map((cell) => cell.toLowerCase());
      const problems: string[] = [];
      for (const name of names) if (!knownColumns.has(name)) problems.push(`unknown column "${name}"`);
      for (const name of new Set(names)) if (names.indexOf(name) !== names.lastIndexOf(name)) problems.push(`duplicate column "${name}"`);
      for (const name of requiredColumns) if (!names.includes(name)) problems.push(`missing column "${name}"`);
      // Rows cannot be read against a broken header, so stop here.
      if (problems.length > 0) return { errors: [`line ${lineNumber}: bad header: ${problems.join('; ')}`] };
      columns = new Map(names.map((name, position) => [name, position]));
      columnCount = names.length;
      continue;
    }

    rows += 1;
    if (rows > maxRows) {
      errors.push(`line ${lineNumber}: more than ${maxRows} rows; split the recording`);
      break;
    }
    const reasons: string[] = [];
    if (cells.length !== columnCount) {
      reasons.push(`wrong column count: ${cells.length} instead of ${columnCount}`);
    } else {
      const cell = (name: string) => {
        const position = columns?.get(name);
        return position === undefined ? '' : (cells[position] ?? '');
      };
      const timeText = cell('time');
      const timeMs = parseTime(timeText);
      if (timeMs === null) reasons.push(`bad time "${timeText}"`);
      else if (timeMs < lastTimeMs) reasons.push(`out of order: ${timeText} is before the previous line's time`);
      else lastTimeMs = timeMs;

      const symbol = cell('symbol');
      const instrument = bySymbol.get(symbol);
      if (!instrument) reasons.push(`unknown symbol "${symbol}"`);

      const volumeText = cell('volume');
      const volume = volumeText === '' ? 1 : parseVolume(volumeText);
      if (volume === null) reasons.push(`bad number: volume "${volumeText}"`);

      if (instrument) {
        const bidText = cell('bid');
        const bid = parsePrice(bidText, instrument.precision);
        if (bid === null) reasons.push(`bad number: bid "${bidText}"`);
        const askText = cell('ask');
        const ask = askText === '' ? (bid === null ? null : bid + spreadUnitsOf(instrument)) : parsePrice(askText, instrument.precision);
        if (ask === null && askText !== '') reasons.push(`bad number: ask "${askText}"`);
        if (bid !== null && ask !== null && ask < bid) reasons.push(`ask ${askText} below bid ${bidText}`);
        if (reasons.length === 0 && timeMs !== null && bid !== null && ask !== null && volume !== null) {
          ticks.push({ symbol, timeMs, bid, ask, volume });
        }
      }
    }
    if (reasons.length > 0) {
      if (errors.length >= maxErrors) {
        errors.push(`line ${lineNumber}: stopped after ${maxErrors} errors`);
        break;
      }
      errors.push(`line ${lineNumber}: ${reasons.join('; ')}`);
    }
  }

  if (errors.length > 0) return { errors };
  if (!columns) return { errors: ['line 1: missing header (time,symbol,bid,ask,volume)'] };
  if (ticks.length === 0) return { errors: ['no ticks: the file has a header but no data rows'] };
  return { ticks };
}

export interface CsvReplayOptions {
  /** Recorded ticks in time order (as `parseTickCsv` returns them). */
  ticks: RawTick[];
  /** Replay speed: 1 is real time, 2 twice as fast. */
  speed?: number;
  /** Start over after the last tick, forever. */
  loop?: boolean;
  nowMs?: () => number;
  stepMs?: number;
}

/**
 * Replays recorded ticks in real time (scaled by `speed`), re-stamped so the first
 * tick falls at start time: timeMs = start + (recorded - firstRecorded) / speed.
 * Ticks are handed over in batches every `stepMs`. With `loop`, each pass starts one
 * average tick gap (at least 1 ms) after the previous pass's last tick, times moving
 * on. `stop()` then `start()` continues with the next tick, shifted by the pause.
 */
export function csvReplaySource(options: CsvReplayOptions): MarketDataSource {
  const { ticks, loop = false } = options;
  const speed = options.speed ?? 1;
  const stepMs = options.stepMs ?? csvReplayStepMs;
  const nowMs = options.nowMs ?? Date.now;
  if (!(Number.isFinite(speed) && speed > 0)) throw new RangeError(`csv replay: speed must be a positive number, not ${speed}`);
  if (!(Number.isFinite(stepMs) && stepMs > 0)) throw new RangeError(`csv replay: stepMs must be a positive number, not ${stepMs}`);
  for (let index = 1; index < ticks.length; index += 1) {
    if (ticks[index]!.timeMs < ticks[index - 1]!.timeMs) throw new RangeError(`csv replay: ticks out of time order at index ${index}`);
  }

  const firstMs = ticks[0]?.timeMs ?? 0;
  const spanMs = (ticks[ticks.length - 1]?.timeMs ?? 0) - firstMs;
  // Recorded length of one pass; never 0, or a loop over one instant would never end.
  const cycleMs = spanMs + Math.max(1, Math.round(ticks.length > 1 ? spanMs / (ticks.length - 1) : 0));

  let timer: ReturnType<typeof setInterval> | null = null;
  /** Wall time of the first pass's first tick; moved on by each pause. */
  let anchorMs: number | null = null;
  let stoppedAtMs: number | null = null;
  let next = 0;
  let pass = 0;

  const done = () => next >= ticks.length;
  const stampOf = (tick: RawTick) => Math.floor(anchorMs! + (tick.timeMs - firstMs + pass * cycleMs) / speed);

  function due(now: number): RawTick[] {
    const batch: RawTick[] = [];
    while (!done() && batch.length < csvReplayMaxBatch) {
      const tick = ticks[next]!;
      const timeMs = stampOf(tick);
      if (timeMs > now) break;
      batch.push({ ...tick, timeMs });
      next += 1;
      if (done() && loop) {
        next = 0;
        pass += 1;
      }
    }
    return batch;
  }

  function clear() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  return {
    name: 'csv-replay',
    start(onTicks) {
      if (timer || done()) return;
      const now = nowMs();
      if (anchorMs === null) anchorMs = now;
      else if (stoppedAtMs !== null) anchorMs += now - stoppedAtMs;
      stoppedAtMs = null;
      timer = setInterval(() => {
        const batch = due(nowMs());
        if (batch.length > 0) onTicks(batch);
        if (done()) clear();
      }, stepMs);
      timer.unref?.();
    },
    stop() {
      if (timer) stoppedAtMs = nowMs();
      clear();
    },
  };
}

/** Reads, parses and wraps a CSV recording; throws listing the first errors if the file is bad. */
export async function loadCsvReplaySource(
  path: string,
  instruments: readonly Instrument[],
  options: Omit<CsvReplayOptions, 'ticks'> = {},
): Promise<MarketDataSource> {
  const result = parseTickCsv(await readFile(path, 'utf8'), instruments);
  if ('errors' in result) {
    const shown = result.errors.slice(0, csvErrorsInMessage);
    const more = result.errors.length > shown.length ? `\n…and ${result.errors.length - shown.length} more` : '';
    throw new Error(`${path}: not a valid tick recording:\n${shown.join('\n')}${more}`);
  }
  return csvReplaySource({ ...options, ticks: result.ticks });
}
