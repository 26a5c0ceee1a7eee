/**
 * STOMP 1.2 frame codec of the market endpoint: pure functions, no I/O (the browser's
 * client is @stomp/stompjs; the server has no well-kept STOMP server library to use).
 *
 * A frame is `COMMAND EOL *(header EOL) EOL body NUL *(EOL)` where EOL is LF or CR LF.
 * Bare EOLs between frames are heart-beats. Header names and values are escaped
 * (\r \n \c \\) on every frame except CONNECT and CONNECTED, which stay verbatim for
 * STOMP 1.0 peers. Bad input yields a typed error, never an exception.
 *
 * Input comes in two shapes with the same rules and the same answers (error codes and
 * octet offsets included): octets (what a server reads off a socket; checked to be
 * UTF-8) and text (a WebSocket text message, already decoded by the socket: what the
 * tests' servers read of a client). Text is sliced, never encoded or decoded as a whole,
 * and limits and content-length are counted in UTF-8 octets without building the encoding.
 */

export const CLIENT_COMMANDS = [
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
] as const;
export const SERVER_COMMANDS = ['CONNECTED', 'MESSAGE', 'RECEIPT', 'ERROR'] as const;

export type ClientCommand = (typeof CLIENT_COMMANDS)[number];
export type ServerCommand = (typeof SERVER_COMMANDS)[number];
export type StompCommand = ClientCommand | ServerCommand;

/** Parsed headers: the first occurrence of a repeated header wins (STOMP 1.2). */
export type StompHeaders = Readonly<Record<string, string>>;

export interface StompFrame {
  command: StompCommand;
  headers: StompHeaders;
  body: string;
}

export interface OutgoingFrame {
  command: StompCommand;
  headers: StompHeaders;
  /** When given, a content-length header (UTF-8 octets) is added for it. */
  body?: string;
}

/** What a peer sends when it has nothing else to say. */
export const HEARTBEAT = '\n';

export interface FrameLimits {
  /** Octets from the first letter of the command to the NUL, inclusive. */
  maxFrameBytes: number;
  maxHeaders: number;
  /** Octets of one header line (or the command line), without its EOL. */
  maxHeaderBytes: number;
}

// Market clients send only small control frames; 64 KiB leaves room for long tokens
// in CONNECT while keeping a hostile peer from making us buffer much.
export const MAX_FRAME_BYTES = 64 * 1024;
export const MAX_HEADERS = 32;
export const MAX_HEADER_BYTES = 8 * 1024;

export const DEFAULT_FRAME_LIMITS: Readonly<FrameLimits> = {
  maxFrameBytes: MAX_FRAME_BYTES,
  maxHeaders: MAX_HEADERS,
  maxHeaderBytes: MAX_HEADER_BYTES,
};

export type FrameErrorCode =
  | 'incomplete-frame'
  | 'unknown-command'
  | 'malformed-header'
  | 'invalid-escape'
  | 'invalid-encoding'
  | 'too-many-headers'
  | 'header-too-long'
  | 'frame-too-large'
  | 'invalid-content-length'
  | 'missing-nul';

export interface FrameError {
  code: FrameErrorCode;
  /** Short, safe to send back in an ERROR frame. */
  message: string;
  /** Octet offset in the input where the problem was found. */
  offset: number;
}

export type ParsedItem = { kind: 'frame'; frame: StompFrame } | { kind: 'heartbeat' };

/**
 * `next` is where the following item starts, in the input's own units: octets for a
 * Uint8Array, UTF-16 code units for a string. Error offsets are always octets.
 */
export type ParseOneResult = { ok: true; item: ParsedItem; next: number } | { ok: false; error: FrameError };

export type ParseResult = { ok: true; items: ParsedItem[] } | { ok: false; error: FrameError };

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
const COLON = 0x3a;

const knownCommands: ReadonlySet<string> = new Set<string>([...CLIENT_COMMANDS, ...SERVER_COMMANDS]);

