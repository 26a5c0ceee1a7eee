import crypto from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

/** argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane); pure WebAssembly, no native build. */
const parameters = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

export async function hashPassword(password: string): Promise<string> {
  return argon2id({ ...parameters, password, salt: crypto.randomBytes(16), outputType: 'encoded' });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the same work as a real check when there is no account, so that the answer's
 * timing does not tell whether an account exists.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(crypto.randomBytes(12).toString('base64'));
  await verifyPassword(await dummyHash, password);
  return false;
}
