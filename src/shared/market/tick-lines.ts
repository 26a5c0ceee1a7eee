import { productTypes, type PriceTick } from '../api/market';

/**
 * The compact wire form of price ticks ("tick lines"), which the worker asks the market
 * endpoint for instead of the documented JSON bodies: one STOMP MESSAGE per publication
 * window carrying every followed tick in about a seventh of the JSON's octets. The browser's
 * STOMP client (@stomp/stompjs) reads every octet of a frame one by one, so the octets per
 * tick are what ingest costs. The server encodes, the worker decodes, here, and nowhere else.
 *
 * The form is stateful per source (one price topic's stream of publications): a symbol's
 * first tick in a source travels whole and gives it a short id; its later ticks travel as
 * that id and the fields that changed since its previous tick in that source. A body is
 * segments, each a header line then tick lines, separated by LF:
 *
 *   @<ms> TAB <source>     the base time of the lines after it, and the source whose state they use
 *   =<id> TAB <symbol> TAB <name> TAB <type 1-5> TAB <lastUpdate − base> TAB <bidPrice> TAB <askPrice>
 *     TAB <volume> TAB <priceChangePercent> TAB <low> TAB <high> [TAB <price>]
 *                          a whole tick (an empty id: a whole tick that later lines do not refer to)
 *   <id> TAB <lastUpdate − base> [TAB <bidPrice> [TAB <askPrice> [TAB <volume> [TAB <priceChangePercent>
 *     [TAB <low> [TAB <high> [TAB <price>]]]]]]]
 *                          a change: a field left empty or out is the symbol's previous value
 *
 * The price travels only where it is not the bid (left out, it is the bid). Decimals travel
 * as the contract's decimal strings, unquoted and exact. Ids are base-36 counters of the
 * source's encoder; a source's state lives as long as its encoder on the server and its
 * decoder on the connection (one per connection). The endpoint keeps the two in step: a
 * subscriber starts from the source's state (`snapshot`), and after dropping a MESSAGE for a
 * slow consumer it sends the states again before anything else (stomp-endpoint.ts).
 *
 * Bodies join by LF (`joinTickLines`), so a connection's batch is the concatenation of its
 * sources' bodies, encoded once per publication; a header line every `ticksPerBase` ticks
 * lets a big batch be cut into MESSAGEs of at most 16 KB (`splitTickLines`), each read in
 * order: the library's parser costs about twice as much per octet on frames of a hundred
 * kilobytes as on frames of a few.
 */

/**
 * The batch subscription's destination at the market endpoint. The worker subscribes to it,
 * then to each price topic (`/topic/prices`, `/topic/price/…`, `/topic/price-1s/…`) with the
 * header `batch:<the batch subscription's id>`: those topics' ticks then arrive, as tick lines,
 * in one MESSAGE of the batch subscription per publication. Only the market endpoint knows
 * it; at a broker (scale-out mode) the documented JSON topics are followed.
 */
export const tickLinesTopic = '/topic/ticks';
export const batchHeader = 'batch';

/** A body starts a new header line after this many ticks, where it may be cut. */
export const ticksPerBase = 32;
/**
 * The size of MESSAGE the endpoint cuts a batch to (in UTF-16 units, about octets for these
 * bodies): a 100 ms window of 500 symbols in one MESSAGE. Fewer, larger messages cost the
 * worker less (each WebSocket message has its cost), up to the parser's own limit below.
 */
export const tickLinesMessageChars = 16384;

const lineBreaks = /[\t\n\r]/g;
/** A header line or a whole line, matched where it starts (sticky), up to its end (made by each decoder: the worker, which reads binary ticks, loads this module for its names only). */
function linePattern() {
  const decimal = String.raw`-?\d+(?:\.\d+)?`;
  return new RegExp(
    String.raw`@(\d+)\t([0-9a-z]+)` +
      String.raw`|=([0-9a-z]*)\t([^\t\n]+)\t([^\t\n]*)\t([1-${productTypes.length}])\t(-?\d+)\t(${decimal})\t(${decimal})\t(${decimal})\t(${decimal})\t(${decimal})\t(${decimal})(?:\t(${decimal}))?(?=\n|$)`,
    'y',
  );
}

/** The changing fields of a tick, in the order a change line carries them (the price last: it travels only where it is not the bid). */
const changeFields = ['bidPrice', 'askPrice', 'volume', 'priceChangePercent', 'low', 'high'] as const;

function wholeLine(id: string, tick: PriceTick, base: number): string {
  const type = productTypes.indexOf(tick.type) + 1;
  const line = `=${id}\t${tick.symbol}\t${tick.name.replace(lineBreaks, ' ')}\t${type}\t${tick.lastUpdate - base}\t${tick.bidPrice}\t${tick.askPrice}\t${tick.volume}\t${tick.priceChangePercent}\t${tick.low}\t${tick.high}`;
  return tick.price === tick.bidPrice ? line : `${line}\t${tick.price}`;
}