/** Any character outside ASCII: a native scan, much cheaper than a charCodeAt loop. */
const NON_ASCII = /[\u0080-\uffff]/;
/** Code units per String.fromCharCode call, well below engines' argument limits. */
const DECODE_CHUNK = 4096;

function failure(code: FrameErrorCode, message: string, offset: number): { ok: false; error: FrameError } {
  return { ok: false, error: { code, message, offset } };
}

function isVerbatim(command: string): boolean {
  return command === 'CONNECT' || command === 'CONNECTED';
}

/**
 * Decodes `bytes[start, end)` as UTF-8, or null when they are not UTF-8 (overlong forms,
 * surrogates, code points above U+10FFFF, stray or missing continuation bytes): a bad
 * header or body is an error, never replacement characters. A leading byte-order mark
 * is kept as U+FEFF, like any other character.
 */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string | null {
  let text = '';
  const units: number[] = [];
  let index = start;
  while (index < end) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      let runEnd = index + 1;
      while (runEnd < end && (bytes[runEnd] as number) < 0x80) runEnd += 1;
      if (units.length > 0) {
        text += String.fromCharCode(...units);
        units.length = 0;
      }
      for (let chunk = index; chunk < runEnd; chunk += DECODE_CHUNK) {
        text += String.fromCharCode(...bytes.subarray(chunk, Math.min(runEnd, chunk + DECODE_CHUNK)));
      }
      index = runEnd;
      continue;
    }
    // The WHATWG decoder's table: each lead byte allows its own range for the first
    // continuation byte, which rules out overlong forms, surrogates and > U+10FFFF.
    let needed: number;
    let codePoint: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      needed = 1;
      codePoint = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      needed = 2;
      codePoint = lead & 0x0f;
      if (lead === 0xe0) lower = 0xa0;
      else if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      needed = 3;
      codePoint = lead & 0x07;
      if (lead === 0xf0) lower = 0x90;
      else if (lead === 0xf4) upper = 0x8f;
    } else {
      return null;
    }
    if (index + needed >= end) return null;
    for (let offset = 1; offset <= needed; offset += 1) {
      const continuation = bytes[index + offset] as number;
      if (continuation < lower || continuation > upper) return null;
      lower = 0x80;
      upper = 0xbf;
      codePoint = (codePoint << 6) | (continuation & 0x3f);
    }
    index += needed + 1;
    if (codePoint >= 0x10000) {
      codePoint -= 0x10000;
      units.push(0xd800 + (codePoint >> 10), 0xdc00 + (codePoint & 0x3ff));
    } else {
      units.push(codePoint);
    }
    if (units.length >= DECODE_CHUNK) {
      text += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return units.length > 0 ? text + String.fromCharCode(...units) : text;
}

export function escapeHeader(text: string): string {
  return text.replace(/[\\\r\n:]/g, (character) => {
    switch (character) {
      case '\\':
        return '\\\\';
      case '\r':
        return '\\r';
      case '\n':
        return '\\n';
      default:
        return '\\c';
    }
  });
}

/** Undoes {@link escapeHeader}; null for an escape STOMP 1.2 does not define (a fatal error). */
export function unescapeHeader(text: string): string | null {
  if (!text.includes('\\')) return text;
  let result = '';
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character !== '\\') {
      result += character;
      continue;
    }
    index += 1;
    switch (text[index]) {
      case 'r':
        result += '\r';
        break;
      case 'n':
        result += '\n';
        break;
      case 'c':
        result += ':';
        break;
      case '\\':
        result += '\\';
        break;
      default:
        return null;
    }
  }
  return result;
}

/**
 * Octets of `text[start, end)` in UTF-8, without allocating the encoding (bodies can be
 * large). A lone surrogate counts 3, as an encoder writes U+FFFD for it.
 */
