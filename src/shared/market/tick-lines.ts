import { productTypes, type PriceTick } from '../api/market';

/**
 * The compact wire form of price ticks ("tick lines"), which the worker asks the market
 * endpoint for instead of the documented JSON bodies: one STOMP MESSAGE per publication
 * window carrying every followed tick at about a third of the JSON's octets. The browser's
 * STOMP client (@stomp/stompjs) reads every octet of a frame one by one, so the octets per
 * tick are what ingest costs. The server encodes, the worker decodes, here, and nowhere else.
 *
 * A body is lines separated by LF:
 *
 *   @<ms>                  the base time of the tick lines after it (0 before the first)
 *   <symbol> TAB <name> TAB <type 1-5> TAB <bidPrice> TAB <askPrice> TAB <price, empty when it is the bid>
 *     TAB <volume> TAB <lastUpdate − base> TAB <priceChangePercent> TAB <low> TAB <high>
 *
 * Bodies join by LF (`joinTickLines`), so a connection's batch is the concatenation of its
 * topics' bodies, encoded once per publication; a base line every `ticksPerBase` ticks lets a
 * big batch be cut into MESSAGEs of a few kilobytes (`splitTickLines`), each readable alone:
 * the library's parser costs about twice as much per octet on frames of a hundred kilobytes as
 * on frames of a few. Decimals travel as the contract's decimal strings, unquoted and exact.
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

/** A body starts a new base line after this many ticks, where it may be cut. */
export const ticksPerBase = 32;
/** The size of MESSAGE the endpoint cuts a batch to (in UTF-16 units, about octets for these bodies). */
export const tickLinesMessageChars = 4096;

const lineBreaks = /[\t\n\r]/g;
const decimal = String.raw`-?\d+(?:\.\d+)?`;
/** One line of a body at a time, from where the last ended (sticky): a base line or a tick line. */
const linePattern = new RegExp(
  String.raw`(?:@(\d+)|([^\t\n@][^\t\n]*)\t([^\t\n]*)\t([1-5])\t(${decimal})\t(${decimal})\t(${decimal})?\t(${decimal})\t(-?\d+)\t(${decimal})\t(${decimal})\t(${decimal}))(?:\n|$)`,
  'y',
);

/** Ticks as one body (empty for none); a tab or line break in a name travels as a space. */
export function encodeTickLines(ticks: readonly PriceTick[]): string {
  let body = '';
  let base = 0;
  for (let index = 0; index < ticks.length; index += 1) {
    const tick = ticks[index]!;
    if (index % ticksPerBase === 0) {
      base = tick.lastUpdate;
      body += index === 0 ? `@${base}` : `\n@${base}`;
    }
    const price = tick.price === tick.bidPrice ? '' : tick.price;
    const type = productTypes.indexOf(tick.type) + 1;
    body += `\n${tick.symbol}\t${tick.name.replace(lineBreaks, ' ')}\t${type}\t${tick.bidPrice}\t${tick.askPrice}\t${price}\t${tick.volume}\t${tick.lastUpdate - base}\t${tick.priceChangePercent}\t${tick.low}\t${tick.high}`;
  }
  return body;
}

/** Several bodies as one (the empty ones left out). */
export function joinTickLines(bodies: readonly string[]): string {
  let joined = '';
  for (const body of bodies) if (body !== '') joined = joined === '' ? body : `${joined}\n${body}`;
  return joined;
}

/**
 * A body cut, at base lines, into pieces of at most `maxChars` where its segments allow
 * (a single longer segment stays whole); each piece decodes alone, and in order they hold the body's ticks.
 */
export function splitTickLines(body: string, maxChars: number): string[] {
  if (body.length <= maxChars) return [body];
  const pieces: string[] = [];
  let start = 0;
  /** The end of the last whole segment after `start` (the line break before a base line). */
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

/** A body's ticks, in order; null when any line is not of the form. */
export function decodeTickLines(body: string): PriceTick[] | null {
  const ticks: PriceTick[] = [];
  if (body === '') return ticks;
  let base = 0;
  linePattern.lastIndex = 0;
  while (linePattern.lastIndex < body.length) {
    const match = linePattern.exec(body);
    if (!match) return null;
    if (match[1] !== undefined) {
      base = Number(match[1]);
      continue;
    }
    const bidPrice = match[5]!;
    ticks.push({
      symbol: match[2]!,
      name: match[3]!,
      price: match[7] ?? bidPrice,
      bidPrice,
      askPrice: match[6]!,
      volume: match[8]!,
      lastUpdate: base + Number(match[9]),
      type: productTypes[Number(match[4]) - 1]!,
      priceChangePercent: match[10]!,
      low: match[11]!,
      high: match[12]!,
    });
    // A body ending in a line break has an empty last line: not a tick, and not the form.
    if (linePattern.lastIndex === body.length && body.endsWith('\n')) return null;
  }
  return ticks;
}
