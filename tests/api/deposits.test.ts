import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FundRecord } from '../../src/shared/api/deposit';
import type { ReviewItem } from '../../src/shared/api/staff';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { money } from '../../src/shared/money/money';
import { maxImageBytes } from '../../src/shared/uploads/image-rules';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { decide, newCustomer } from './reviews-support';
import { tronAddress } from './support/money-controls';
import { createStaffAndSignIn } from './support/staff';
import { getFile, jpegImage, multipartBody, multipartCall, pngImage, storedFileCount } from './uploads-support';

type Customer = Awaited<ReturnType<typeof newCustomer>>;
type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;
type CoinOption = { id: number; currency: string; protocol: string; said: string };

const newKey = () => crypto.randomUUID();

describe.each(testBackends())('deposits on $name', (backend) => {
  let server: TestServer;
  let financeA: Staff;
  let financeB: Staff;
  let compliance: Staff;
  let usdtTrc20: CoinOption;

  beforeAll(async () => {
    // Deposits' four-eyes (two approvers from FOUR_EYES_USD over 24 hours) is tests/api/money-controls.test.ts's; these amounts stay under it.
    server = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', FOUR_EYES_USD: '100000' });
    [financeA, financeB, compliance] = await Promise.all([
      createStaffAndSignIn(server, { roles: ['finance'] }),
      createStaffAndSignIn(server, { roles: ['finance'] }),
      createStaffAndSignIn(server, { roles: ['compliance'] }),
    ]);
    const someone = await newCustomer(server, 'coins');
    const coins = await call(server, '/v1/waa/wallet/coinNetworks', {}, someone.token);
    expect(coins.code, coins.msg).toBe(0);
    const list = (coins.data as { dtoList: CoinOption[] }).dtoList;
    usdtTrc20 = list.find((coin) => coin.currency === 'USDT' && coin.protocol === 'TRC20')!;
    expect(usdtTrc20, 'the seeded USDT TRC20 network').toBeDefined();
  });
  afterAll(async () => {
    await server?.close();
  });

  const submit = async (customer: Customer, meta: Record<string, unknown>, options: { key?: string; proof?: Buffer | null; filename?: string; language?: string } = {}) => {
    const proof = options.proof === undefined ? await jpegImage() : options.proof;
    const body = multipartBody(
      { metaData: JSON.stringify({ coinId: usdtTrc20.id, said: usdtTrc20.said, locale: 'en', ...meta }) },
      proof ? [{ field: 'depositProof', filename: options.filename ?? 'transfer.jpg', bytes: proof, type: 'image/jpeg' }] : [],
    );
    return multipartCall(server, '/v1/waa/deposit/submit', body, customer.token, options.key ?? newKey(), options.language ? { 'accept-language': options.language } : {});
  };

  const records = async (customer: Customer, body: Record<string, unknown> = {}) => {
    const answer = await call(server, '/v1/waa/fund/records', body, customer.token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as { list: FundRecord[]; pages: number };
  };

  const usdtBalance = async (customer: Customer) => {
    const answer = await call(server, '/v1/waa/wallet/balance', {}, customer.token);
    expect(answer.code, answer.msg).toBe(0);
    const line = (answer.data as { list: { currency: string; balance: string }[] }).list.find((item) => item.currency === 'USDT');
    // Exact units: a credit of 2000 must be 2000, not 1999.9999 rounded by a float.
    return money(line?.balance ?? '0');
  };

  const pendingItemOf = async (customer: Customer): Promise<ReviewItem> => {
    const answer = await call(server, '/v1/staff/reviews/list', { kind: 'deposit', status: 'pending', page: 1, limit: 50 }, financeA.token);
    expect(answer.code, answer.msg).toBe(0);
    const item = (answer.data as { list: ReviewItem[] }).list.find((entry) => entry.uid === customer.uid);
    expect(item, 'a pending deposit item of this customer').toBeDefined();
    return item!;
  };

  const notices = async (customer: Customer) => {
    const answer = await call(server, '/v1/waa/notice/list', { page: 1, limit: 10 }, customer.token);
    return (answer.data as { list: { alarmType: number | null; paymentPrice: string | null; content: string; remark: string | null }[] }).list;
  };

  it('gives a customer with an own deposit address (set by finance, audited) walletType 1, the self wallet list, and deposits to that address only', async () => {
    const who = await newCustomer(server, 'selfowned');
    const own = tronAddress();
    const walletType = async () => ((await call(server, '/v1/waa/user/info', {}, who.token)).data as { walletType: number }).walletType;
    const selfList = async () => ((await call(server, '/v1/waa/wallet/selfNetworks', {}, who.token)).data as { dtoList: CoinOption[] }).dtoList;
    expect(await walletType()).toBe(0);
    expect(await selfList()).toEqual([]);
    const set = (address: string, token = financeA.token) => call(server, '/v1/staff/customers/setOwnDepositAddress', { uid: who.uid, coinId: usdtTrc20.id, address, reason: 'custody wallet' }, token);
    expect((await set(own, compliance.token)).code).not.toBe(0);
    const bad = await set('not-an-address');
    expect(bad.code, bad.msg).toBe(ErrorCode.DESTINATION_ADDRESS_INVALID);
    // Attacks: a NUL byte after a good address, the customer's own token on the staff route, a customer no one has.
    expect((await set(`${own}\u0000`)).code).not.toBe(0);
    expect((await call(server, '/v1/staff/customers/setOwnDepositAddress', { uid: who.uid, coinId: usdtTrc20.id, address: own, reason: 'mine' }, who.token)).code).not.toBe(0);
    expect((await call(server, '/v1/staff/customers/setOwnDepositAddress', { uid: 99_999_999, coinId: usdtTrc20.id, address: own, reason: 'nobody' }, financeA.token)).code).not.toBe(0);
    expect(await walletType()).toBe(0);
    expect(await server.database.db.selectFrom('staff_audit').select('id').where('action', '=', 'customers.setOwnDepositAddress').execute()).toHaveLength(0);
    expect((await set(own)).code).toBe(0);
    expect(await walletType()).toBe(1);
    expect(await selfList()).toMatchObject([{ id: usdtTrc20.id, currency: 'USDT', protocol: 'TRC20', address: own, said: own }]);
    const audit = await server.database.db.selectFrom('staff_audit').select(['action', 'after']).where('action', '=', 'customers.setOwnDepositAddress').execute();
    expect(audit).toHaveLength(1);
    // The platform's address is not this customer's deposit address any more; their own is.
    expect((await submit(who, { amt: '1500' })).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await submit(who, { amt: '1500', said: own })).code).toBe(0);
    // Setting the address moves no money: the deposit waits for finance's review like any other.
    expect((await pendingItemOf(who)).status).toBe('pending');
    expect((await set('')).code).toBe(0);
    expect(await walletType()).toBe(0);
    expect((await submit(who, { amt: '1500' })).code).toBe(0);
  });

  it('queues a submitted deposit for finance with its facts and the proof, readable by finance only', async () => {
    const customer = await newCustomer(server, 'depositor');
    const answer = await submit(customer, { amt: '1500.5' });
    expect(answer.code, answer.msg).toBe(0);
    expect((await records(customer)).list).toMatchObject([{ actionType: 0, currency: 'USDT', network: 'TRC20', payPrice: '1500.50', depositUsdPrice: '1500.50', payState: 0, failReason: null }]);
    const item = await pendingItemOf(customer);
    expect(item).toMatchObject({ kind: 'deposit', status: 'pending', amountUsd: '1500.50', facts: { currency: 'USDT', network: 'TRC20', amount: '1500.50' } });
    const detail = await call(server, '/v1/staff/reviews/get', { kind: 'deposit', id: item.id }, financeA.token);
    const files = (detail.data as { files: { name: string; url: string }[] }).files;
    expect(files).toHaveLength(1);
    const proof = await getFile(server, files[0]!.url, financeA.token);
    expect(proof.status).toBe(200);
    expect((await sharp(proof.bytes).metadata()).format).toBe('jpeg');
    // Compliance reviews no deposit: the same 404 as a missing file.
    expect((await getFile(server, files[0]!.url, compliance.token)).status).toBe(404);
    // The customer reads their own proof back.
    expect((await getFile(server, files[0]!.url.replace('/v1/staff/file/', '/v1/waa/file/'), customer.token)).status).toBe(200);
  });

  it('words a refusal under the minimum deposit with its own reason in the customer\'s language, and records nothing', async () => {
    const customer = await newCustomer(server, 'under-minimum');
    const english = await submit(customer, { amt: '999.99999', locale: 'en' }, { language: 'en-GB,en;q=0.8' });
    expect(english).toMatchObject({ code: ErrorCode.INCORRECT_PARAMETER_VALUE, msg: 'The minimum deposit is 1000 USD (1016)', contentLanguage: 'en' });
    // German's own minimum (30 USD), in German words: the app shows them since the answer says it is German.
    const german = await submit(customer, { amt: '29.5', locale: 'de' }, { language: 'de-DE,de;q=0.9,en;q=0.5' });
    expect(german).toMatchObject({ code: ErrorCode.INCORRECT_PARAMETER_VALUE, msg: 'Die Mindesteinzahlung beträgt 30 USD (1016)', contentLanguage: 'de' });
    expect(german.msg).not.toContain('Parameter');
    expect((await records(customer)).list).toEqual([]);
    expect(await usdtBalance(customer)).toBe(0n);
  });

  it('credits the wallet exactly once when two finance members approve in parallel', async () => {
    const customer = await newCustomer(server, 'approved');
    expect((await submit(customer, { amt: '2000' })).code).toBe(0);
    const item = await pendingItemOf(customer);
    const before = await usdtBalance(customer);
    const answers = await Promise.all([financeA, financeB].map((member) => decide(server, member.token, { kind: 'deposit', id: item.id, decision: 'approve' })));
    expect(answers.map((answer) => answer.code).sort()).toEqual([0, ErrorCode.REVIEW_ALREADY_DECIDED]);
    expect(await usdtBalance(customer)).toBe(before + money('2000'));
    expect((await records(customer)).list[0]).toMatchObject({ payState: 1, failReason: null });
    expect((await notices(customer))[0]).toMatchObject({ paymentPrice: '2000.00' });
  });

  it('rejects with the reason: payState 2, no credit, notice 629006 with the amount', async () => {
    const customer = await newCustomer(server, 'rejected');
    expect((await submit(customer, { amt: '1200' })).code).toBe(0);
    const item = await pendingItemOf(customer);
    const answer = await decide(server, financeA.token, { kind: 'deposit', id: item.id, decision: 'reject', reason: 'no transfer found' });
    expect(answer.code, answer.msg).toBe(0);
    expect(await usdtBalance(customer)).toBe(0n);
    expect((await records(customer, { status: 2 })).list).toMatchObject([{ payState: 2, failReason: 'no transfer found' }]);
    expect((await records(customer, { status: 0 })).list).toEqual([]);
    expect((await notices(customer))[0]).toMatchObject({ alarmType: 629006, paymentPrice: '1200.00', remark: 'no transfer found' });
  });

  it('answers a replayed Idempotency-Key as the first call and records one deposit, also in parallel', async () => {
    const customer = await newCustomer(server, 'replayed');
    const key = newKey();
    expect((await submit(customer, { amt: '1000' }, { key })).code).toBe(0);
    expect((await submit(customer, { amt: '1000' }, { key })).code).toBe(0);
    const parallelKey = newKey();
    const parallel = await Promise.all([1, 2, 3].map(() => submit(customer, { amt: '3000' }, { key: parallelKey })));
    expect(parallel.map((answer) => answer.code)).toEqual([0, 0, 0]);
    expect((await records(customer)).list.map((record) => record.payPrice)).toEqual(['3000.00', '1000.00']);
    const missingKey = await multipartCall(server, '/v1/waa/deposit/submit', multipartBody({ metaData: JSON.stringify({ coinId: usdtTrc20.id, amt: '1000', said: '', locale: 'en' }) }, []), customer.token);
    expect(missingKey.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
  });

  it("refuses below the minimum of the customer's language (1000 USD in English, 30 in German) and changes nothing", async () => {
    const customer = await newCustomer(server, 'minimum');
    const files = await storedFileCount(server);
    const english = await submit(customer, { amt: '999.99999', locale: 'en' });
    expect(english).toMatchObject({ code: ErrorCode.INCORRECT_PARAMETER_VALUE });
    expect(english.msg).toContain('1000');
    expect((await submit(customer, { amt: '29.9', locale: 'de' })).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
    expect((await records(customer)).list).toEqual([]);
    expect(await storedFileCount(server)).toBe(files);
    expect((await submit(customer, { amt: '30', locale: 'de' })).code).toBe(0);
  });

  it('refuses bad amounts, a missing proof, a non-image and an oversize proof, storing nothing', async () => {
    const customer = await newCustomer(server, 'refused');
    const files = await storedFileCount(server);
    expect((await submit(customer, { amt: '.5' })).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await submit(customer, { amt: '1000.123456' })).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await submit(customer, { amt: '0' })).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await submit(customer, { amt: '1000' }, { proof: null })).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await submit(customer, { amt: '1000' }, { proof: Buffer.from('not an image at all'), filename: 'x.jpg' })).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    const oversize = Buffer.concat([await pngImage(), Buffer.alloc(maxImageBytes)]);
    const tooLarge = await submit(customer, { amt: '1000' }, { proof: oversize, filename: 'big.png' });
    expect(tooLarge).toMatchObject({ status: 413, code: ErrorCode.INCORRECT_PARAMETER_CONTENT });
    expect(tooLarge.msg).toContain('Image upload limit exceeded');
    expect((await records(customer)).list).toEqual([]);
    expect(await storedFileCount(server)).toBe(files);
  });

  it('refuses deposits for an account they are turned off for, and deposit/status says so', async () => {
    const customer = await newCustomer(server, 'blocked');
    expect((await call(server, '/v1/waa/deposit/status', {}, customer.token)).data).toEqual({ enabled: true });
    await server.database.db.insertInto('deposit_block').values({ uid: customer.uid, reason: 'chargeback' }).execute();
    expect((await call(server, '/v1/waa/deposit/status', {}, customer.token)).data).toEqual({ enabled: false });
    expect((await submit(customer, { amt: '1000' })).code).toBe(ErrorCode.WALLET_DEPOSIT_ERROR);
    expect((await records(customer)).list).toEqual([]);
  });
});

describe.each(testBackends())('deposits turned off by setting on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { DEPOSITS_ENABLED: '0' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers disabled and refuses every submission', async () => {
    const customer = await newCustomer(server, 'off');
    expect((await call(server, '/v1/waa/deposit/status', {}, customer.token)).data).toEqual({ enabled: false });
    const body = multipartBody({ metaData: JSON.stringify({ coinId: 1, amt: '5000', said: '', locale: 'en' }) }, [{ field: 'depositProof', filename: 'a.jpg', bytes: await jpegImage() }]);
    expect((await multipartCall(server, '/v1/waa/deposit/submit', body, customer.token, newKey())).code).toBe(ErrorCode.WALLET_DEPOSIT_ERROR);
  });
});
