import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewItem } from '../../src/shared/api/staff';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { call, setSwitch } from './identity-support';
import { decide, newCustomer } from './reviews-support';
import { createStaffAndSignIn, staffCall } from './support/staff';
import { getFile, jpegImage, multipartBody, multipartCall } from './uploads-support';

type Customer = Awaited<ReturnType<typeof newCustomer>>;
type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;
type Verification = {
  verifiedStatus: number;
  realName: string;
  idCard: string;
  idType: number;
  authEmail: string;
  failReason: string | null;
  cardImgFront: string | null;
  cardImgReverse: string | null;
  cardImgAvatar: string | null;
};
type Notice = { alarmType: number | null; actionType: number; title: string; content: string; remark: string | null; params: Record<string, string> | null };

const newKey = () => crypto.randomUUID();
/** Each customer's own document number (one number verifies one account): X1, eight digits of the uid, 0Z. */
const idNumberOf = (customer: { uid: number }) => `X1${String(customer.uid).padStart(8, '0')}0Z`;

describe.each(testBackends())('identity verification on $name', (backend) => {
  let server: TestServer;
  let compliance: Staff;
  let finance: Staff;
  let images: { front: Buffer; reverse: Buffer; avatar: Buffer };

  beforeAll(async () => {
    // The switch's own rule (full verification) is tried with the server's junior minimum relaxed (WITHDRAW_MIN_VERIFICATION=none).
    server = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', WITHDRAW_MIN_VERIFICATION: 'none' });
    [compliance, finance] = await Promise.all([createStaffAndSignIn(server, { roles: ['compliance'] }), createStaffAndSignIn(server, { roles: ['finance'] })]);
    images = { front: await jpegImage(400, 250), reverse: await jpegImage(410, 260), avatar: await jpegImage(300, 400) };
  });
  afterAll(async () => {
    await server?.close();
  });

  const submit = async (
    customer: Customer,
    meta: Record<string, unknown> = {},
    options: { key?: string; parts?: ('front' | 'reverse' | 'avatar')[] } = {},
  ) => {
    const parts = options.parts ?? ['front', 'reverse', 'avatar'];
    const field = { front: 'cardImgFront', reverse: 'cardImgReverse', avatar: 'cardImgAvatar' } as const;
    const body = multipartBody(
      { metaData: JSON.stringify({ realName: 'Ada Lovelace', idCard: idNumberOf(customer), authEmail: '', idType: 0, locale: 'en', ...meta }) },
      parts.map((part) => ({ field: field[part], filename: `${part}.jpg`, bytes: images[part], type: 'image/jpeg' })),
    );
    return multipartCall(server, '/v1/waa/user/auth/submit', body, customer.token, options.key ?? newKey());
  };

  const juniorSubmit = async (customer: Customer, meta: Record<string, unknown>, key = newKey()) => {
    const response = await post(server.app, '/v1/waa/user/firstAuth/submit', { locale: 'en', ...meta }, { authorization: `Bearer ${customer.token}`, 'idempotency-key': key });
    return response.json() as { code: number; msg: string; data: unknown };
  };

  const get = async (customer: Customer, path = '/v1/waa/user/auth/get') => {
    const answer = await call(server, path, {}, customer.token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as Verification;
  };

  const infoStatus = async (customer: Customer) => ((await call(server, '/v1/waa/user/info', {}, customer.token)).data as { verifiedStatus: number }).verifiedStatus;

  const items = async (customer: Customer, kind: 'identity' | 'juniorIdentity' = 'identity') => {
    const answer = await staffCall(server, '/v1/staff/reviews/list', { kind, page: 1, limit: 100 }, compliance.token);
    expect(answer.code, answer.msg).toBe(0);
    return (answer.data as { list: ReviewItem[] }).list.filter((item) => item.uid === customer.uid);
  };
  const openItem = async (customer: Customer, kind: 'identity' | 'juniorIdentity' = 'identity') => {
    const open = (await items(customer, kind)).filter((item) => item.status === 'pending');
    expect(open, 'exactly one open item').toHaveLength(1);
    return open[0]!;
  };

  const notices = async (customer: Customer) => ((await call(server, '/v1/waa/notice/list', { page: 1, limit: 10 }, customer.token)).data as { list: Notice[] }).list;

  it('starts at 0, goes to 1 on submission, 3 on rejection with notice 629007 and its reason, back to 1 on resubmission and 2 on approval', async () => {
    const who = await newCustomer(server, 'verify');
    expect(await get(who)).toMatchObject({ verifiedStatus: 0, realName: '', cardImgFront: null });
    expect(await infoStatus(who)).toBe(0);

    const first = await submit(who);
    expect(first.code, first.msg).toBe(0);
    const submitted = await get(who);
    expect(submitted).toMatchObject({ verifiedStatus: 1, realName: 'Ada Lovelace', idCard: 'X1********0Z', idType: 0, failReason: null });
    expect(await infoStatus(who)).toBe(1);

    const item = await openItem(who);
    expect(item.facts['Document number']).toBe('X1********0Z');
    expect(JSON.stringify(item.facts)).not.toContain(idNumberOf(who));
    const rejected = await decide(server, compliance.token, { kind: 'identity', id: item.id, decision: 'reject', reason: 'The selfie is blurred' });
    expect(rejected.code, rejected.msg).toBe(0);
    expect(await get(who)).toMatchObject({ verifiedStatus: 3, failReason: 'The selfie is blurred' });
    expect(await infoStatus(who)).toBe(3);
    const [notice] = await notices(who);
    expect(notice).toMatchObject({ alarmType: 629007, remark: 'The selfie is blurred', title: 'Identity verification rejected' });
    expect(notice!.content).toContain('The selfie is blurred');

    // Resubmitted with only a new selfie: the earlier front and back are kept.
    const again = await submit(who, { realName: 'Ada King' }, { parts: ['avatar'] });
    expect(again.code, again.msg).toBe(0);
    const resubmitted = await get(who);
    expect(resubmitted).toMatchObject({ verifiedStatus: 1, realName: 'Ada King', failReason: null, cardImgFront: submitted.cardImgFront, cardImgReverse: submitted.cardImgReverse });
    expect(resubmitted.cardImgAvatar).not.toBe(submitted.cardImgAvatar);

    const second = await openItem(who);
    const files = (await staffCall(server, '/v1/staff/reviews/get', { kind: 'identity', id: second.id }, compliance.token)).data as { files: { name: string; url: string }[] };
    expect(files.files.map((file) => file.name)).toEqual(['1-cardImgFront.jpg', '2-cardImgReverse.jpg', '3-cardImgAvatar.jpg']);
    const approved = await decide(server, compliance.token, { kind: 'identity', id: second.id, decision: 'approve' });
    expect(approved.code, approved.msg).toBe(0);
    expect(await get(who)).toMatchObject({ verifiedStatus: 2, realName: 'Ada King' });
    expect(await infoStatus(who)).toBe(2);
    expect((await notices(who))[0]).toMatchObject({ actionType: 1, alarmType: 629012, params: { event: 'verificationApproved' }, title: 'Identity verified' });
    // The back office's customer page and search say the same.
    const customer = await staffCall(server, '/v1/staff/customers/get', { uid: who.uid }, compliance.token);
    expect((customer.data as { verification: { verifiedStatus: number } }).verification.verifiedStatus).toBe(2);
    const found = await staffCall(server, '/v1/staff/customers/search', { query: String(who.uid), page: 1, limit: 10 }, compliance.token);
    expect((found.data as { list: { uid: number; verifiedStatus: number }[] }).list.find((row) => row.uid === who.uid)?.verifiedStatus).toBe(2);
  });

  it('refuses a submission after approval (1050), changing nothing: no new row, no item, no stored image', async () => {
    const who = await newCustomer(server, 'verified');
    expect((await submit(who)).code).toBe(0);
    expect((await decide(server, compliance.token, { kind: 'identity', id: (await openItem(who)).id, decision: 'approve' })).code).toBe(0);
    const before = await get(who);
    const countFiles = async () => Number((await server.database.db.selectFrom('stored_file').select((eb) => eb.fn.countAll<string>().as('n')).where('uid', '=', who.uid).executeTakeFirstOrThrow()).n);
    const filesBefore = await countFiles();

    const refused = await submit(who, { realName: 'Someone Else' });
    expect(refused.code).toBe(ErrorCode.VERIFICATION_ALREADY_APPROVED);
    const onlyImages = await submit(who, {}, { parts: ['front'] });
    expect(onlyImages.code).toBe(ErrorCode.VERIFICATION_ALREADY_APPROVED);
    expect(await get(who)).toEqual(before);
    expect(await countFiles()).toBe(filesBefore);
    expect(await items(who)).toHaveLength(1);
  });

  it('stores the document number sealed (never in clear), with its key id', async () => {
    const who = await newCustomer(server, 'sealed');
    expect((await submit(who, { idCard: 'PASS-998877' })).code).toBe(0);
    const row = await server.database.db.selectFrom('identity_submission').selectAll().where('uid', '=', who.uid).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('PASS-998877');
    expect(JSON.stringify(row)).not.toContain('998877');
    expect(row.id_card_sealed).toMatch(/^v1\./);
    expect(row.key_id.length).toBeGreaterThan(0);
    expect(row.id_card_masked).toBe('PA*******77');
    expect((await get(who)).idCard).toBe('PA*******77');
  });

  it('keeps the images private: the owner fetches them, another customer gets 404, compliance through the review item, finance not', async () => {
    const who = await newCustomer(server, 'private');
    const other = await newCustomer(server, 'other');
    expect((await submit(who)).code).toBe(0);
    const mine = await get(who);
    for (const url of [mine.cardImgFront!, mine.cardImgReverse!, mine.cardImgAvatar!]) {
      const own = await getFile(server, url, who.token);
      expect(own.status).toBe(200);
      expect(own.headers['content-type']).toContain('image/jpeg');
      expect((await getFile(server, url, other.token)).status).toBe(404);
      expect((await getFile(server, url)).status).toBe(401);
    }
    const item = await openItem(who);
    const detail = await staffCall(server, '/v1/staff/reviews/get', { kind: 'identity', id: item.id }, compliance.token);
    expect(detail.code, detail.msg).toBe(0);
    const staffFiles = (detail.data as { files: { url: string }[] }).files;
    expect(staffFiles).toHaveLength(3);
    for (const file of staffFiles) {
      const seen = await server.app.inject({ method: 'GET', url: file.url, headers: { authorization: `Bearer ${compliance.token}` } });
      expect(seen.statusCode).toBe(200);
      const refused = await server.app.inject({ method: 'GET', url: file.url, headers: { authorization: `Bearer ${finance.token}` } });
      expect(refused.statusCode).toBe(404);
    }
    // Finance does not review identity items at all.
    expect((await staffCall(server, '/v1/staff/reviews/get', { kind: 'identity', id: item.id }, finance.token)).code).toBe(ErrorCode.STAFF_ROLE_REQUIRED);
  });

  it('refuses bad input with 1001 and the message of the rule, changing nothing', async () => {
    const who = await newCustomer(server, 'badinput');
    const noName = await submit(who, { realName: '   ' });
    expect(noName.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect(noName.msg).toContain('Please enter your real name');
    const noNumber = await submit(who, { idCard: '' });
    expect(noNumber.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect(noNumber.msg).toContain('Please enter your ID number');
    const tooLong = await submit(who, { realName: 'a'.repeat(141) });
    expect(tooLong.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    const noFront = await submit(who, {}, { parts: ['reverse', 'avatar'] });
    expect(noFront.msg).toContain('Please upload the front of your document');
    const noBack = await submit(who, {}, { parts: ['front', 'avatar'] });
    expect(noBack.msg).toContain('Please upload the back of your document');
    const noSelfie = await submit(who, {}, { parts: ['front', 'reverse'] });
    expect(noSelfie.msg).toContain('Please upload a selfie holding your document');
    const notAnImage = multipartBody({ metaData: JSON.stringify({ realName: 'A', idCard: 'B', locale: 'en' }) }, [
      { field: 'cardImgFront', filename: 'a.jpg', bytes: Buffer.from('not an image at all'), type: 'image/jpeg' },
      { field: 'cardImgReverse', filename: 'b.jpg', bytes: images.reverse, type: 'image/jpeg' },
      { field: 'cardImgAvatar', filename: 'c.jpg', bytes: images.avatar, type: 'image/jpeg' },
    ]);
    expect((await multipartCall(server, '/v1/waa/user/auth/submit', notAnImage, who.token, newKey())).code).not.toBe(0);
    const noKey = await submit(who, {}, { key: '' });
    expect(noKey.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect(await get(who)).toMatchObject({ verifiedStatus: 0 });
    expect(await items(who)).toHaveLength(0);
    expect(await server.database.db.selectFrom('stored_file').select('id').where('uid', '=', who.uid).execute()).toHaveLength(0);
  });

  it('asks for the e-mail and the document type only when the brand turns them on', async () => {
    const who = await newCustomer(server, 'flags');
    expect((await submit(who, { idType: 1, authEmail: 'ignored@example.com' })).code).toBe(0);
    expect(await get(who)).toMatchObject({ idType: 0, authEmail: '' });
    await setSwitch(server, 'twoTypeVerified', true);
    await setSwitch(server, 'addVerifiedEmail', true);
    try {
      const missing = await submit(who, { idType: 1, authEmail: '' });
      expect(missing.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
      expect(missing.msg).toContain('Please enter a valid e-mail address');
      expect((await submit(who, { idType: 1, authEmail: 'ada@example.com' })).code).toBe(0);
      expect(await get(who)).toMatchObject({ idType: 1, authEmail: 'ada@example.com', verifiedStatus: 1 });
      expect((await openItem(who)).facts).toMatchObject({ 'Document type': 'Passport', 'E-mail': 'ada@example.com' });
    } finally {
      await setSwitch(server, 'twoTypeVerified', false);
      await setSwitch(server, 'addVerifiedEmail', false);
    }
  });

  it('runs a replayed Idempotency-Key once, and parallel submissions leave exactly one open item', async () => {
    const who = await newCustomer(server, 'parallel');
    const key = newKey();
    const same = await Promise.all([submit(who, {}, { key }), submit(who, {}, { key }), submit(who, {}, { key })]);
    expect(same.map((answer) => answer.code)).toEqual([0, 0, 0]);
    expect(await items(who)).toHaveLength(1);
    expect(await server.database.db.selectFrom('identity_submission').select('id').where('uid', '=', who.uid).execute()).toHaveLength(1);

    const other = await newCustomer(server, 'parallel2');
    const distinct = await Promise.all([submit(other), submit(other), submit(other)]);
    expect(distinct.map((answer) => answer.code)).toEqual([0, 0, 0]);
    await openItem(other);
    // The earlier ones are withdrawn from the queue (rejected as replaced), never left for staff.
    expect((await items(other)).filter((item) => item.status !== 'pending').every((item) => item.status === 'rejected')).toBe(true);
    expect(await get(other)).toMatchObject({ verifiedStatus: 1 });
  });

  it('a resubmission while under review replaces the item; a decision racing it keeps to one outcome', async () => {
    const who = await newCustomer(server, 'race');
    expect((await submit(who)).code).toBe(0);
    const first = await openItem(who);
    const [decision, resubmission] = await Promise.all([
      decide(server, compliance.token, { kind: 'identity', id: first.id, decision: 'approve' }),
      submit(who, { realName: 'Late Change' }),
    ]);
    const status = (await get(who)).verifiedStatus;
    if (decision.code === 0) {
      // Staff decided first: the approval stands and the resubmission is refused.
      expect(resubmission.code).toBe(ErrorCode.VERIFICATION_ALREADY_APPROVED);
      expect(status).toBe(2);
    } else {
      // The resubmission came first: the first item was withdrawn, so the decision finds it closed.
      expect(resubmission.code).toBe(0);
      expect(status).toBe(1);
      expect(decision.code).toBe(ErrorCode.REVIEW_ALREADY_DECIDED);
    }
    expect((await items(who)).filter((item) => item.status === 'pending').length).toBeLessThanOrEqual(1);
  });

  it('junior verification: name and number required, its own queue and status, no images, closed once approved', async () => {
    const who = await newCustomer(server, 'junior');
    expect(await get(who, '/v1/waa/user/firstAuth/get')).toMatchObject({ verifiedStatus: 0 });
    const noName = await juniorSubmit(who, { realName: '', idCard: 'J-1' });
    expect(noName.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect(noName.msg).toContain('Please enter your real name');
    expect((await juniorSubmit(who, { realName: 'Jun', idCard: '' })).msg).toContain('Please enter your ID number');
    expect((await juniorSubmit(who, { realName: 'Jun Ior', idCard: 'J-55667788' })).code).toBe(0);
    expect(await get(who, '/v1/waa/user/firstAuth/get')).toMatchObject({ verifiedStatus: 1, realName: 'Jun Ior', idCard: 'J-******88' });
    // The full level is untouched.
    expect(await infoStatus(who)).toBe(0);
    const item = await openItem(who, 'juniorIdentity');
    expect(await items(who, 'identity')).toHaveLength(0);
    const detail = (await staffCall(server, '/v1/staff/reviews/get', { kind: 'juniorIdentity', id: item.id }, compliance.token)).data as { files: unknown[] };
    expect(detail.files).toEqual([]);
    expect((await decide(server, compliance.token, { kind: 'juniorIdentity', id: item.id, decision: 'reject', reason: 'Name does not match' })).code).toBe(0);
    expect(await get(who, '/v1/waa/user/firstAuth/get')).toMatchObject({ verifiedStatus: 3, failReason: 'Name does not match' });
    expect((await notices(who))[0]).toMatchObject({ alarmType: 629007, remark: 'Name does not match' });
    expect((await juniorSubmit(who, { realName: 'Jun Ior', idCard: 'J-55667788' })).code).toBe(0);
    expect((await decide(server, compliance.token, { kind: 'juniorIdentity', id: (await openItem(who, 'juniorIdentity')).id, decision: 'approve' })).code).toBe(0);
    expect(await get(who, '/v1/waa/user/firstAuth/get')).toMatchObject({ verifiedStatus: 2 });
    expect((await juniorSubmit(who, { realName: 'X', idCard: 'Y' })).code).toBe(ErrorCode.VERIFICATION_ALREADY_APPROVED);
    const row = await server.database.db.selectFrom('identity_submission').select(['id_card_sealed']).where('uid', '=', who.uid).execute();
    expect(JSON.stringify(row)).not.toContain('55667788');

    await setSwitch(server, 'user/juniorVerfiy', false);
    try {
      const someone = await newCustomer(server, 'juniorOff');
      expect((await juniorSubmit(someone, { realName: 'A', idCard: 'B' })).code).toBe(ErrorCode.JUNIOR_VERIFICATION_UNAVAILABLE);
    } finally {
      await setSwitch(server, 'user/juniorVerfiy', true);
    }
  });

  it('withdrawals answer 1067 only when the brand requires verification and the customer is not verified', async () => {
    const unverified = await newCustomer(server, 'wnv');
    const verified = await newCustomer(server, 'wv');
    expect((await submit(verified)).code).toBe(0);
    expect((await decide(server, compliance.token, { kind: 'identity', id: (await openItem(verified)).id, decision: 'approve' })).code).toBe(0);
    // Off by default (the ready-to-try brand), and the server's minimum relaxed: nobody is asked.
    expect((await call(server, '/v1/waa/withdraw/status', {}, unverified.token)).code).toBe(0);
    await setSwitch(server, 'withdrawNeedsVerification', true);
    try {
      expect(await call(server, '/v1/waa/withdraw/status', {}, unverified.token)).toMatchObject({ code: ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION, data: { requiredLevel: 'full' } });
      const attempt = await post(
        server.app,
        '/v1/waa/withdraw/submit',
        { num: '100', practicalNum: '99', currencyId: 1, coinId: 1, paymentAddress: 'x', locale: 'en' },
        { authorization: `Bearer ${unverified.token}`, 'idempotency-key': newKey() },
      );
      expect((attempt.json() as { code: number }).code).toBe(ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION);
      expect((await call(server, '/v1/waa/withdraw/status', {}, verified.token)).code).toBe(0);
    } finally {
      await setSwitch(server, 'withdrawNeedsVerification', false);
    }
  });
});