export function utf8ByteLength(text: string, start = 0, end = text.length): number {
  let length = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < end) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 4;
        index += 1;
      } else length += 3;
    } else length += 3;
  }
  return length;
}

/**
 * Finds the line starting at `start`: the index of its LF and where its content ends
 * (before an optional CR). Says why when there is no LF within `maxLength` content
 * octets ('too-long') or before the end of input ('incomplete').
 */
function findLine(input: Uint8Array, start: number, maxLength: number): { contentEnd: number; lf: number } | 'too-long' | 'incomplete' {
  // +1 allows for the CR of a CR LF line ending.
  const searchEnd = Math.min(input.length, start + maxLength + 2);
  const relative = input.subarray(start, searchEnd).indexOf(LF);
  if (relative < 0) return searchEnd < input.length ? 'too-long' : 'incomplete';
  const lf = start + relative;
  const contentEnd = lf > start && input[lf - 1] === CR ? lf - 1 : lf;
  if (contentEnd - start > maxLength) return 'too-long';
  return { contentEnd, lf };
}

/**
 * Parses one frame, or one heart-beat EOL, at `offset` (octets for a Uint8Array, code
 * units for a string; see {@link ParseOneResult}).
 */
export function parseFrame(input: Uint8Array | string, offset = 0, limits: Readonly<FrameLimits> = DEFAULT_FRAME_LIMITS): ParseOneResult {
  return typeof input === 'string' ? parseTextFrame(input, offset, limits) : parseOctetFrame(input, offset, limits);
}

function parseOctetFrame(input: Uint8Array, offset: number, limits: Readonly<FrameLimits>): ParseOneResult {
  if (offset >= input.length) return failure('incomplete-frame', 'no frame at this offset', offset);
  if (input[offset] === LF) return { ok: true, item: { kind: 'heartbeat' }, next: offset + 1 };
  if (input[offset] === CR && input[offset + 1] === LF) return { ok: true, item: { kind: 'heartbeat' }, next: offset + 2 };

  const frameStart = offset;
  const frameLimit = frameStart + limits.maxFrameBytes;
  const lineFailure = (result: 'too-long' | 'incomplete', position: number) =>
    position >= frameLimit
      ? failure('frame-too-large', `frame exceeds ${limits.maxFrameBytes} octets`, frameStart)
      : result === 'too-long'
        ? failure('header-too-long', `header line exceeds ${limits.maxHeaderBytes} octets`, position)
        : failure('incomplete-frame', 'frame ends before its headers do', position);

  const commandLine = findLine(input, offset, limits.maxHeaderBytes);
  if (typeof commandLine === 'string') return lineFailure(commandLine, offset);
  const command = decodeUtf8(input, offset, commandLine.contentEnd);
  if (command === null || !knownCommands.has(command)) {
    return failure('unknown-command', 'unknown command', offset);
  }
  const verbatim = isVerbatim(command);
  offset = commandLine.lf + 1;

  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  let headerCount = 0;
  for (;;) {
    if (offset >= frameLimit) return failure('frame-too-large', `frame exceeds ${limits.maxFrameBytes} octets`, frameStart);
    const line = findLine(input, offset, limits.maxHeaderBytes);
    if (typeof line === 'string') return lineFailure(line, offset);
    if (line.lf >= frameLimit) return failure('frame-too-large', `frame exceeds ${limits.maxFrameBytes} octets`, frameStart);
    const lineStart = offset;
    offset = line.lf + 1;
    if (line.contentEnd === lineStart) break; // the blank line before the body
    headerCount += 1;
    if (headerCount > limits.maxHeaders) {
      return failure('too-many-headers', `more than ${limits.maxHeaders} headers`, lineStart);
    }
    const colon = input.subarray(lineStart, line.contentEnd).indexOf(COLON);
    if (colon <= 0) return failure('malformed-header', 'header without a name and colon', lineStart);
    const rawName = decodeUtf8(input, lineStart, lineStart + colon);
    const rawValue = decodeUtf8(input, lineStart + colon + 1, line.contentEnd);
    if (rawName === null || rawValue === null) return failure('invalid-encoding', 'header is not UTF-8', lineStart);
    const name = verbatim ? rawName : unescapeHeader(rawName);
    const value = verbatim ? rawValue : unescapeHeader(rawValue);
    if (name === null || value === null) return failure('invalid-escape', 'undefined escape sequence in header', lineStart);
    if (!Object.hasOwn(headers, name)) headers[name] = value;
  }

  const bodyStart = offset;
  let bodyEnd: number;
  const declaredLength = headers['content-length'];
  if (declaredLength !== undefined) {
    if (!/^\d{1,10}$/.test(declaredLength)) {
      return failure('invalid-content-length', 'content-length is not a number of octets', bodyStart);
    }
    bodyEnd = bodyStart + Number(declaredLength);
    if (bodyEnd >= frameLimit) return failure('frame-too-large', `frame exceeds ${limits.maxFrameBytes} octets`, frameStart);
    if (bodyEnd >= input.length) return failure('incomplete-frame', 'frame ends before its body does', bodyStart);
    if (input[bodyEnd] !== NUL) return failure('missing-nul', 'body is not followed by NUL at content-length', bodyEnd);
  } else {
    const searchEnd = Math.min(input.length, frameLimit);
    const relative = input.subarray(bodyStart, searchEnd).indexOf(NUL);
    if (relative < 0) {
      return searchEnd < input.length
        ? failure('frame-too-large', `frame exceeds ${limits.maxFrameBytes} octets`, frameStart)
        : failure('incomplete-frame', 'frame has no terminating NUL', bodyStart);
    }
    bodyEnd = bodyStart + relative;
  }
  const body = decodeUtf8(input, bodyStart, bodyEnd);
  if (body === null) return failure('invalid-encoding', 'body is not UTF-8', bodyStart);

  return {
    ok: true,
    item: { kind: 'frame', frame: { command: command as StompCommand, headers, body } },
    next: bodyEnd + 1,
  };
}

