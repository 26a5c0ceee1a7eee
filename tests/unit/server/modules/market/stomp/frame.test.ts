import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FRAME_LIMITS,
  MAX_FRAME_BYTES,
  MAX_HEADER_BYTES,
  MAX_HEADERS,
  decodeUtf8,
  escapeHeader,
  parseFrame,
  parseMessage,
  serializeFrame,
  unescapeHeader,
  utf8ByteLength,
  type FrameErrorCode,
  type ParsedItem,
  type StompFrame,
} from '../../../../../../server/modules/market/stomp/frame';

function frames(items: ParsedItem[]): StompFrame[] {
  return items.flatMap((item) => (item.kind === 'frame' ? [item.frame] : []));
}

function parseOne(message: string | Uint8Array): StompFrame {
  const result = parseMessage(message);
  if (!result.ok) throw new Error(`unexpected parse error ${result.error.code}`);
  const [frame] = frames(result.items);
  if (!frame) throw new Error('no frame');
  return frame;
}

function errorCode(message: string | Uint8Array, limits = DEFAULT_FRAME_LIMITS): FrameErrorCode | null {
  const result = parseMessage(message, limits);
  return result.ok ? null : result.error.code;
}

describe('STOMP frame parsing', () => {
  it('reads command, headers and a body up to the NUL', () => {
    const frame = parseOne('SUBSCRIBE\nid:sub-1\ndestination:/topic/prices\n\n\0');
    expect(frame.command).toBe('SUBSCRIBE');
    expect({ ...frame.headers }).toEqual({ id: 'sub-1', destination: '/topic/prices' });
    expect(frame.body).toBe('');

    const send = parseOne('SEND\r\ndestination:/queue/a\r\n\r\nhello world\0');
    expect(send.headers.destination).toBe('/queue/a');
    expect(send.body).toBe('hello world');
  });

  it('reads exactly content-length octets, NULs included', () => {
    const frame = parseOne('SEND\ndestination:/q\ncontent-length:5\n\na\0b\0c\0');
    expect(frame.body).toBe('a\0b\0c');
    const euro = parseOne('SEND\ncontent-length:3\n\n€\0');
    expect(euro.body).toBe('€');
  });

  it('keeps the first of repeated headers', () => {
    const frame = parseOne('MESSAGE\nfoo:first\nfoo:second\n\n\0');
    expect(frame.headers.foo).toBe('first');
  });

  it('keeps colons after the first one in a value', () => {
    expect(parseOne('SEND\nx:a:b\n\n\0').headers.x).toBe('a:b');
  });

  it('does not treat prototype names as special', () => {
    const frame = parseOne('SEND\n__proto__:x\nconstructor:y\n\n\0');
    expect(frame.headers['__proto__']).toBe('x');
    expect(frame.headers.constructor).toBe('y');
  });

  it('recognises bare EOLs as heart-beats, alone and between frames', () => {
    expect(parseMessage('\n')).toEqual({ ok: true, items: [{ kind: 'heartbeat' }] });
    expect(parseMessage('\r\n')).toEqual({ ok: true, items: [{ kind: 'heartbeat' }] });
    const result = parseMessage('\nRECEIPT\nreceipt-id:1\n\n\0\n\r\nMESSAGE\nsubscription:a\n\n{}\0\n');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.items.map((item) => (item.kind === 'frame' ? item.frame.command : 'beat'))).toEqual([
      'beat',
      'RECEIPT',
      'beat',
      'beat',
      'MESSAGE',
      'beat',
    ]);
    expect(frames(result.items)[1]?.body).toBe('{}');
  });

  it('parses several frames in one message and reports offsets', () => {
    const input = new TextEncoder().encode('CONNECT\naccept-version:1.2\n\n\0SUBSCRIBE\nid:1\ndestination:/d\n\n\0');
    const first = parseFrame(input, 0);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const second = parseFrame(input, first.next);
    expect(second.ok && second.item.kind === 'frame' && second.item.frame.command).toBe('SUBSCRIBE');
    expect(second.ok && second.next).toBe(input.length);
  });

  it('unescapes headers except on CONNECT and CONNECTED', () => {
    expect(parseOne('MESSAGE\na\\cb:x\\ny\\\\z\\r\n\n\0').headers).toEqual(expect.objectContaining({ 'a:b': 'x\ny\\z\r' }));
    expect(parseOne('CONNECT\nlogin:a\\cb\n\n\0').headers.login).toBe('a\\cb');
    expect(parseOne('CONNECTED\nserver:x\\ny\n\n\0').headers.server).toBe('x\\ny');
  });

  it('answers typed errors for malformed frames', () => {
    expect(errorCode('HELLO\n\n\0')).toBe('unknown-command');
    expect(errorCode('connect\n\n\0')).toBe('unknown-command');
    expect(errorCode('SEND\nx:y\n\nbody without nul')).toBe('incomplete-frame');
    expect(errorCode('SEND\nx:y')).toBe('incomplete-frame');
    expect(errorCode('SEND\nno colon here\n\n\0')).toBe('malformed-header');
    expect(errorCode('SEND\n:empty name\n\n\0')).toBe('malformed-header');
    expect(errorCode('SEND\nx:tab\\t\n\n\0')).toBe('invalid-escape');
    expect(errorCode('SEND\nx:trailing\\\n\n\0')).toBe('invalid-escape');
    expect(errorCode('SEND\ncontent-length:abc\n\nabc\0')).toBe('invalid-content-length');
    expect(errorCode('SEND\ncontent-length:-1\n\n\0')).toBe('invalid-content-length');
    expect(errorCode('SEND\ncontent-length:2\n\nabc\0')).toBe('missing-nul');
    expect(errorCode('SEND\ncontent-length:9\n\nabc\0')).toBe('incomplete-frame');
    expect(errorCode(Uint8Array.from([...new TextEncoder().encode('SEND\n\n'), 0xff, 0xfe, 0]))).toBe('invalid-encoding');
    expect(errorCode('\nSEND\n\n\0GARBAGE\n\n\0')).toBe('unknown-command');
    expect(errorCode('\nSEND\n\n\0GARBAGE')).toBe('incomplete-frame');
  });

  it('never throws on arbitrary input', () => {
    const alphabet = ['SEND', 'MESSAGE', '\n', '\r', '\0', ':', '\\', 'c', 'content-length:', '3', 'é'];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 2000; round += 1) {
      let text = '';
      const parts = Math.floor(random() * 12);
      for (let part = 0; part < parts; part += 1) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(() => parseMessage(text)).not.toThrow();
    }
  });
});