function changeLine(id: string, tick: PriceTick, previous: PriceTick, base: number): string {
  let line = `${id}\t${tick.lastUpdate - base}`;
  // Empty fields are written only before one that changed; trailing unchanged ones are left out.
  let pending = '';
  for (const field of changeFields) {
    pending += '\t';
    if (tick[field] !== previous[field]) {
      line += pending + tick[field];
      pending = '';
    }
  }
  if (tick.price !== tick.bidPrice) line += `${pending}\t${tick.price}`;
  return line;
}

/** Whether a change line will do: the symbol's name and type are those of its previous tick. */
const sameSymbol = (tick: PriceTick, previous: PriceTick) => tick.name === previous.name && tick.type === previous.type;

/**
 * The encoder of one source (`key`: unique among the sources a connection can follow, and
 * new for every encoder of the same topic). `encode` is called once per publication, for
 * every subscriber alike; `snapshot` gives a new subscriber the state the next publication
 * refers to.
 */
export function createTickLinesEncoder(key: string) {
  const sent = new Map<string, { id: string; tick: PriceTick }>();
  let nextId = 0;
  const header = (base: number, first: boolean) => `${first ? '' : '\n'}@${base}\t${key}`;

  return {
    key,
    /** The publication's ticks as one body (empty for none), each against the symbol's previous tick in this source. */
    encode(ticks: readonly PriceTick[]): string {
      let body = '';
      let base = 0;
      for (let index = 0; index < ticks.length; index += 1) {
        const tick = ticks[index]!;
        if (index % ticksPerBase === 0) {
          base = tick.lastUpdate;
          body += header(base, index === 0);
        }
        const known = sent.get(tick.symbol);
        if (known && sameSymbol(tick, known.tick)) {
          body += `\n${changeLine(known.id, tick, known.tick, base)}`;
          known.tick = tick;
        } else {
          const id = known?.id ?? (nextId++).toString(36);
          body += `\n${wholeLine(id, tick, base)}`;
          sent.set(tick.symbol, { id, tick });
        }
      }
      return body;
    },
    /**
     * Whole lines for a new subscriber: the previous tick this source sent of each symbol of
     * `latest` (what its next change refers to), or, for a symbol it has not sent, the latest
     * tick with no id (its first tick in the source travels whole).
     */
    snapshot(latest: readonly PriceTick[]): string {
      let body = '';
      let base = 0;
      for (let index = 0; index < latest.length; index += 1) {
        const known = sent.get(latest[index]!.symbol);
        const tick = known?.tick ?? latest[index]!;
        if (index % ticksPerBase === 0) {
          base = tick.lastUpdate;
          body += header(base, index === 0);
        }
        body += `\n${wholeLine(known?.id ?? '', tick, base)}`;
      }
      return body;
    },
  };
}

export type TickLinesEncoder = ReturnType<typeof createTickLinesEncoder>;

/** Several bodies as one (the empty ones left out). */
export function joinTickLines(bodies: readonly string[]): string {
  let joined = '';
  for (const body of bodies) if (body !== '') joined = joined === '' ? body : `${joined}\n${body}`;
  return joined;
}

/**
 * A body cut, at header lines, into pieces of at most `maxChars` where its segments allow
 * (a single longer segment stays whole); decoded in order, the pieces hold the body's ticks.
 */
export function splitTickLines(body: string, maxChars: number): string[] {
  if (body.length <= maxChars) return [body];
  const pieces: string[] = [];
  let start = 0;
  /** The end of the last whole segment after `start` (the line break before a header line). */
  let cut = start;
  for (let next = body.indexOf('\n@'); ; next = body.indexOf('\n@', next + 1)) {
    const end = next === -1 ? body.length : next;
    if (end - start > maxChars && cut > start) {
      pieces.push(body.slice(start, cut));
      start = cut + 1;
    }
    if (next === -1) break;
    cut = next;
  }
  pieces.push(body.slice(start));
  return pieces;
}

const digit0 = 48;
const digit9 = 57;

/** Whether `text[from, to)` is a decimal of the contract (-?digits(.digits)?), read by hand: the worker reads every field of every tick. */
function isDecimal(text: string, from: number, to: number): boolean {
  let at = text.charCodeAt(from) === 45 /* - */ ? from + 1 : from;
  const digits = at;
  let code = text.charCodeAt(at);
  while (at < to && code >= digit0 && code <= digit9) code = text.charCodeAt(++at);
  if (at === digits) return false;
  if (at === to) return true;
  if (code !== 46 /* . */) return false;
  const fraction = ++at;
  code = text.charCodeAt(at);
  while (at < to && code >= digit0 && code <= digit9) code = text.charCodeAt(++at);
  return at === to && at > fraction;
}

