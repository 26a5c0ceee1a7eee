import { decimalPattern, type PriceTick } from '../api/market';
import { productTypes } from './product-types';

/**
 * The binary wire form of price ticks, which the worker asks the market endpoint for (the
 * batch subscription's header `tick-form:binary`; without it the endpoint answers in tick
 * lines, `tick-lines.ts`). The browser's STOMP client (@stomp/stompjs) reads every octet of
 * a frame one by one, content-length or not, so octets per tick are what ingest costs: a
 * change here is about 6–8 octets against the tick lines' 28–33. The server encodes, the
 * worker decodes, here and nowhere else.
 *
 * Stateful per source as tick lines are: a symbol's first tick in a source travels whole and
 * gives it an id; later ticks travel as that id and the fields that changed. A decimal that
 * changed travels as the difference, in units of its last digit, from the symbol's previous
 * value of that field (exact integers, never floats), where both have the same digits after
 * the point and write back exactly; otherwise as its string. A body is segments:
 *
 *   segment  = 0, length (octets after this varint), base time (ms), source key (string), records
 *   whole    = 1, id + 1 (0: a whole tick later records do not refer to), symbol, name (strings),
 *              type (1 octet, 1–5), then as a change, its mask naming every field but maybe
 *              the price, and each value a string
 *   change   = 2 + the zigzagged difference of its id from the previous record's id + 1 (−1
 *              before the segment's first; a whole tick without an id leaves it), mask (1 octet:
 *              bid, ask, volume, change %, low, high, price ≠ bid, and the high bit: the
 *              previous record's time), time unless the mask's high bit, the value of each
 *              field of the mask, in that order (a price left out is the bid)
 *
 * A publication that lists its symbols in the order the source first sent them (a feed that
 * quotes its instruments in turn) thus names each in one octet whatever its id, and ticks
 * stamped alike (a window's) take no octet for their time: about 6 octets a tick, where the
 * parser's cost is by the octet.
 *
 * Numbers are unsigned LEB128 varints; a time is the zigzagged difference from the previous
 * record's time in the segment (the base for its first); a value is a varint v: even, the
 * zigzagged difference v/2; odd, a string of (v−1)/2 octets follows; a string is its UTF-8
 * octets after their count. A segment's length lets the endpoint join bodies by
 * concatenation and cut them into MESSAGEs between segments, and the decoder reject a cut or
 * corrupted body whole (null) rather than read past it: the worker then subscribes afresh
 * and starts again from the sources' states. Differences do not bear being applied twice, so
 * after dropping a MESSAGE for a slow consumer the endpoint sends the sources' states (which
 * hold the publication's ticks) instead of the next publication, not before it.
 */

export const tickFormHeader = 'tick-form';
export const binaryTickForm = 'binary';

/** A body starts a new segment after this many ticks, where it may be cut. */
export const ticksPerSegment = 64;
/**
 * The size of MESSAGE body the endpoint cuts a batch to, in octets: a 100 ms window of 2,000
 * symbols (6–8 octets a change) in one MESSAGE. A browser's worker pays for each MESSAGE
 * apart from its octets (the socket's task, the parser's frame): at 16 KB such a window took two.
 */
export const binaryTicksMessageBytes = 32768;

/** The decimals of a tick in the order a change's mask names them; the price last (it travels only where it is not the bid). */
const valueFields = ['bidPrice', 'askPrice', 'volume', 'priceChangePercent', 'low', 'high', 'price'] as const;
const priceIndex = 6;
const priceBit = 1 << priceIndex;
/** A whole tick's mask names every field but the price. */
const wholeMask = priceBit - 1;
const segmentTag = 0;
const wholeTag = 1;
const firstIdTag = 2;
/** A mask's high bit: the record's time is the previous record's (no time follows). */
const sameTimeBit = 128;
/** Differences up to this size travel as differences; the varint (zigzagged, doubled) stays a safe integer. */
const maxDifference = 2 ** 50;

