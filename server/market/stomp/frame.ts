/**
 * STOMP 1.2 frame codec: pure functions, no I/O.
 *
 * A frame is `COMMAND EOL *(header EOL) EOL body NUL *(EOL)` where EOL is LF or CR LF.
 * Bare EOLs between frames are heart-beats. Header names and values are escaped
 * (\r \n \c \\) on every frame except CONNECT and CONNECTED, which stay verbatim for
 * STOMP 1.0 peers. Bad input yields a typed error, never an exception.
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

export type ParseOneResult = { ok: true; item: ParsedItem; next: number } | { ok: false; error: FrameError };

export type ParseResult = { ok: true; items: ParsedItem[] } | { ok: false; error: FrameError };

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
const COLON = 0x3a;

const knownCommands: ReadonlySet<string> = new Set<string>([...CLIENT_COMMANDS, ...SERVER_COMMANDS]);

// Fatal: a header or body that is not UTF-8 is an error, not replacement characters.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

function failure(code: FrameErrorCode, message: string, offset: number): { ok: false; error: FrameError } {
  return { ok: false, error: { code, message, offset } };
}

function isVerbatim(command: string): boolean {
  return command === 'CONNECT' || command === 'CONNECTED';
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return null;
  }
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

/** Octets of `text` in UTF-8, without allocating the encoding (bodies can be large). */
export function utf8ByteLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
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

/** Parses one frame, or one heart-beat EOL, at `offset`. */
export function parseFrame(input: Uint8Array, offset = 0, limits: Readonly<FrameLimits> = DEFAULT_FRAME_LIMITS): ParseOneResult {
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
  const command = decodeUtf8(input.subarray(offset, commandLine.contentEnd));
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
    const lineBytes = input.subarray(lineStart, line.contentEnd);
    const colon = lineBytes.indexOf(COLON);
    if (colon <= 0) return failure('malformed-header', 'header without a name and colon', lineStart);
    const rawName = decodeUtf8(lineBytes.subarray(0, colon));
    const rawValue = decodeUtf8(lineBytes.subarray(colon + 1));
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
  const body = decodeUtf8(input.subarray(bodyStart, bodyEnd));
  if (body === null) return failure('invalid-encoding', 'body is not UTF-8', bodyStart);

  return {
    ok: true,
    item: { kind: 'frame', frame: { command: command as StompCommand, headers, body } },
    next: bodyEnd + 1,
  };
}

/**
 * Parses a whole WebSocket message: any number of frames and heart-beat EOLs. Frames
 * may not span messages (STOMP over WebSocket clients send whole frames), so a frame
 * cut short is an error. On error nothing of the message is returned.
 */
export function parseMessage(message: string | Uint8Array, limits: Readonly<FrameLimits> = DEFAULT_FRAME_LIMITS): ParseResult {
  const input = typeof message === 'string' ? utf8Encoder.encode(message) : message;
  const items: ParsedItem[] = [];
  let offset = 0;
  while (offset < input.length) {
    const result = parseFrame(input, offset, limits);
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
  if (frame.body !== undefined) text += `content-length:${utf8ByteLength(frame.body)}\n`;
  return `${text}\n${frame.body ?? ''}\0`;
}