describe('STOMP text and octet input', () => {
  const encoder = new TextEncoder();

  function seeded(seed: number) {
    return () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
  }

  it('gives the same answer for a text message and its UTF-8 octets, errors and offsets included', () => {
    const alphabet = [
      'SEND\n', 'MESSAGE\n', 'SEND', '\n', '\r\n', '\r', '\0', ':', '\\', '\\c', 'c', 'x:y\n', 'content-length:',
      '0', '1', '3', '4', '9', 'é', '€', '😀', 'ab', 'destination:/topic/€\n',
    ];
    const limitSets = [DEFAULT_FRAME_LIMITS, { maxFrameBytes: 40, maxHeaders: 3, maxHeaderBytes: 12 }, { maxFrameBytes: 16, maxHeaders: 1, maxHeaderBytes: 6 }];
    const random = seeded(7);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const bodies = ['', '{}', 'é€😀', 'a\0b', '[{"name":"₿"}]', 'x'.repeat(30)];
    const headerLines = ['destination:/topic/€', 'id:1', 'a\\cb:c\\nd', 'bad\\t:x', 'no colon', ':empty', 'h:😀😀😀😀'];
    /** Mostly well-formed frames (content-length right, wrong or absent), sometimes cut or spliced. */
    function message(): string {
      let text = '';
      const frameTotal = 1 + Math.floor(random() * 3);
      for (let index = 0; index < frameTotal; index += 1) {
        const body = pick(bodies);
        const lines = Array.from({ length: Math.floor(random() * 3) }, () => pick(headerLines));
        const length = encoder.encode(body).length;
        const declared = random() < 0.5 ? [`content-length:${random() < 0.8 ? length : length + pick([-2, -1, 1, 2])}`] : [];
        const eol = random() < 0.8 ? '\n' : '\r\n';
        text += `${pick(['SEND', 'MESSAGE', 'CONNECT'])}${eol}${[...lines, ...declared].map((line) => line + eol).join('')}${eol}${body}\0`;
        if (random() < 0.3) text += pick(['\n', '\r\n']);
      }
      if (random() < 0.3) {
        const cut = Math.floor(random() * text.length);
        text = random() < 0.5 ? text.slice(0, cut) : text.slice(0, cut) + pick(alphabet) + text.slice(cut);
      }
      return text;
    }
    let frameCount = 0;
    const errorCodes = new Set<FrameErrorCode>();
    for (let round = 0; round < 6000; round += 1) {
      let text = '';
      if (round % 2 === 0) text = message();
      else {
        const parts = Math.floor(random() * 16);
        for (let part = 0; part < parts; part += 1) text += pick(alphabet);
      }
      // A cut can split a surrogate pair; a WebSocket text message never holds half of one.
      text = text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '?');
      for (const limits of limitSets) {
        const fromText = parseMessage(text, limits);
        expect(fromText, JSON.stringify(text)).toEqual(parseMessage(encoder.encode(text), limits));
        if (fromText.ok) frameCount += frames(fromText.items).length;
        else errorCodes.add(fromText.error.code);
      }
    }
    expect(frameCount).toBeGreaterThan(1000);
    // Every error but invalid-encoding, which text cannot have.
    expect([...errorCodes].sort()).toEqual(
      ['frame-too-large', 'header-too-long', 'incomplete-frame', 'invalid-content-length', 'invalid-escape', 'malformed-header', 'missing-nul', 'too-many-headers', 'unknown-command'],
    );
  });

  it('slices bodies out of text by content-length, counting UTF-8 octets', () => {
    const body = '[{"name":"Bitcoin ₿","x":"😀"}]';
    const text = serializeFrame({ command: 'MESSAGE', headers: { subscription: 'a' }, body }) + '\n' + serializeFrame({ command: 'MESSAGE', headers: { subscription: 'b' }, body: 'ascii' });
    const result = parseMessage(text);
    expect(result.ok && frames(result.items).map((frame) => frame.body)).toEqual([body, 'ascii']);
    expect(errorCode('SEND\ncontent-length:2\n\n€\0')).toBe('missing-nul'); // ends inside the €
    expect(errorCode('SEND\ncontent-length:1\n\né\0')).toBe('missing-nul');
    expect(errorCode('SEND\ncontent-length:4\n\n€ab\0')).toBe('missing-nul');
    expect(errorCode('SEND\ncontent-length:3\n\n€')).toBe('incomplete-frame');
  });

  it('reports where the next item starts in code units for text', () => {
    const text = 'MESSAGE\nx:€\n\n😀\0\nRECEIPT\n\n\0';
    const first = parseFrame(text);
    expect(first.ok && first.next).toBe(text.indexOf('\0') + 1);
    const beat = first.ok ? parseFrame(text, first.next) : null;
    expect(beat).toEqual({ ok: true, item: { kind: 'heartbeat' }, next: text.indexOf('\0') + 2 });
    const error = parseMessage('MESSAGE\nx:€\n\n\0BAD\n\n\0');
    expect(error).toEqual({ ok: false, error: expect.objectContaining({ code: 'unknown-command', offset: 16 }) });
  });

  it('decodes UTF-8 like a fatal TextDecoder', () => {
    const reference = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const decode = (bytes: Uint8Array) => {
      try {
        return reference.decode(bytes);
      } catch {
        return null;
      }
    };
    const interesting = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
    const random = seeded(11);
    for (let round = 0; round < 20000; round += 1) {
      const bytes = Uint8Array.from({ length: Math.floor(random() * 6) }, () =>
        random() < 0.7 ? (interesting[Math.floor(random() * interesting.length)] as number) : Math.floor(random() * 256),
      );
      expect(decodeUtf8(bytes), bytes.join(',')).toBe(decode(bytes));
    }
    for (const sample of ['', 'plain', '\ufeffBOM kept', 'é€😀 mixed', 'x'.repeat(10_000) + '€'.repeat(5_000)]) {
      expect(decodeUtf8(encoder.encode(sample))).toBe(sample);
    }
    expect(decodeUtf8(encoder.encode('abc€def'), 3, 6)).toBe('€');
  });
});

