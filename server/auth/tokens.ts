import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { accessTokenPayloadSchema, type AccessTokenPayload } from '../../src/shared/session/token';

/** What a staff access token carries: the staff member and the session (family) it belongs to. */
export const staffTokenPayloadSchema = z.object({ sid: z.number().int().positive(), fid: z.string().min(1), exp: z.number().int() });
export type StaffTokenPayload = z.infer<typeof staffTokenPayloadSchema>;

/** The audience of staff tokens; customers' tokens carry none. */
const staffAudience = 'staff';

export interface TokenService {
  issueAccessToken(claims: Omit<AccessTokenPayload, 'exp'>): Promise<{ token: string; expiresAtMs: number }>;
  /** A customer's token: never a staff token (another key, and no audience). */
  verifyAccessToken(token: string): Promise<AccessTokenPayload | null>;
  issueStaffAccessToken(claims: Omit<StaffTokenPayload, 'exp'>): Promise<{ token: string; expiresAtMs: number }>;
  /** A staff token: never a customer's (another key, and the staff audience required). */
  verifyStaffAccessToken(token: string): Promise<StaffTokenPayload | null>;
}

/**
 * Staff tokens are signed with a key derived from the signing key for them alone, so a
 * token of one side never verifies on the other even if a payload happened to fit both.
 */
function staffSigningKey(key: Uint8Array): Uint8Array {
  return new Uint8Array(crypto.createHmac('sha256', key).update('staff-access-token').digest());
}

/**
 * The signing key: the JWT_SECRET setting when given, else a random key created once
 * under DATA_DIR (never in the repository), else (in-memory tests) a per-process key.
 */
export async function loadSigningKey(options: { jwtSecret: string | null; dataDir: string | null }): Promise<Uint8Array> {
  if (options.jwtSecret) return new TextEncoder().encode(options.jwtSecret);
  if (!options.dataDir) return crypto.randomBytes(48);
  const file = path.join(options.dataDir, 'secrets', 'jwt.key');
  try {
    return Buffer.from(await fs.readFile(file, 'utf8'), 'base64url');
  } catch {
    const key = crypto.randomBytes(48);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, key.toString('base64url'), { mode: 0o600, flag: 'wx' }).catch(async () => {
      // Another process created it first; use theirs.
    });
    return Buffer.from(await fs.readFile(file, 'utf8'), 'base64url');
  }
}

export function createTokenService(options: { key: Uint8Array; accessTokenTtlSeconds: number; nowMs?: () => number }): TokenService {
  const nowMs = options.nowMs ?? Date.now;
  const staffKey = staffSigningKey(options.key);
  return {
    async issueAccessToken(claims) {
      const expiresAtSeconds = Math.floor(nowMs() / 1000) + options.accessTokenTtlSeconds;
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(Math.floor(nowMs() / 1000))
        .setExpirationTime(expiresAtSeconds)
        .sign(options.key);
      return { token, expiresAtMs: expiresAtSeconds * 1000 };
    },
    async verifyAccessToken(token) {
      try {
        const { payload } = await jwtVerify(token, options.key, {
          algorithms: ['HS256'],
          currentDate: new Date(nowMs()),
        });
        // A customer's token names no audience; one that does is somebody else's.
        if (payload.aud !== undefined) return null;
        const parsed = accessTokenPayloadSchema.safeParse(payload);
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    async issueStaffAccessToken(claims) {
      const expiresAtSeconds = Math.floor(nowMs() / 1000) + options.accessTokenTtlSeconds;
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setAudience(staffAudience)
        .setIssuedAt(Math.floor(nowMs() / 1000))
        .setExpirationTime(expiresAtSeconds)
        .sign(staffKey);
      return { token, expiresAtMs: expiresAtSeconds * 1000 };
    },
    async verifyStaffAccessToken(token) {
      try {
        const { payload } = await jwtVerify(token, staffKey, { algorithms: ['HS256'], audience: staffAudience, currentDate: new Date(nowMs()) });
        const parsed = staffTokenPayloadSchema.safeParse(payload);
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
