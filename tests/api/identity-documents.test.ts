import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewItem } from '../../src/shared/api/staff';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { decide, newCustomer } from './reviews-support';
import { createStaffAndSignIn, staffCall } from './support/staff';
import { jpegImage, multipartBody, multipartCall } from './uploads-support';

type Customer = Awaited<ReturnType<typeof newCustomer>>;
type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;

/**
 * One person, one verified identity (issue 31, finding 8: one person long on one account and
 * short on another took 3,490 USD from the house through a gap). A document number that
 * verified one account is refused on another, at submission and at approval, compared by a
 * keyed hash: the numbers stay sealed and are never decrypted to compare.
 */
describe.each(testBackends())('one verified identity per document on $name', (backend) => {
  let server: TestServer;
  let compliance: Staff;
  let numbers = 0;
  /** A document number no other test of this run uses. */
  const freshNumber = () => `P${Date.now().toString(36).toUpperCase()}${(numbers += 1)}`;

  beforeAll(async () => {
    server = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' });
    compliance = await createStaffAndSignIn(server, { roles: ['compliance'] });
  });
  afterAll(async () => {
    await server?.close();
  });

  const junior = async (who: Customer, idCard: string) => {
    const response = await post(server.app, '/v1/waa/user/firstAuth/submit', { realName: 'Sam Lee', idCard, locale: 'en' }, { authorization: `Bearer ${who.token}`, 'idempotency-key': crypto.randomUUID() });
    return response.json() as { code: number; msg: string };
  };
  const full = async (who: Customer, idCard: string) => {
    const body = multipartBody({ metaData: JSON.stringify({ realName: 'Sam Lee', idCard, authEmail: '', idType: 0, locale: 'en' }) }, [
      { field: 'cardImgFront', filename: 'front.jpg', bytes: await jpegImage(400, 250), type: 'image/jpeg' },
      { field: 'cardImgReverse', filename: 'reverse.jpg', bytes: await jpegImage(410, 260), type: 'image/jpeg' },
      { field: 'cardImgAvatar', filename: 'avatar.jpg', bytes: await jpegImage(300, 400), type: 'image/jpeg' },
    ]);
    return multipartCall(server, '/v1/waa/user/auth/submit', body, who.token, crypto.randomUUID());
  };
  const openItem = async (who: Customer, kind: 'identity' | 'juniorIdentity') => {
    const answer = await staffCall(server, '/v1/staff/reviews/list', { kind, page: 1, limit: 100 }, compliance.token);
    expect(answer.code, answer.msg).toBe(0);
    const open = (answer.data as { list: ReviewItem[] }).list.filter((item) => item.uid === who.uid && item.status === 'pending');
    expect(open, 'one open item').toHaveLength(1);
    return open[0]!;
  };
  const approve = async (who: Customer, kind: 'identity' | 'juniorIdentity') => decide(server, compliance.token, { kind, id: (await openItem(who, kind)).id, decision: 'approve' });
  const statusOf = async (who: Customer, path: string) => ((await post(server.app, path, {}, { authorization: `Bearer ${who.token}` })).json() as { data: { verifiedStatus: number } }).data.verifiedStatus;
  const submissionsOf = async (uid: number) => (await server.database.db.selectFrom('identity_submission').select('id').where('uid', '=', uid).execute()).length;
  const refusal = { code: ErrorCode.DOCUMENT_VERIFIED_ELSEWHERE, msg: expect.stringContaining('already verifies another account') };

  it('refuses a second account the number that verified the first, however it is typed, storing nothing', async () => {
    const number = freshNumber();
    const first = await newCustomer(server, 'firstId');
    expect((await junior(first, number)).code).toBe(0);
    expect((await approve(first, 'juniorIdentity')).code).toBe(0);

    const second = await newCustomer(server, 'secondId');
    const spaced = `${number.slice(0, 3)} ${number.slice(3).toLowerCase()}`;
    expect(await junior(second, number)).toMatchObject(refusal);
    expect(await junior(second, spaced)).toMatchObject(refusal);
    expect(await full(second, `${number.slice(0, 2)}-${number.slice(2)}`)).toMatchObject(refusal);
    expect(await submissionsOf(second.uid)).toBe(0);
    expect(await statusOf(second, '/v1/waa/user/firstAuth/get')).toBe(0);

    // The same person goes on to the full level with the same document.
    expect((await full(first, number)).code).toBe(0);
    expect((await approve(first, 'identity')).code).toBe(0);
    expect(await statusOf(first, '/v1/waa/user/auth/get')).toBe(2);

    // Compared by a keyed hash: neither the number nor its plain hash is stored.
    const plainHash = crypto.createHash('sha256').update(number).digest();
    const stored = JSON.stringify([
      await server.database.db.selectFrom('verified_document').selectAll().execute(),
      await server.database.db.selectFrom('identity_submission').select('document_digest').execute(),
    ]);
    expect(stored).not.toContain(number);
    expect(stored).not.toContain(plainHash.toString('hex'));
    expect(stored).not.toContain(plainHash.toString('base64url'));
  });

  it('approves only the first of two accounts that submitted one number while both waited; the second decision changes nothing', async () => {
    const number = freshNumber();
    const [one, two] = await Promise.all([newCustomer(server, 'raceA'), newCustomer(server, 'raceB')]);
    expect((await junior(one, number)).code).toBe(0);
    expect((await junior(two, number)).code).toBe(0);
    const [itemOne, itemTwo] = [await openItem(one, 'juniorIdentity'), await openItem(two, 'juniorIdentity')];
    const answers = await Promise.all([
      decide(server, compliance.token, { kind: 'juniorIdentity', id: itemOne.id, decision: 'approve' }),
      decide(server, compliance.token, { kind: 'juniorIdentity', id: itemTwo.id, decision: 'approve' }),
    ]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([0, ErrorCode.DOCUMENT_VERIFIED_ELSEWHERE]);
    const [statusOne, statusTwo] = [await statusOf(one, '/v1/waa/user/firstAuth/get'), await statusOf(two, '/v1/waa/user/firstAuth/get')];
    expect([statusOne, statusTwo].sort()).toEqual([1, 2]);
    // The refused one still waits for compliance, who can reject it with a reason.
    const refusedItem = await openItem(statusOne === 1 ? one : two, 'juniorIdentity');
    expect((await decide(server, compliance.token, { kind: 'juniorIdentity', id: refusedItem.id, decision: 'reject', reason: 'Document verified on another account' })).code).toBe(0);
  });
});