/** Whether `text[from, to)` is an integer: -?digits */
function isInteger(text: string, from: number, to: number): boolean {
  let at = text.charCodeAt(from) === 45 /* - */ ? from + 1 : from;
  if (at === to) return false;
  for (; at < to; at += 1) {
    const code = text.charCodeAt(at);
    if (code < digit0 || code > digit9) return false;
  }
  return true;
}

/** The end of the field starting at `from` on a line ending at `lineEnd`: the next tab, or the line's end. */
function fieldEnd(text: string, from: number, lineEnd: number): number {
  const tab = text.indexOf('\t', from);
  return tab === -1 || tab > lineEnd ? lineEnd : tab;
}

/**
 * The decoder of one connection: it holds every source's state, so it reads that
 * connection's bodies in the order they came, and a new connection takes a new decoder.
 * Change lines, nearly all of them, are read by hand; header and whole lines by a pattern.
 */
export function createTickLinesDecoder() {
  const sources = new Map<string, Map<string, PriceTick>>();
  const lines = linePattern();
  /** A change line's seven fields after its time (undefined: empty or left out). */
  const changes: (string | undefined)[] = [];

  /** Reads the change line `body[from, lineEnd)` against its source's state; null when it is not of the form. */
  function changeTick(body: string, from: number, lineEnd: number, state: Map<string, PriceTick>, base: number): PriceTick | null {
    const idEnd = fieldEnd(body, from, lineEnd);
    if (idEnd === lineEnd) return null;
    const id = body.slice(from, idEnd);
    const previous = state.get(id);
    if (!previous) return null;
    const timeEnd = fieldEnd(body, idEnd + 1, lineEnd);
    if (!isInteger(body, idEnd + 1, timeEnd)) return null;
    const time = Number(body.slice(idEnd + 1, timeEnd));
    let at = timeEnd;
    for (let index = 0; index < 7; index += 1) {
      if (at >= lineEnd) {
        changes[index] = undefined;
        continue;
      }
      const start = at + 1;
      const end = fieldEnd(body, start, lineEnd);
      if (end === start) changes[index] = undefined;
      else if (isDecimal(body, start, end)) changes[index] = body.slice(start, end);
      else return null;
      at = end;
    }
    if (at < lineEnd) return null;
    const bidPrice = changes[0] ?? previous.bidPrice;
    const tick: PriceTick = {
      symbol: previous.symbol, name: previous.name, price: changes[6] ?? bidPrice, bidPrice, askPrice: changes[1] ?? previous.askPrice,
      volume: changes[2] ?? previous.volume, lastUpdate: base + time, type: previous.type,
      priceChangePercent: changes[3] ?? previous.priceChangePercent, low: changes[4] ?? previous.low, high: changes[5] ?? previous.high,
    };
    state.set(id, tick);
    return tick;
  }

  return {
    /** A body's ticks, in order; null when any line is not of the form or refers to an id its source never gave. */
    decode(body: string): PriceTick[] | null {
      const ticks: PriceTick[] = [];
      if (body === '') return ticks;
      let state: Map<string, PriceTick> | null = null;
      let base = 0;
      let from = 0;
      while (from < body.length) {
        let lineEnd = body.indexOf('\n', from);
        if (lineEnd === -1) lineEnd = body.length;
        const first = body.charCodeAt(from);
        if (first === 64 /* @ */ || first === 61 /* = */) {
          lines.lastIndex = from;
          const match = lines.exec(body);
          if (!match || match.index + match[0].length !== lineEnd) return null;
          if (match[1] !== undefined) {
            base = Number(match[1]);
            const key = match[2]!;
            state = sources.get(key) ?? null;
            if (!state) sources.set(key, (state = new Map()));
          } else {
            if (!state) return null;
            const bidPrice = match[8]!;
            const tick: PriceTick = {
              symbol: match[4]!, name: match[5]!, price: match[14] ?? bidPrice, bidPrice, askPrice: match[9]!, volume: match[10]!,
              lastUpdate: base + Number(match[7]), type: productTypes[Number(match[6]) - 1]!, priceChangePercent: match[11]!, low: match[12]!, high: match[13]!,
            };
            if (match[3] !== '') state.set(match[3]!, tick);
            ticks.push(tick);
          }
        } else {
          const tick = state ? changeTick(body, from, lineEnd, state, base) : null;
          if (!tick) return null;
          ticks.push(tick);
        }
        from = lineEnd + 1;
        // A body ending in a line break has an empty last line: not a tick, and not the form.
        if (from === body.length) return null;
      }
      return ticks;
    },
  };
}

export type TickLinesDecoder = ReturnType<typeof createTickLinesDecoder>;