/**
 * Finds the line starting at `start` in text, like {@link findLine} does in octets: the
 * same answers, with the line's octets (content, CR, LF) for the frame-size count.
 */
function findTextLine(
  text: string,
  start: number,
  maxLength: number,
): { contentEnd: number; lf: number; octets: number } | 'too-long' | 'incomplete' {
  // Every code unit is at least one octet, so this window covers the octet parser's.
  const searchEnd = Math.min(text.length, start + maxLength + 2);
  const lf = text.indexOf('\n', start);
  if (lf < 0 || lf >= searchEnd) {
    if (searchEnd < text.length) return 'too-long';
    return utf8ByteLength(text, start) > maxLength + 2 ? 'too-long' : 'incomplete';
  }
  const contentEnd = lf > start && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
  const contentOctets = utf8ByteLength(text, start, contentEnd);
  if (contentOctets > maxLength) return 'too-long';
  return { contentEnd, lf, octets: contentOctets + (lf - contentEnd) + 1 };
}

/**
 * {@link parseOctetFrame} over text. `used` counts the octets of the frame before
 * `offset`, so each size check is the octet parser's, and error offsets are converted
 * to octets (only on the way out: errors are rare, frames are not).
 */
function parseTextFrame(text: string, offset: number, limits: Readonly<FrameLimits>): ParseOneResult {
  const octetsBefore = (index: number) => utf8ByteLength(text, 0, index);
  if (offset >= text.length) return failure('incomplete-frame', 'no frame at this offset', octetsBefore(offset));
  const first = text.charCodeAt(offset);
  if (first === LF) return { ok: true, item: { kind: 'heartbeat' }, next: offset + 1 };
  if (first === CR && text.charCodeAt(offset + 1) === LF) return { ok: true, item: { kind: 'heartbeat' }, next: offset + 2 };

  const frameStart = offset;
  const maxFrameBytes = limits.maxFrameBytes;
  const tooLarge = () => failure('frame-too-large', `frame exceeds ${maxFrameBytes} octets`, octetsBefore(frameStart));
  const lineFailure = (result: 'too-long' | 'incomplete', position: number, positionUsed: number) =>
    positionUsed >= maxFrameBytes
      ? tooLarge()
      : result === 'too-long'
        ? failure('header-too-long', `header line exceeds ${limits.maxHeaderBytes} octets`, octetsBefore(position))
        : failure('incomplete-frame', 'frame ends before its headers do', octetsBefore(position));
  let used = 0;

  const commandLine = findTextLine(text, offset, limits.maxHeaderBytes);
  if (typeof commandLine === 'string') return lineFailure(commandLine, offset, used);
  const command = text.slice(offset, commandLine.contentEnd);
  if (!knownCommands.has(command)) return failure('unknown-command', 'unknown command', octetsBefore(offset));
  const verbatim = isVerbatim(command);
  offset = commandLine.lf + 1;
  used += commandLine.octets;

  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  let headerCount = 0;
  for (;;) {
    if (used >= maxFrameBytes) return tooLarge();
    const line = findTextLine(text, offset, limits.maxHeaderBytes);
    if (typeof line === 'string') return lineFailure(line, offset, used);
    if (used + line.octets - 1 >= maxFrameBytes) return tooLarge(); // the LF is past the limit
    const lineStart = offset;
    offset = line.lf + 1;
    used += line.octets;
    if (line.contentEnd === lineStart) break; // the blank line before the body
    headerCount += 1;
    if (headerCount > limits.maxHeaders) {
      return failure('too-many-headers', `more than ${limits.maxHeaders} headers`, octetsBefore(lineStart));
    }
    const colon = text.indexOf(':', lineStart);
    if (colon <= lineStart || colon >= line.contentEnd) {
      return failure('malformed-header', 'header without a name and colon', octetsBefore(lineStart));
    }
    const rawName = text.slice(lineStart, colon);
    const rawValue = text.slice(colon + 1, line.contentEnd);
    const name = verbatim ? rawName : unescapeHeader(rawName);
    const value = verbatim ? rawValue : unescapeHeader(rawValue);
    if (name === null || value === null) {
      return failure('invalid-escape', 'undefined escape sequence in header', octetsBefore(lineStart));
    }
    if (!Object.hasOwn(headers, name)) headers[name] = value;
  }

  const bodyStart = offset;
  let bodyEnd: number;
  let body: string | null = null;
  const declaredLength = headers['content-length'];
  if (declaredLength !== undefined) {
    if (!/^\d{1,10}$/.test(declaredLength)) {
      return failure('invalid-content-length', 'content-length is not a number of octets', octetsBefore(bodyStart));
    }
    const size = Number(declaredLength);
    if (used + size >= maxFrameBytes) return tooLarge();
    bodyEnd = bodyStart + size;
    // The usual case, without counting: an ASCII body of `size` characters, then NUL.
    if (text.charCodeAt(bodyEnd) === NUL) {
      body = text.slice(bodyStart, bodyEnd);
      if (NON_ASCII.test(body)) body = null;
    }
    if (body === null) {
      // Walk `size` octets of UTF-8 from the body's start.
      let octets = 0;
      let index = bodyStart;
      while (octets < size && index < text.length) {
        const code = text.charCodeAt(index);
        index += 1;
        if (code < 0x80) octets += 1;
        else if (code < 0x800) octets += 2;
        else if (code >= 0xd800 && code <= 0xdbff && index < text.length) {
          const next = text.charCodeAt(index);
          if (next >= 0xdc00 && next <= 0xdfff) {
            octets += 4;
            index += 1;
          } else octets += 3;
        } else octets += 3;
      }
      if (octets < size || (octets === size && index >= text.length)) {
        return failure('incomplete-frame', 'frame ends before its body does', octetsBefore(bodyStart));
      }
      // More octets than asked: the count ends inside a character, not at a NUL.
      if (octets > size || text.charCodeAt(index) !== NUL) {
        return failure('missing-nul', 'body is not followed by NUL at content-length', octetsBefore(bodyStart) + size);
      }
      bodyEnd = index;
      body = text.slice(bodyStart, bodyEnd);
    }
  } else {
    const nul = text.indexOf('\0', bodyStart);
    if (nul < 0) {
      return used + utf8ByteLength(text, bodyStart) > maxFrameBytes
        ? tooLarge()
        : failure('incomplete-frame', 'frame has no terminating NUL', octetsBefore(bodyStart));
    }
    // At most 3 octets per code unit: count only when the bound does not settle it.
    if (used + (nul - bodyStart) * 3 >= maxFrameBytes && used + utf8ByteLength(text, bodyStart, nul) >= maxFrameBytes) {
      return tooLarge();
    }
    bodyEnd = nul;
    body = text.slice(bodyStart, bodyEnd);
  }

  return {
    ok: true,
    item: { kind: 'frame', frame: { command: command as StompCommand, headers, body } },
    next: bodyEnd + 1,
  };
}

