import crypto from 'node:crypto';

/** RFC 6238 time-based one-time passwords (SHA-1, 6 digits, 30 s), as authenticator apps use. */
const stepSeconds = 30;
const digits = 6;
const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function generateTotpSecret(): string {
  const bytes = crypto.randomBytes(20);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

function base32Decode(secret: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of secret.replace(/=+$/, '').toUpperCase()) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) continue;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export function totpCode(secret: string, atMs: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / stepSeconds)));
  const hmac = crypto.createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (hmac[hmac.length - 1] ?? 0) & 0x0f;
  const binary = (hmac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/**
 * The time step a code belongs to: the current one or one on either side (clock drift),
 * compared in constant time; null when it matches none. The caller records the step it
 * accepts, so that a code once used cannot be used again (`useTotpStep`).
 */
export function matchTotpStep(secret: string, code: string, atMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = Math.floor(atMs / 1000 / stepSeconds);
  let matched: number | null = null;
  for (const drift of [-1, 0, 1]) {
    const expected = Buffer.from(totpCode(secret, atMs + drift * stepSeconds * 1000));
    if (crypto.timingSafeEqual(expected, Buffer.from(code))) matched = current + drift;
  }
  return matched;
}

/** Whether a code is valid now (any of the three steps), without recording it. */
export function verifyTotp(secret: string, code: string, atMs: number): boolean {
  return matchTotpStep(secret, code, atMs) !== null;
}

export function otpauthUrl(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${digits}&period=${stepSeconds}`;
}
