import { SignJWT } from 'jose';

const signingKey = new TextEncoder().encode('k'.repeat(40));

/** An access token shaped like the server's: `virtualStatus` 1 is the demo book. */
export async function signAccessToken(uid: number, virtualStatus = 0, expSeconds = 2_000_000_000) {
  return new SignJWT({ uid, virtualStatus, aesKey: 'a'.repeat(16) })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(expSeconds)
    .sign(signingKey);
}