/** Units and digits after the point of a decimal string, where they write it back exactly. */
interface Units {
  /** NaN where the string is not written back from them (leading zeros, a negative zero, more digits than a double holds). */
  units: number;
  scale: number;
}

/** `units` in units of the `scale`-th digit after the point, as a decimal string. */
function formatUnits(units: number, scale: number): string {
  if (scale === 0) return String(units);
  const negative = units < 0;
  const digits = String(negative ? -units : units).padStart(scale + 1, '0');
  const point = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function unitsOf(text: string, into: Units): void {
  const point = text.indexOf('.');
  into.scale = point === -1 ? 0 : text.length - point - 1;
  const digits = point === -1 ? text : text.slice(0, point) + text.slice(point + 1);
  const units = Number(digits);
  into.units = Number.isSafeInteger(units) && formatUnits(units, into.scale) === text ? units : NaN;
}

const zigzag = (value: number) => (value >= 0 ? value * 2 : -value * 2 - 1);
const unzigzag = (value: number) => (value % 2 === 0 ? value / 2 : -(value + 1) / 2);

/** What one side of a source knows of a symbol: its previous tick, and the units of its decimals. */
interface FieldUnits {
  units: number[];
  scales: number[];
}

/** The encoder's state of a symbol. */
interface SymbolState extends FieldUnits {
  id: number;
  tick: PriceTick;
}

/** A price left out is the bid: its units are the bid's. */
function priceIsBid(state: FieldUnits) {
  state.units[priceIndex] = state.units[0]!;
  state.scales[priceIndex] = state.scales[0]!;
}

function symbolState(id: number, tick: PriceTick): SymbolState {
  const state: SymbolState = { id, tick, units: [], scales: [] };
  const parsed: Units = { units: 0, scale: 0 };
  for (const field of valueFields) {
    unitsOf(tick[field], parsed);
    state.units.push(parsed.units);
    state.scales.push(parsed.scale);
  }
  return state;
}

/** The platform's UTF-8 codec: every thread has it (browsers, workers, Node), though the shared code's lib names none. */
declare const TextEncoder: new () => { encode(text: string): Uint8Array };
declare const TextDecoder: new () => { decode(octets: Uint8Array): string };

const utf8 = /* @__PURE__ */ new TextEncoder();

/** A growing buffer of octets. */
class Octets {
  bytes = new Uint8Array(1024);
  length = 0;

  private room(count: number) {
    if (this.length + count <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + count));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(value: number) {
    this.room(1);
    this.bytes[this.length++] = value;
  }

  varint(value: number) {
    this.room(8);
    while (value >= 128) {
      this.bytes[this.length++] = (value % 128) | 128;
      value = Math.floor(value / 128);
    }
    this.bytes[this.length++] = value;
  }

  string(text: string) {
    const octets = utf8.encode(text);
    this.varint(octets.length);
    this.append(octets);
  }

  /** A decimal as a value's string form. */
  literal(text: string) {
    const octets = utf8.encode(text);
    this.varint(octets.length * 2 + 1);
    this.append(octets);
  }

  append(octets: Uint8Array) {
    this.room(octets.length);
    this.bytes.set(octets, this.length);
    this.length += octets.length;
  }

  take(): Uint8Array {
    const taken = this.bytes.slice(0, this.length);
    this.length = 0;
    return taken;
  }
}

/** Whether a change record will do: the symbol's name and type are those of its previous tick. */
const sameSymbol = (tick: PriceTick, previous: PriceTick) => tick.name === previous.name && tick.type === previous.type;

/**
 * The encoder of one source (`key`: unique among the sources a connection can follow, and
 * new for every encoder of the same topic). `encode` is called once per publication, for
 * every subscriber alike; `snapshot` gives a new subscriber the state the next publication
 * refers to.
 */
export function createBinaryTickEncoder(key: string) {
  const sent = new Map<string, SymbolState>();
  let nextId = 0;
  const body = new Octets();
  const segment = new Octets();
  const parsed: Units = { units: 0, scale: 0 };
  let time = 0;
  /** The previous record's id in the segment (a change's id travels as the difference from the one after). */
  let lastId = -1;

  function endSegment() {
    if (segment.length === 0) return;
    body.varint(segmentTag);
    body.varint(segment.length);
    body.append(segment.bytes.subarray(0, segment.length));
    segment.length = 0;
  }

  function startSegment(base: number) {
    endSegment();
    segment.varint(base);
    segment.string(key);
    time = base;
    lastId = -1;
  }

  /** The mask's octet (its high bit where the time is the previous record's), then the time unless so. */
  function writeMaskAndTime(mask: number, at: number) {
    if (at === time) {
      segment.byte(mask | sameTimeBit);
      return;
    }
    segment.byte(mask);
    segment.varint(zigzag(at - time));
    time = at;
  }

  function writeWhole(id: number | null, tick: PriceTick) {
    segment.varint(wholeTag);
    segment.varint(id === null ? 0 : id + 1);
    if (id !== null) lastId = id;
    segment.string(tick.symbol);
    segment.string(tick.name);
    segment.byte(productTypes.indexOf(tick.type) + 1);
    const hasPrice = tick.price !== tick.bidPrice;
    writeMaskAndTime(wholeMask | (hasPrice ? priceBit : 0), tick.lastUpdate);
    for (let index = 0; index < priceIndex; index += 1) segment.literal(tick[valueFields[index]!]);
    if (hasPrice) segment.literal(tick.price);
  }

  /** A changed decimal of field `index`: its difference from the previous value where both have the same units, else its string. */
  function writeValue(state: SymbolState, index: number, text: string) {
    unitsOf(text, parsed);
    const difference = parsed.units - state.units[index]!;
    if (parsed.scale === state.scales[index] && Math.abs(difference) <= maxDifference) segment.varint(zigzag(difference) * 2);
    else segment.literal(text);
    state.units[index] = parsed.units;
    state.scales[index] = parsed.scale;
  }

  function writeChange(state: SymbolState, tick: PriceTick) {
    const previous = state.tick;
    let mask = 0;
    for (let index = 0; index < priceIndex; index += 1) if (tick[valueFields[index]!] !== previous[valueFields[index]!]) mask |= 1 << index;
    const hasPrice = tick.price !== tick.bidPrice;
    if (hasPrice) mask |= 1 << priceIndex;
    segment.varint(zigzag(state.id - lastId - 1) + firstIdTag);
    lastId = state.id;
    writeMaskAndTime(mask, tick.lastUpdate);
    for (let index = 0; index < priceIndex; index += 1) if (mask & (1 << index)) writeValue(state, index, tick[valueFields[index]!]);
    if (hasPrice) writeValue(state, priceIndex, tick.price);
    else priceIsBid(state);
    state.tick = tick;
  }

  return {
    key,
    /** The publication's ticks as one body (empty for none), each against the symbol's previous tick in this source. */
    encode(ticks: readonly PriceTick[]): Uint8Array {
      for (let index = 0; index < ticks.length; index += 1) {
        const tick = ticks[index]!;
        if (index % ticksPerSegment === 0) startSegment(tick.lastUpdate);
        const known = sent.get(tick.symbol);
        if (known && sameSymbol(tick, known.tick)) {
          writeChange(known, tick);
        } else {
          const id = known?.id ?? nextId++;
          writeWhole(id, tick);
          sent.set(tick.symbol, symbolState(id, tick));
        }
      }
      endSegment();
      return body.take();
    },
    /**
     * Whole ticks for a new subscriber: the previous tick this source sent of each symbol of
     * `latest` (what its next change refers to), or, for a symbol it has not sent, the latest
     * tick with no id (its first tick in the source travels whole).
     */
    snapshot(latest: readonly PriceTick[]): Uint8Array {
      for (let index = 0; index < latest.length; index += 1) {
        const known = sent.get(latest[index]!.symbol);
        const tick = known?.tick ?? latest[index]!;
        if (index % ticksPerSegment === 0) startSegment(tick.lastUpdate);
        writeWhole(known?.id ?? null, tick);
      }
      endSegment();
      return body.take();
    },
  };
}

export type BinaryTickEncoder = ReturnType<typeof createBinaryTickEncoder>;

/** Several bodies as one: segments follow one another. */
export function joinBinaryTicks(bodies: readonly Uint8Array[]): Uint8Array {
  if (bodies.length === 1) return bodies[0]!;
  let length = 0;
  for (const body of bodies) length += body.length;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const body of bodies) {
    joined.set(body, at);
    at += body.length;
  }
  return joined;
}

