import crypto from 'node:crypto';
import type { DataCipher } from './data-key';

/**
 * OWASP's device cookie ("Slow Down Online Guessing Attacks with Device Cookies"): after a
 * successful sign-in the browser gets a cookie naming the account and a random nonce,
 * signed with the server's data key (DATA_ENCRYPTION_KEY, or the one under DATA_DIR). Pure:
 * what it says about a try is decided in `sign-in-guard.ts`, its failures are counted in
 * `trusted-devices.ts`.
 */
export function createDeviceCookies(cipher: DataCipher) {
  const signature = (account: string, nonce: string) => cipher.digest(`device-cookie:${account}:${nonce}`);
  return {
    /** One cookie per account (a shared computer keeps each of its owners' trust): its name says nothing of the account. */
    name: (account: string) => `tw_device_${cipher.digest(`device-cookie-name:${account}`).slice(0, 12)}`,

    /** A new cookie value for `account`, and the nonce the trust row is kept under. */
    issue(account: string): { nonce: string; value: string } {
      const nonce = crypto.randomBytes(18).toString('base64url');
      return { nonce, value: `${nonce}.${signature(account, nonce)}` };
    },

    /** The nonce of a cookie value signed for `account`; null for anything else (forged, another account's, garbled). */
    verify(account: string, value: string | undefined): string | null {
      if (!value) return null;
      const [nonce, signed, extra] = value.split('.');
      if (!nonce || !signed || extra !== undefined) return null;
      const expected = Buffer.from(signature(account, nonce));
      const given = Buffer.from(signed);
      return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? nonce : null;
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;

/** One cookie's value from a Cookie header ("a=1; b=2"); undefined when it is not there. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * A Set-Cookie header for a device cookie: unreadable by scripts, never sent by another
 * site, only to the sign-in call of `path`, Secure when the request came over https.
 */
export function deviceCookieHeader(name: string, value: string, options: { path: string; secure: boolean; maxAgeSeconds: number }): string {
  return [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${options.maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict', ...(options.secure ? ['Secure'] : [])].join('; ');
}
