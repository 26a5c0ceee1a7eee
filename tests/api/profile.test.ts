import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../src/shared/api/account';
import type { InviteInfo } from '../../src/shared/api/profile';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, lastCode, loginByEmail, password, registerByEmail } from './identity-support';
import { newCustomer } from './reviews-support';
import { getFile, jpegImage, multipartBody, multipartCall, pngImage, storedFileCount } from './uploads-support';

type Customer = Awaited<ReturnType<typeof newCustomer>>;

describe.each(testBackends())('profile and invite on $name', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const info = async (customer: { token: string }) => {
    const answer = await call(server, '/v1/waa/user/info', {}, customer.token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as UserInfo;
  };

  const submit = (customer: Customer, meta: unknown, avatar?: { bytes: Buffer; filename: string }) =>
    multipartCall(
      server,
      '/v1/waa/user/infoSubmit',
      multipartBody({ metaData: typeof meta === 'string' ? meta : JSON.stringify(meta) }, avatar ? [{ field: 'avatar', filename: avatar.filename, bytes: avatar.bytes, type: 'image/jpeg' }] : []),
      customer.token,
    );

  const inviteInfo = async (customer: { token: string }, origin?: string) => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/waa/invite/info',
      headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      payload: '{}',
    });
    const answer = response.json() as { code: number; msg: string; data: InviteInfo };
    expect(answer.code, answer.msg).toBe(0);
    return answer.data;
  };

  it('changes the nickname alone, trimmed, up to 140 characters counted as a person counts them', async () => {
    const customer = await newCustomer(server, 'nick');
    expect(await submit(customer, { nickName: '  Trader Jo  ' })).toMatchObject({ code: 0 });
    expect(await info(customer)).toMatchObject({ nick: 'Trader Jo', avator: '' });

    // 140 emoji are 280 UTF-16 units but 140 characters: accepted.
    const emoji = '📈'.repeat(140);
    expect(await submit(customer, { nickName: emoji })).toMatchObject({ code: 0 });
    expect((await info(customer)).nick).toBe(emoji);
  });

  it('refuses a missing, blank or too long nickname and an unknown field with 1001, changing nothing (not the avatar either)', async () => {
    const customer = await newCustomer(server, 'nickbad');
    expect((await submit(customer, { nickName: 'Kept' })).code).toBe(0);
    const files = await storedFileCount(server);
    const avatar = { bytes: await jpegImage(), filename: 'me.jpg' };
    for (const meta of [{}, { nickName: '' }, { nickName: '   ' }, { nickName: 'x'.repeat(141) }, { nickName: 'ok', extra: 1 }, 'not json']) {
      const answer = await submit(customer, meta, avatar);
      expect(answer.code, JSON.stringify(meta)).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    }
    const problems = (await submit(customer, { nickName: 'x'.repeat(141) })).data as { problems: string[] };
    expect(problems.problems.join(' ')).toContain('nickName');
    expect(await info(customer)).toMatchObject({ nick: 'Kept', avator: '' });
    expect(await storedFileCount(server)).toBe(files);
  });

  it('stores the avatar re-encoded as JPEG, shows it through user/info to its owner only', async () => {
    const owner = await newCustomer(server, 'avatar');
    const other = await newCustomer(server, 'snoop');
    const png = await pngImage(300, 300);
    expect(await submit(owner, { nickName: 'Pic' }, { bytes: png, filename: 'me.png' })).toMatchObject({ code: 0 });
    const { avator, nick } = await info(owner);
    expect(nick).toBe('Pic');
    expect(avator).toMatch(/^\/v1\/waa\/file\/[A-Za-z0-9_-]{20,}$/);

    const mine = await getFile(server, avator, owner.token);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-type']).toContain('image/jpeg');
    const meta = await sharp(mine.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([300, 300]);
    expect(mine.bytes.equals(png)).toBe(false);

    expect((await getFile(server, avator, other.token)).status).toBe(404);
    expect((await getFile(server, avator)).status).toBe(401);
    // Another user's user/info never shows it.
    expect((await info(other)).avator).toBe('');

    // A new nickname without a file keeps the avatar; a new file replaces it.
    expect((await submit(owner, { nickName: 'Pic two' })).code).toBe(0);
    expect((await info(owner)).avator).toBe(avator);
    expect((await submit(owner, { nickName: 'Pic two' }, { bytes: await jpegImage(), filename: 'new.jpg' })).code).toBe(0);
    const replaced = (await info(owner)).avator;
    expect(replaced).not.toBe(avator);
    expect((await getFile(server, replaced, owner.token)).status).toBe(200);
  });

  it('refuses an avatar that is no image or has a wrong extension with 1001 and keeps the old nickname and avatar', async () => {
    const customer = await newCustomer(server, 'avbad');
    expect((await submit(customer, { nickName: 'Before' })).code).toBe(0);
    const files = await storedFileCount(server);
    const notImage = await submit(customer, { nickName: 'After' }, { bytes: Buffer.from('%PDF-1.4 not an image'), filename: 'me.jpg' });
    expect(notImage.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    const badExtension = await submit(customer, { nickName: 'After' }, { bytes: await jpegImage(), filename: 'me.gif' });
    expect(badExtension.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect(await info(customer)).toMatchObject({ nick: 'Before', avator: '' });
    expect(await storedFileCount(server)).toBe(files);
  });

  it('two parallel submissions each leave a whole profile: the nickname and avatar of one of them', async () => {
    const customer = await newCustomer(server, 'race');
    const [a, b] = await Promise.all([
      submit(customer, { nickName: 'Alpha' }, { bytes: await jpegImage(200, 200), filename: 'a.jpg' }),
      submit(customer, { nickName: 'Beta' }, { bytes: await pngImage(100, 50), filename: 'b.png' }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const after = await info(customer);
    const image = await sharp((await getFile(server, after.avator, customer.token)).bytes).metadata();
    expect(after.nick === 'Alpha' ? [200, 200] : [100, 50]).toEqual([image.width, image.height]);
  });

  it('answers the invite code, a sign-up link on the asking app origin, and counts the accounts signed up with it', async () => {
    const inviter = await newCustomer(server, 'inviter');
    const { inviteCode } = await info(inviter);
    const first = await inviteInfo(inviter, 'https://trade.example.com');
    expect(first).toEqual({ inviteCode, inviteLink: `https://trade.example.com/register?inviteCode=${inviteCode}`, invitedCount: 0 });
    // Without an Origin (a script): this server's own origin.
    expect((await inviteInfo(inviter)).inviteLink).toMatch(new RegExp(`^https?://[^/]+/register\\?inviteCode=${inviteCode}$`));
    // A bogus Origin header is not echoed into the link.
    expect((await inviteInfo(inviter, 'javascript:alert(1)')).inviteLink).toMatch(/^https?:\/\//);

    const friend = `friend${Date.now().toString(36)}@example.com`;
    await registerByEmail(server, friend, { inviteCode: inviteCode.toLowerCase() });
    const second = `friend2${Date.now().toString(36)}@example.com`;
    await registerByEmail(server, second, { inviteCode });
    expect((await inviteInfo(inviter)).invitedCount).toBe(2);
    // The friends' own counts stay at zero; they have codes of their own.
    const friendSession = await loginByEmail(server, friend);
    const friendInvite = await inviteInfo(friendSession);
    expect(friendInvite.invitedCount).toBe(0);
    expect(friendInvite.inviteCode).not.toBe(inviteCode);
    const linked = await server.database.db.selectFrom('app_user').select(['invited_by']).where('email', '=', friend).executeTakeFirstOrThrow();
    expect(linked.invited_by).toBe(inviter.uid);
  });

  it('refuses sign-up with an unknown invite code (1007) and counts nobody', async () => {
    const inviter = await newCustomer(server, 'inviter2');
    const email = `badcode${Date.now().toString(36)}@example.com`;
    expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
    const code = await lastCode(server, email);
    const answer = await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en', inviteCode: 'NOSUCHCODE' });
    expect(answer.code).toBe(ErrorCode.INVALID_INVITATION_CODE);
    expect((await inviteInfo(inviter)).invitedCount).toBe(0);
    const row = await server.database.db.selectFrom('app_user').select('uid').where('email', '=', email).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('is one profile for both accounts: a change made on the demo account shows on the real one', async () => {
    const customer = await newCustomer(server, 'demo');
    const switched = await call(server, '/v1/waa/user/switch', {}, customer.token);
    expect(switched.code, switched.msg).toBe(0);
    const demo = { ...customer, token: (switched.data as { token: string }).token };
    expect((await submit(demo, { nickName: 'Demo name' }, { bytes: await jpegImage(), filename: 'd.jpg' })).code).toBe(0);
    const real = await info(customer);
    expect(real.nick).toBe('Demo name');
    expect(real.avator).toBe((await info(demo)).avator);
    expect((await getFile(server, real.avator, customer.token)).status).toBe(200);
  });

  it('needs a session for both calls', async () => {
    expect((await call(server, '/v1/waa/invite/info', {})).status).toBe(401);
    const body = multipartBody({ metaData: JSON.stringify({ nickName: 'x' }) }, []);
    const response = await server.app.inject({ method: 'POST', url: '/v1/waa/user/infoSubmit', headers: { 'content-type': body.contentType }, payload: body.payload });
    expect(response.statusCode).toBe(401);
  });
});