/** The end of the segment starting at `at`; -1 when no segment starts there or it runs past the body. */
function segmentEnd(body: Uint8Array, at: number): number {
  if (body[at] !== segmentTag) return -1;
  let length = 0;
  let scale = 1;
  for (let index = at + 1; index < body.length && index < at + 9; index += 1) {
    const octet = body[index]!;
    length += (octet & 127) * scale;
    if (octet < 128) return index + 1 + length <= body.length ? index + 1 + length : -1;
    scale *= 128;
  }
  return -1;
}

/**
 * A body cut, between segments, into pieces of at most `maxBytes` where its segments allow
 * (a single longer segment stays whole); decoded in order, the pieces hold the body's ticks.
 * Views of `body`, not copies. Throws on a body that is not segments (the server's own encoding).
 */
export function splitBinaryTicks(body: Uint8Array, maxBytes: number): Uint8Array[] {
  if (body.length <= maxBytes) return [body];
  const pieces: Uint8Array[] = [];
  let start = 0;
  let at = 0;
  while (at < body.length) {
    const end = segmentEnd(body, at);
    if (end === -1) throw new RangeError(`not a segment at octet ${at}`);
    if (end - start > maxBytes && at > start) {
      pieces.push(body.subarray(start, at));
      start = at;
    }
    at = end;
  }
  pieces.push(body.subarray(start));
  return pieces;
}