describe('STOMP frame limits', () => {
  it('refuses more than the maximum number of headers', () => {
    const headers = (count: number) => Array.from({ length: count }, (_, index) => `h${index}:v\n`).join('');
    expect(errorCode(`SEND\n${headers(MAX_HEADERS)}\n\0`)).toBeNull();
    expect(errorCode(`SEND\n${headers(MAX_HEADERS + 1)}\n\0`)).toBe('too-many-headers');
  });

  it('refuses a header line longer than the maximum', () => {
    const value = (length: number) => 'x'.repeat(length - 2);
    expect(errorCode(`SEND\nh:${value(MAX_HEADER_BYTES)}\n\n\0`)).toBeNull();
    expect(errorCode(`SEND\nh:${value(MAX_HEADER_BYTES)}\r\n\n\0`)).toBeNull();
    expect(errorCode(`SEND\nh:${value(MAX_HEADER_BYTES + 1)}\n\n\0`)).toBe('header-too-long');
    expect(errorCode(`SEND\nh:${value(MAX_HEADER_BYTES + 100)}`)).toBe('header-too-long');
    expect(errorCode(`${'S'.repeat(MAX_HEADER_BYTES + 1)}\n\n\0`)).toBe('header-too-long');
  });

  it('refuses frames larger than the maximum, with or without content-length', () => {
    const overhead = 'SEND\n\n'.length + 1;
    expect(errorCode(`SEND\n\n${'a'.repeat(MAX_FRAME_BYTES - overhead)}\0`)).toBeNull();
    expect(errorCode(`SEND\n\n${'a'.repeat(MAX_FRAME_BYTES - overhead + 1)}\0`)).toBe('frame-too-large');
    expect(errorCode(`SEND\n\n${'a'.repeat(MAX_FRAME_BYTES * 2)}`)).toBe('frame-too-large');
    expect(errorCode(`SEND\ncontent-length:${MAX_FRAME_BYTES}\n\n`)).toBe('frame-too-large');
    expect(errorCode('SEND\ncontent-length:9999999999\n\n\0')).toBe('frame-too-large');
  });

  it('applies limits per frame and accepts custom limits', () => {
    const small = { maxFrameBytes: 32, maxHeaders: 2, maxHeaderBytes: 16 };
    expect(errorCode('SEND\na:1\nb:2\n\n\0SEND\na:1\nb:2\n\n\0', small)).toBeNull();
    expect(errorCode('SEND\na:1\nb:2\nc:3\n\n\0', small)).toBe('too-many-headers');
    expect(errorCode('SEND\nabcdefghijklmnopq:1\n\n\0', small)).toBe('header-too-long');
    expect(errorCode(`SEND\n\n${'x'.repeat(40)}\0`, small)).toBe('frame-too-large');
  });
});

