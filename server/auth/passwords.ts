import crypto from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

/** argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane); pure WebAssembly, no native build. */
export const passwordHashParameters = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

/**
 * The API tests sign up and sign in thousands of times a run, and at OWASP's cost each hash is
 * about 0.1 s of a core. Under Vitest (and only there) PASSWORD_HASH_COST=test gives the same
 * argon2id with 1 MiB and one pass; a check reads the cost from the stored hash, so both kinds
 * verify. Nothing outside a Vitest run can lower the cost.
 */
function hashParameters() {
  return process.env.VITEST && process.env.PASSWORD_HASH_COST === 'test'
    ? ({ parallelism: 1, iterations: 1, memorySize: 1_024, hashLength: 32 } as const)
    : passwordHashParameters;
}

export async function hashPassword(password: string): Promise<string> {
  return argon2id({ ...hashParameters(), password, salt: crypto.randomBytes(16), outputType: 'encoded' });
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