/** What a body that is not of the form throws inside the decoder (caught there: `decode` answers null). */
const malformed = new Error();
const utf8Text = new TextDecoder();
const noOctets = new Uint8Array(0);

/** The seven decimals of a tick, in the order of the mask: what one side holds of them and how it reads them back. */
export const decimalCount = valueFields.length;

/**
 * A decimal's text from what the decoder keeps of it: its string where one came (whole
 * ticks, and values that do not write back from units), else its units and scale, formatted
 * only when something reads the value (most ticks are overwritten before any tab does).
 */
export function decimalText(texts: readonly (string | undefined)[], units: ArrayLike<number>, scales: ArrayLike<number>, index: number): string {
  return texts[index] ?? formatUnits(units[index]!, scales[index]!);
}

/** A tick from its decimals as `decimalText` reads them, from offset `at` of the arrays. */
export function tickOfDecimals(
  fields: { symbol: string; name: string; type: PriceTick['type']; lastUpdate: number },
  texts: readonly (string | undefined)[],
  units: ArrayLike<number>,
  scales: ArrayLike<number>,
  at = 0,
): PriceTick {
  const read = (index: number) => texts[at + index] ?? formatUnits(units[at + index]!, scales[at + index]!);
  const bidPrice = read(0);
  return {
    symbol: fields.symbol, name: fields.name, price: texts[at + priceIndex] === undefined && units[at + priceIndex] === units[at] && scales[at + priceIndex] === scales[at] ? bidPrice : read(priceIndex),
    bidPrice, askPrice: read(1), volume: read(2), lastUpdate: fields.lastUpdate, type: fields.type, priceChangePercent: read(3), low: read(4), high: read(5),
  };
}

