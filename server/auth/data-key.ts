import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The tests' key when no DATA_DIR is given (see below). */
let inMemoryKey: Buffer | undefined;

/**
 * The key that encrypts sensitive fields at rest and keys the one-time-code hashes:
 * DATA_ENCRYPTION_KEY (base64, 32 bytes) when set, else a random key created once under
 * DATA_DIR/secrets (never in the repository), else (in-memory tests) a per-process key.
 */
export async function loadDataKey(options: { dataKeySetting: string | null; dataDir: string | null }): Promise<Buffer> {
  if (options.dataKeySetting) {
    const key = Buffer.from(options.dataKeySetting, 'base64');
    if (key.length !== 32) throw new Error('DATA_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
    return key;
  }
  // No DATA_DIR (tests only: the settings always name one): one key for the process, so every
  // module seals and digests with the same key, as they do when it lives under DATA_DIR.
  if (!options.dataDir) return (inMemoryKey ??= crypto.randomBytes(32));
  const file = path.join(options.dataDir, 'secrets', 'data.key');
  try {
    return Buffer.from(await fs.readFile(file, 'utf8'), 'base64');
  } catch {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return Buffer.from(await fs.readFile(file, 'utf8'), 'base64');
  }
}

export interface DataCipher {
  /** Names this key (not secret: a keyed hash of a label) so rows say which key sealed them, for rotation. */
  keyId: string;
  /** AES-256-GCM: "v1.<iv>.<tag>.<ciphertext>", base64url parts. */
  encrypt(plain: string): string;
  /** null when the value was not made by this key (tampered, or another key). */
  decrypt(sealed: string): string | null;
  /** A keyed hash, for values that are checked but never read back (one-time codes). */
  digest(value: string): string;
  /** A stable value derived from the key and a label (per-session transport keys). */
  derive(label: string, length: number): string;
}

export function createDataCipher(key: Buffer): DataCipher {
  return {
    keyId: crypto.createHmac('sha256', key).update('data-key-id').digest('base64url').slice(0, 12),
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) return null;
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
    digest(value) {
      return crypto.createHmac('sha256', key).update(value).digest('base64url');
    },
    derive(label, length) {
      return crypto.createHmac('sha256', key).update(`derive:${label}`).digest('base64url').slice(0, length);
    },
  };
}
