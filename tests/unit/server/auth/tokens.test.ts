import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService } from '../../../../server/auth/tokens';

const key = crypto.randomBytes(32);
const tokens = createTokenService({ key, accessTokenTtlSeconds: 900 });

describe('customer and staff access tokens', () => {
  it('a staff token never passes the customer check, and a customer token never passes the staff check', async () => {
    const { token: staffToken } = await tokens.issueStaffAccessToken({ sid: 7, fid: 'family-7' });
    const { token: customerToken } = await tokens.issueAccessToken({ uid: 7, virtualStatus: 0, aesKey: 'k'.repeat(16), fid: 'family-7' });
    expect(await tokens.verifyStaffAccessToken(staffToken)).toMatchObject({ sid: 7, fid: 'family-7' });
    expect(await tokens.verifyAccessToken(customerToken)).toMatchObject({ uid: 7, fid: 'family-7' });
    expect(await tokens.verifyAccessToken(staffToken)).toBeNull();
    expect(await tokens.verifyStaffAccessToken(customerToken)).toBeNull();
  });

  it('a payload that fits both sides is still refused by the side whose key did not sign it or whose audience it lacks', async () => {
    const both = { uid: 7, virtualStatus: 0, aesKey: 'k'.repeat(16), sid: 7, fid: 'family-7' };
    const now = Math.floor(Date.now() / 1000);
    // Signed with the customers' key and naming the staff audience: neither side takes it.
    const customerKeyStaffAudience = await new SignJWT(both).setProtectedHeader({ alg: 'HS256' }).setAudience('staff').setIssuedAt(now).setExpirationTime(now + 600).sign(key);
    expect(await tokens.verifyAccessToken(customerKeyStaffAudience)).toBeNull();
    expect(await tokens.verifyStaffAccessToken(customerKeyStaffAudience)).toBeNull();
    // Signed with the customers' key, no audience: a customer's token, never a staff one.
    const customerKeyNoAudience = await new SignJWT(both).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now).setExpirationTime(now + 600).sign(key);
    expect(await tokens.verifyAccessToken(customerKeyNoAudience)).not.toBeNull();
    expect(await tokens.verifyStaffAccessToken(customerKeyNoAudience)).toBeNull();
  });
});