/** The decoder's state of a symbol in a source. */
interface DecodedSymbol {
  symbol: string;
  name: string;
  type: PriceTick['type'];
  units: number[];
  scales: number[];
  /** A decimal's string where one came and still holds; undefined where it is its units. */
  texts: (string | undefined)[];
}

/**
 * The ticks of one body as the decoder read them, each kept as its symbol and decimals'
 * units (no tick object, no string) in slots that the decoder's next body overwrites: read
 * them (`tick`, or a store copying the decimals) before the next MESSAGE is decoded.
 * `indexes`: the slots this view holds, in order (all of them when null).
 */
export class DecodedTicks {
  constructor(
    readonly slots: DecodedSlots,
    readonly indexes: readonly number[] | null = null,
  ) {}

  get length(): number {
    return this.indexes ? this.indexes.length : this.slots.length;
  }

  /** The slot of the view's `index`-th tick. */
  slot(index: number): number {
    return this.indexes ? this.indexes[index]! : index;
  }

  symbol(index: number): string {
    return this.slots.entries[this.slot(index)]!.symbol;
  }

  /** The `index`-th tick as an object (its decimals formatted now). */
  tick(index: number): PriceTick {
    const slot = this.slot(index);
    const entry = this.slots.entries[slot]!;
    return tickOfDecimals({ symbol: entry.symbol, name: entry.name, type: entry.type, lastUpdate: this.slots.times[slot]! }, this.slots.texts, this.slots.units, this.slots.scales, slot * decimalCount);
  }

  /** Every tick as objects. */
  ticks(): PriceTick[] {
    return Array.from({ length: this.length }, (_, index) => this.tick(index));
  }
}

/** The decoder's slots: each record's symbol state, time and decimals at that record, reused from body to body. */
export class DecodedSlots {
  length = 0;
  entries: DecodedSymbol[] = [];
  times = new Float64Array(256);
  units = new Float64Array(256 * decimalCount);
  scales = new Float64Array(256 * decimalCount);
  texts: (string | undefined)[] = [];

  /** Appends a record's state (the symbol's decimals as they now are). */
  push(entry: DecodedSymbol, time: number) {
    const slot = this.length++;
    if (slot === this.times.length) {
      const times = new Float64Array(slot * 2);
      times.set(this.times);
      this.times = times;
      const units = new Float64Array(slot * 2 * decimalCount);
      units.set(this.units);
      this.units = units;
      const scales = new Float64Array(slot * 2 * decimalCount);
      scales.set(this.scales);
      this.scales = scales;
    }
    this.entries[slot] = entry;
    this.times[slot] = time;
    const at = slot * decimalCount;
    for (let index = 0; index < decimalCount; index += 1) {
      this.units[at + index] = entry.units[index]!;
      this.scales[at + index] = entry.scales[index]!;
      this.texts[at + index] = entry.texts[index];
    }
  }
}

/**
 * The decoder of one connection: it holds every source's state, so it reads that
 * connection's bodies in the order they came, and a new connection takes a new decoder.
 */