describe('STOMP frame serializing', () => {
  it('writes command, headers, content-length in UTF-8 octets, body and NUL', () => {
    const text = serializeFrame({
      command: 'MESSAGE',
      headers: { destination: '/topic/prices', subscription: 's1', 'message-id': '7' },
      body: '{"name":"€"}',
    });
    expect(text).toBe('MESSAGE\ndestination:/topic/prices\nsubscription:s1\nmessage-id:7\ncontent-length:14\n\n{"name":"€"}\0');
  });

  it('omits content-length without a body and ignores a caller-supplied one', () => {
    expect(serializeFrame({ command: 'RECEIPT', headers: { 'receipt-id': 'r' } })).toBe('RECEIPT\nreceipt-id:r\n\n\0');
    expect(serializeFrame({ command: 'ERROR', headers: { 'content-length': '999' }, body: 'ab' })).toBe('ERROR\ncontent-length:2\n\nab\0');
  });

  it('round-trips escaped header names and values', () => {
    const awkward = { 'we:ird\nname': 'a:b\nc\\d\re', plain: 'value', unicode: 'Zürich €' };
    const frame = parseOne(serializeFrame({ command: 'MESSAGE', headers: awkward, body: 'x' }));
    expect({ ...frame.headers }).toEqual({ ...awkward, 'content-length': '1' });
    expect(frame.body).toBe('x');
    for (const sample of ['', '\\', '\\\\c', ':::', '\r\n', 'plain']) {
      expect(unescapeHeader(escapeHeader(sample))).toBe(sample);
    }
  });

  it('writes CONNECT and CONNECTED headers verbatim and refuses what cannot be written so', () => {
    expect(serializeFrame({ command: 'CONNECTED', headers: { version: '1.2', server: 'a:b' } })).toBe(
      'CONNECTED\nversion:1.2\nserver:a:b\n\n\0',
    );
    expect(() => serializeFrame({ command: 'CONNECTED', headers: { server: 'a\nb' } })).toThrow(RangeError);
  });

  it('counts UTF-8 octets like an encoder does', () => {
    for (const sample of ['', 'abc', 'é', '€', '😀', 'a😀b€é', '\ud800', '\udc00x']) {
      expect(utf8ByteLength(sample)).toBe(new TextEncoder().encode(sample).length);
    }
  });

  it('round-trips a body with content-length through the parser', () => {
    const body = JSON.stringify([{ symbol: 'BTCUSDT', name: 'Bitcoin ₿', price: 1 }]);
    const frame = parseOne(serializeFrame({ command: 'MESSAGE', headers: { destination: '/topic/prices' }, body }));
    expect(frame.body).toBe(body);
    expect(Number(frame.headers['content-length'])).toBe(new TextEncoder().encode(body).length);
  });
});