/**
 * Parses a whole WebSocket message: any number of frames and heart-beat EOLs. Frames
 * may not span messages (STOMP over WebSocket clients send whole frames), so a frame
 * cut short is an error. On error nothing of the message is returned. A text message
 * (the browser's usual case) is parsed as text, without encoding it.
 */
export function parseMessage(message: string | Uint8Array, limits: Readonly<FrameLimits> = DEFAULT_FRAME_LIMITS): ParseResult {
  const items: ParsedItem[] = [];
  let offset = 0;
  while (offset < message.length) {
    const result = typeof message === 'string' ? parseTextFrame(message, offset, limits) : parseOctetFrame(message, offset, limits);
    if (!result.ok) return result;
    items.push(result.item);
    offset = result.next;
  }
  return { ok: true, items };
}

/**
 * Writes a frame as text. content-length is computed from the body, never trusted from
 * `headers`. CONNECT and CONNECTED headers are written verbatim, so they cannot carry
 * an EOL (or a colon in a name): that is a programming error and throws.
 */
export function serializeFrame(frame: OutgoingFrame): string {
  const head = frameHead(frame);
  if (frame.body === undefined) return `${head}\n\0`;
  return `${head}content-length:${utf8ByteLength(frame.body)}\n\n${frame.body}\0`;
}