export function createBinaryTickDecoder() {
  const sources = new Map<string, (DecodedSymbol | undefined)[]>();
  const parsed: Units = { units: 0, scale: 0 };
  const slots = new DecodedSlots();
  const all = new DecodedTicks(slots);
  let bytes: Uint8Array = new Uint8Array(0);
  let at = 0;
  /** The end of the segment being read: nothing is read past it. */
  let limit = 0;

  function octet(): number {
    if (at >= limit) throw malformed;
    return bytes[at++]!;
  }

  function varint(): number {
    let value = 0;
    for (let scale = 1; scale < 2 ** 56; scale *= 128) {
      const next = octet();
      value += (next & 127) * scale;
      if (next < 128) return value;
    }
    throw malformed;
  }

  /** `length` octets as UTF-8 text, or as a decimal's string (checked to be one: -?digits(.digits)?). */
  function text(length: number, decimal = false): string {
    if (at + length > limit) throw malformed;
    const octets = bytes.subarray(at, (at += length));
    // Octets that are not UTF-8 read as U+FFFD: a corrupted name is no more to be told from a right one than a changed letter.
    const value = utf8Text.decode(octets);
    if (decimal && !decimalPattern.test(value)) throw malformed;
    return value;
  }

  /** Field `index`'s value: a string (always in a whole tick), or a difference from the symbol's previous one. */
  function value(state: DecodedSymbol, index: number, whole: boolean): void {
    const value = varint();
    if (value % 2 === 1) {
      const decimal = text((value - 1) / 2, true);
      unitsOf(decimal, parsed);
      state.units[index] = parsed.units;
      state.scales[index] = parsed.scale;
      state.texts[index] = decimal;
      return;
    }
    // A previous value that does not write back from units (NaN) takes no difference either.
    const units = state.units[index]! + unzigzag(value / 2);
    if (whole || !Number.isSafeInteger(units)) throw malformed;
    state.units[index] = units;
    state.texts[index] = undefined;
  }

  /** The previous record's id in the segment being read. */
  let lastId = -1;

  /** A record after its tag, against its source's `state`, into the next slot; answers its time (`time`: the previous record's). */
  function record(tag: number, state: (DecodedSymbol | undefined)[], time: number): number {
    const whole = tag === wholeTag;
    let entry: DecodedSymbol | undefined;
    if (whole) {
      const id = varint() - 1;
      const symbol = text(varint());
      const name = text(varint());
      const type = productTypes[octet() - 1];
      if (!type) throw malformed;
      entry = { symbol, name, type, units: [], scales: [], texts: [] };
      if (id >= 0) {
        state[id] = entry;
        lastId = id;
      }
    } else {
      lastId += 1 + unzigzag(tag - firstIdTag);
      entry = state[lastId];
    }
    if (!entry) throw malformed;
    const maskOctet = octet();
    const mask = maskOctet & ~sameTimeBit;
    if (whole && (mask & wholeMask) !== wholeMask) throw malformed;
    const lastUpdate = maskOctet & sameTimeBit ? time : time + unzigzag(varint());
    for (let index = 0; index < priceIndex; index += 1) if (mask & (1 << index)) value(entry, index, whole);
    if (mask & priceBit) value(entry, priceIndex, whole);
    else {
      priceIsBid(entry);
      entry.texts[priceIndex] = entry.texts[0];
    }
    slots.push(entry, lastUpdate);
    return lastUpdate;
  }

  /** A body's records into the slots; false when it is not of the form or refers to an id its source never gave. */
  function read(body: Uint8Array): boolean {
    slots.length = 0;
    bytes = body;
    at = 0;
    try {
      while (at < body.length) {
        limit = body.length;
        if (varint() !== segmentTag) return false;
        const length = varint();
        limit = at + length;
        if (limit > body.length) return false;
        let time = varint();
        lastId = -1;
        const key = text(varint());
        let state = sources.get(key);
        if (!state) sources.set(key, (state = []));
        // A segment's tag here (0) names no record: refused in `record`.
        while (at < limit) time = record(varint(), state, time);
      }
      return true;
    } catch (error) {
      if (error === malformed) return false;
      throw error;
    } finally {
      // The body is not held past its reading.
      bytes = noOctets;
    }
  }

  return {
    /**
     * A body's ticks, read into the decoder's slots (valid until its next body; nothing is
     * allocated a tick); null when it is not of the form or refers to an id its source never
     * gave (the slots then hold nothing to read: the caller subscribes afresh with a new decoder).
     */
    decodeInto(body: Uint8Array): DecodedTicks | null {
      if (read(body)) return all;
      slots.length = 0;
      return null;
    },
    /** A body's ticks as objects, in order; null as for `decodeInto`. */
    decode(body: Uint8Array): PriceTick[] | null {
      return read(body) ? all.ticks() : null;
    },
  };
}

export type BinaryTickDecoder = ReturnType<typeof createBinaryTickDecoder>;
