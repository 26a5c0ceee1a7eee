import * as z from 'zod/mini';

/** What the app reads from an access token (the server alone verifies its signature). */
export const accessTokenPayloadSchema = z.object({
  uid: z.int().check(z.positive()),
  /** 0 real account; anything else is the demo account (see VirtualStatus). */
  virtualStatus: z.int(),
  aesKey: z.string(),
  /** Seconds since epoch, as JWT writes it. */
  exp: z.int(),
  /** The session (refresh-token family) the token belongs to; the server ends sessions by it. */
  fid: z.optional(z.string()),
});

export type AccessTokenPayload = z.infer<typeof accessTokenPayloadSchema>;

const base64UrlAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Decodes base64url to a UTF-8 string without relying on atob or Buffer. */
export function decodeBase64Url(input: string): string | null {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of input.replace(/=+$/, '')) {
    const value = base64UrlAlphabet.indexOf(char === '+' ? '-' : char === '/' ? '_' : char);
    if (value < 0) return null;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  try {
    // decodeURIComponent is the one UTF-8 decoder every runtime has without DOM or Node.
    return decodeURIComponent(bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''));
  } catch {
    return null;
  }
}

/** Reads a JWT's payload; null when the token is not a well-formed access token. */
export function readAccessToken(token: string): AccessTokenPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  const json = decodeBase64Url(parts[1]);
  if (json === null) return null;
  try {
    const result = accessTokenPayloadSchema.safeParse(JSON.parse(json));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** The token's virtualStatus: 0 the real account; the demo account is 1 (anything but 0 reads as demo). */
export const VirtualStatus = { real: 0, demo: 1 } as const;

/** The real or the demo account (the token's virtualStatus 0 or 1): one name in the app, the worker and the server. */
export type Book = 'real' | 'demo';

export function bookOf(payload: Pick<AccessTokenPayload, 'virtualStatus'>): Book {
  return payload.virtualStatus === VirtualStatus.real ? 'real' : 'demo';
}