/**
 * Writes a frame with a binary body (its octets as they are, NUL octets included): the
 * content-length header tells the reader where the body ends.
 */
export function serializeBinaryFrame(frame: Omit<OutgoingFrame, 'body'>, body: Uint8Array): Buffer {
  const head = Buffer.from(`${frameHead(frame)}content-length:${body.length}\n\n`, 'utf8');
  const octets = Buffer.allocUnsafe(head.length + body.length + 1);
  head.copy(octets, 0);
  octets.set(body, head.length);
  octets[octets.length - 1] = 0;
  return octets;
}

/** The command line and the headers, each line ended (content-length left out: the writers add it). */
function frameHead(frame: Omit<OutgoingFrame, 'body'>): string {
  const verbatim = isVerbatim(frame.command);
  let text = frame.command + '\n';
  for (const [name, value] of Object.entries(frame.headers)) {
    if (name === 'content-length') continue;
    if (verbatim) {
      if (/[\r\n:]/.test(name) || /[\r\n]/.test(value)) {
        throw new RangeError(`${frame.command} header ${JSON.stringify(name)} cannot be written without escaping`);
      }
      text += `${name}:${value}\n`;
    } else {
      text += `${escapeHeader(name)}:${escapeHeader(value)}\n`;
    }
  }
  return text;
}
