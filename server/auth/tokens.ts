import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { jwtVerify, SignJWT } from 'jose';
import { accessTokenPayloadSchema, type AccessTokenPayload } from '../../src/shared/session/token';

export interface TokenService {
  issueAccessToken(claims: Omit<AccessTokenPayload, 'exp'>): Promise<{ token: string; expiresAtMs: number }>;
  verifyAccessToken(token: string): Promise<AccessTokenPayload | null>;
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
        const parsed = accessTokenPayloadSchema.safeParse(payload);
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
