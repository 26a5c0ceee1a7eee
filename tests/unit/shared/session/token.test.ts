import { describe, expect, it } from 'vitest';
import { readAccessToken } from '../../../../src/shared/session/token';
import { signAccessToken } from '../../support/access-token';

describe('access token', () => {
  it('reads the token payload the server signs', async () => {
    const payload = readAccessToken(await signAccessToken(5, 0, 1_900_000_000));
    expect(payload).toEqual({ uid: 5, virtualStatus: 0, aesKey: 'a'.repeat(16), exp: 1_900_000_000 });
    expect(readAccessToken('a.b.c')).toBeNull();
    expect(readAccessToken('')).toBeNull();
  });
});
