import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstNothing, verifyPassword } from '../../../../server/auth/passwords';

const testCost = process.env.PASSWORD_HASH_COST;

// Each real-cost hash is a tenth of a second on an idle core; a loaded CI machine can take many times that.
describe('password hashing', { timeout: 30_000 }, () => {
  afterEach(() => {
    if (testCost === undefined) delete process.env.PASSWORD_HASH_COST;
    else process.env.PASSWORD_HASH_COST = testCost;
  });

  it("stores argon2id at OWASP's minimum cost (19 MiB, 2 passes, 1 lane), salted, never the password", async () => {
    delete process.env.PASSWORD_HASH_COST;
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse battery');
    expect(await verifyPassword(first, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(first, 'correct horse batterY')).toBe(false);
  });

  it("verifies a hash by the cost it was stored with, so the API tests' cheaper hashes and real ones both check", async () => {
    process.env.PASSWORD_HASH_COST = 'test';
    const cheap = await hashPassword('pw one');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    delete process.env.PASSWORD_HASH_COST;
    expect(await verifyPassword(cheap, 'pw one')).toBe(true);
    expect(await verifyPassword(await hashPassword('pw two'), 'pw two')).toBe(true);
  });

  it('answers false, never throws, for a malformed stored hash and for a check against no account', async () => {
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
    expect(await verifyAgainstNothing('anything')).toBe(false);
  });
});
