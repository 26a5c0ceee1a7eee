import { Secret, TOTP } from 'otpauth';

/** RFC 6238 time-based one-time passwords (SHA-1, 6 digits, 30 s), as authenticator apps use, by the otpauth package. */
const terms = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/** The steps either side of the current one still accepted (an authenticator's clock drift). */
const driftSteps = 1;

function totpOf(secret: string, label = 'account', issuer = ''): TOTP {
  return new TOTP({ ...terms, issuer, label, secret: Secret.fromBase32(secret) });
}

/** A new random 160-bit secret, base32 as otpauth URLs carry it. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpCode(secret: string, atMs: number): string {
  return totpOf(secret).generate({ timestamp: atMs });
}

/**
 * The time step a code belongs to: the current one or one on either side (clock drift),
 * compared in constant time by otpauth; null when it matches none. The caller records the
 * step it accepts, so that a code once used cannot be used again (`useTotpStep`).
 */
export function matchTotpStep(secret: string, code: string, atMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: atMs, window: driftSteps });
  return delta === null ? null : TOTP.counter({ period: terms.period, timestamp: atMs }) + delta;
}

/** Whether a code is valid now (any of the three steps), without recording it. */
export function verifyTotp(secret: string, code: string, atMs: number): boolean {
  return matchTotpStep(secret, code, atMs) !== null;
}

export function otpauthUrl(issuer: string, account: string, secret: string): string {
  return totpOf(secret, account, issuer).toString();
}
