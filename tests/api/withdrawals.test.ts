import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { HouseAccountKind, UserAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { decodeField, encodeField } from '../../src/shared/money/encoded-field';
import { formatMoney, money } from '../../src/shared/money/money';
import { readAccessToken } from '../../src/shared/session/token';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { decide, decided, newCustomer } from './reviews-support';
import { saveAddress, tronAddress, verifyJunior } from './support/money-controls';
import { createStaffAndSignIn } from './support/staff';
import de from '../../src/shared/i18n/locales/de.json';

type Customer = Awaited<ReturnType<typeof newCustomer>> & { aesKey: string; address: string };
type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;
interface CoinNetwork {
  id: number;
  currencyId: number;
  currency: string;
  protocol: string;
}
interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

/** A money call as the app makes it: the bearer token and, where the call needs one, a fresh Idempotency-Key. */
async function moneyCall(server: TestServer, path: string, body: unknown, token: string, idempotencyKey?: string, language?: string): Promise<Envelope> {
  const response = await post(server.app, path, body, {
    authorization: `Bearer ${token}`,
    ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    ...(language ? { 'accept-language': language } : {}),
  });
  return response.json() as Envelope;
}

describe.each(testBackends())('withdrawals on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let financeA: Staff;
  let financeB: Staff;
  let compliance: Staff;
  let usdtTrc20: CoinNetwork;

  const customer = async (): Promise<Customer> => {
    const session = await newCustomer(server, 'withdrawer');
    return { ...session, aesKey: readAccessToken(session.token)!.aesKey, address: tronAddress() };
  };
  /** A customer who may withdraw: junior-verified (the default minimum), with their address saved. */
  const withdrawer = async (): Promise<Customer> => {
    const who = await customer();
    await verifyJunior(server, who, compliance.token);
    const saved = await saveAddress(server, who, usdtTrc20.id, who.address);
    expect(saved.code, saved.msg).toBe(0);
    return who;
  };
  const fund = (uid: number, amount: string) =>
    server.database.db.transaction().execute((trx) => ledger.creditWalletDeposit(trx, { uid, currency: 'USDT', amount: money(amount), key: `test-wallet-deposit:${crypto.randomUUID()}` }));
  const walletOf = async (uid: number) => formatMoney((await ledger.walletBalances(uid)).get('USDT') ?? 0n);
  const heldOf = async (uid: number) => formatMoney(await ledger.balance({ owner: uid, book: 'real', kind: UserAccountKind.withdrawalHold, currency: 'USDT' }));
  const house = async (kind: string) => formatMoney(await ledger.balance({ owner: null, book: 'real', kind: kind as never, currency: 'USDT' }));
  const quote = (who: Customer, num: string) => moneyCall(server, '/v1/waa/withdraw/walletCalculate', { currencyId: usdtTrc20.currencyId, coinId: usdtTrc20.id, num }, who.token);
  const withdraw = (who: Customer, num: string, practicalNum: string, key: string = crypto.randomUUID(), language?: string) =>
    moneyCall(
      server,
      '/v1/waa/withdraw/submit',
      { num, practicalNum, currencyId: usdtTrc20.currencyId, coinId: usdtTrc20.id, paymentAddress: encodeField(who.address, who.aesKey), locale: 'en' },
      who.token,
      key,
      language,
    );
  const reviewOf = async (uid: number) =>
    server.database.db.selectFrom('withdrawal').innerJoin('review_item', (join) => join.on('review_item.kind', '=', 'withdrawal').onRef('review_item.subject_ref', '=', (eb) => eb.cast('withdrawal.id', 'text'))).select(['withdrawal.id as withdrawalId', 'review_item.id as reviewId', 'review_item.status', 'withdrawal.status as withdrawalStatus']).where('withdrawal.uid', '=', uid).orderBy('withdrawal.id').execute();
  const audit = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];

  beforeAll(async () => {
    // The cooling-off after a new address is tests/api/money-controls.test.ts's subject; here it is off.
    server = await startTestServer(backend, { FOUR_EYES_USD: '1000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', SWITCHES: 'BANK_CARD_WITHDRAW=1', WITHDRAWAL_HOLD_SECONDS: '0' });
    ledger = createLedger(server.database.db);
    financeA = await createStaffAndSignIn(server, { roles: ['finance'] });
    financeB = await createStaffAndSignIn(server, { roles: ['finance'] });
    compliance = await createStaffAndSignIn(server, { roles: ['compliance'] });
    const probe = await customer();
    const networks = (await call(server, '/v1/waa/wallet/coinNetworks', {}, probe.token)).data as { dtoList: CoinNetwork[] };
    usdtTrc20 = networks.dtoList.find((network) => network.currency === 'USDT' && network.protocol === 'TRC20')!;
    expect(usdtTrc20).toBeDefined();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps a saved address encoded on the wire, sealed at rest, and only for its owner', async () => {
    const owner = await customer();
    const stranger = await customer();
    const address = owner.address;
    const added = await moneyCall(server, '/v1/waa/wallet/crypto/insert', { currencyId: usdtTrc20.id, cryptocurrencyAddress: encodeField(address, owner.aesKey) }, owner.token, crypto.randomUUID());
    expect(added.code, added.msg).toBe(0);
    const listed = (await call(server, '/v1/waa/wallet/crypto/all', { pageNum: 1, pageSize: 1000 }, owner.token)).data as { list: { walletId: number; currencyName: string; protocol: string; cryptocurrencyAddress: string }[] };
    expect(listed.list).toHaveLength(1);
    const saved = listed.list[0]!;
    expect(saved).toMatchObject({ currencyName: 'USDT', protocol: 'TRC20' });
    expect(saved.cryptocurrencyAddress).not.toBe(address);
    expect(decodeField(saved.cryptocurrencyAddress, owner.aesKey)).toBe(address);

    // The table's bytes: sealed, never the address in clear, with the key that sealed it.
    const row = await server.database.db.selectFrom('saved_crypto_address').selectAll().where('id', '=', saved.walletId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(address);
    expect(row.key_id).toMatch(/^[\w-]{12}$/);

    // Another customer neither sees nor deletes it: not found, as for an id that does not exist.
    expect(((await call(server, '/v1/waa/wallet/crypto/all', {}, stranger.token)).data as { list: unknown[] }).list).toEqual([]);
    expect((await call(server, '/v1/waa/wallet/crypto/delete', { walletId: saved.walletId }, stranger.token)).code).toBe(ErrorCode.DATA_NOT_FOUND);
    expect((await call(server, '/v1/waa/wallet/crypto/delete', { walletId: 999_999 }, stranger.token)).code).toBe(ErrorCode.DATA_NOT_FOUND);
    expect((await call(server, '/v1/waa/wallet/crypto/delete', { walletId: saved.walletId }, owner.token)).code).toBe(0);
    expect(((await call(server, '/v1/waa/wallet/crypto/all', {}, owner.token)).data as { list: unknown[] }).list).toEqual([]);
  });

  it('refuses an address not encoded under the session key, and an insert without an Idempotency-Key, saving nothing', async () => {
    const owner = await customer();
    const plain = await moneyCall(server, '/v1/waa/wallet/crypto/insert', { currencyId: usdtTrc20.id, cryptocurrencyAddress: encodeField(owner.address, 'another16bytekey') }, owner.token, crypto.randomUUID());
    expect(plain.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    const keyless = await moneyCall(server, '/v1/waa/wallet/crypto/insert', { currencyId: usdtTrc20.id, cryptocurrencyAddress: encodeField(owner.address, owner.aesKey) }, owner.token);
    expect(keyless.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect(((await call(server, '/v1/waa/wallet/crypto/all', {}, owner.token)).data as { list: unknown[] }).list).toEqual([]);
  });

  it('saves a bank card with its personal fields sealed, shows the account by its last 4 digits, and refuses another user', async () => {
    const owner = await customer();
    const stranger = await customer();
    const personal = { name: 'Mina Park', account: '110-234-567890', address: '12 Sejong-daero, Seoul', idNumber: 'M12345678', phoneNumber: '821012345678' };
    const encoded = Object.fromEntries(Object.entries(personal).map(([field, value]) => [field, encodeField(value, owner.aesKey)]));
    const card = { bankName: 'kb', bankCode: '004', swiftCode: 'CZNBKRSE', bankCountry: 'KR', ...encoded };
    expect((await moneyCall(server, '/v1/waa/bankCard/insert', card, owner.token, crypto.randomUUID())).code).toBe(0);
    const list = ((await call(server, '/v1/waa/bankCard/all', { page: 1, limit: 1000 }, owner.token)).data as { list: { id: number; bankName: string; accountMasked: string }[] }).list;
    expect(list).toEqual([{ id: expect.any(Number), bankName: 'kb', accountMasked: '****7890' }]);
    const id = list[0]!.id;

    const one = (await call(server, '/v1/waa/bankCard/one', { id }, owner.token)).data as Record<string, string>;
    for (const [field, value] of Object.entries(personal)) expect(decodeField(one[field]!, owner.aesKey)).toBe(value);
    expect(one).toMatchObject({ bankName: 'kb', swiftCode: 'CZNBKRSE', bankCountry: 'KR' });

    const row = await server.database.db.selectFrom('bank_card').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    for (const value of Object.values(personal)) expect(stored).not.toContain(value);

    // Another user: not found on read, change and delete, and the card is unchanged.
    expect((await call(server, '/v1/waa/bankCard/one', { id }, stranger.token)).code).toBe(ErrorCode.DATA_NOT_FOUND);
    const strangerFields = Object.fromEntries(Object.entries(personal).map(([field]) => [field, encodeField('stolen', stranger.aesKey)]));
    const hijack = { ...card, ...strangerFields, bankName: 'stolen', id };
    expect((await moneyCall(server, '/v1/waa/bankCard/update', hijack, stranger.token, crypto.randomUUID())).code).toBe(ErrorCode.DATA_NOT_FOUND);
    expect((await call(server, '/v1/waa/bankCard/delete', { id }, stranger.token)).code).toBe(ErrorCode.DATA_NOT_FOUND);
    expect(((await call(server, '/v1/waa/bankCard/one', { id }, owner.token)).data as { bankName: string }).bankName).toBe('kb');

    // The owner edits, then deletes.
    const edited = { ...card, id, account: encodeField('110-234-000111', owner.aesKey) };
    expect((await moneyCall(server, '/v1/waa/bankCard/update', edited, owner.token, crypto.randomUUID())).code).toBe(0);
    expect(((await call(server, '/v1/waa/bankCard/all', {}, owner.token)).data as { list: { accountMasked: string }[] }).list[0]!.accountMasked).toBe('****0111');
    // The specification's paging names are taken too; two pairs that disagree are refused.
    expect(((await call(server, '/v1/waa/bankCard/all', { pageNum: 1, pageSize: 1000 }, owner.token)).data as { list: unknown[] }).list).toHaveLength(1);
    expect((await call(server, '/v1/waa/bankCard/all', { page: 1, pageNum: 2 }, owner.token)).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await call(server, '/v1/waa/bankCard/delete', { id }, owner.token)).code).toBe(0);
    expect((await call(server, '/v1/waa/bankCard/one', { id }, owner.token)).code).toBe(ErrorCode.DATA_NOT_FOUND);
  });

  it('quotes the coin fee, what arrives and the balance after, and names both bounds outside them', async () => {
    const who = await withdrawer();
    await fund(who.uid, '500');
    const answer = await quote(who, '120');
    expect(answer.code, answer.msg).toBe(0);
    expect(answer.data).toEqual({ feeType: 'FIX_AMOUNT', feeNum: '1.00', feeUsd: '1.00', practical: '119.00', isOver: false, afterBalance: '380.00', practicalUsd: '119.00', afterBalanceUsd: '380.00' });
    expect(((await quote(who, '600')).data as { isOver: boolean }).isOver).toBe(true);
    const low = await quote(who, '49');
    expect(low.code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
    expect(low.data).toEqual({ min: '50.00', max: '10000000.00' });
    // coinId is optional (the specification): a currency on several enabled networks (USDT: TRC20
    // and ERC20) is asked for the network, never quoted on a guessed one; on one, it is quoted on it.
    const withoutCoin = () => moneyCall(server, '/v1/waa/withdraw/walletCalculate', { currencyId: usdtTrc20.currencyId, num: '120' }, who.token);
    expect((await withoutCoin()).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    const db = server.database.db;
    await db.updateTable('coin_network').set({ enabled: false }).where('currency_id', '=', usdtTrc20.currencyId).where('id', '<>', usdtTrc20.id).execute();
    try {
      expect((await withoutCoin()).data).toEqual(answer.data);
    } finally {
      await db.updateTable('coin_network').set({ enabled: true }).where('currency_id', '=', usdtTrc20.currencyId).execute();
    }
  });

  it('answers the bounds it enforces: the coin\'s within 50 – 10,000,000 USD, as the range hint shows them', async () => {
    const who = await withdrawer();
    const db = server.database.db;
    const bounds = () => moneyCall(server, '/v1/waa/withdraw/bounds', { currencyId: usdtTrc20.currencyId, coinId: usdtTrc20.id }, who.token);
    expect((await bounds()).data).toEqual({ min: '50.00', max: '10000000.00' });
    const network = await db.selectFrom('coin_network').select(['min_withdraw', 'max_withdraw']).where('id', '=', usdtTrc20.id).executeTakeFirstOrThrow();
    // A coin allowing more than the USD limits: the server (and so the hint) keeps to them.
    await db.updateTable('coin_network').set({ min_withdraw: '10', max_withdraw: '20000000' }).where('id', '=', usdtTrc20.id).execute();
    try {
      expect((await bounds()).data).toEqual({ min: '50.00', max: '10000000.00' });
      expect((await quote(who, '10000001')).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
    } finally {
      await db.updateTable('coin_network').set({ min_withdraw: String(network.min_withdraw), max_withdraw: String(network.max_withdraw) }).where('id', '=', usdtTrc20.id).execute();
    }
    // Another currency's id for the network, or an unknown network: not found.
    expect((await moneyCall(server, '/v1/waa/withdraw/bounds', { currencyId: usdtTrc20.currencyId + 100, coinId: usdtTrc20.id }, who.token)).code).toBe(ErrorCode.CURRENCY_NOT_FOUND);
  });

  it('quotes and places a withdrawal on a network whose fee type is empty (the specification: no fee)', async () => {
    const who = await withdrawer();
    await fund(who.uid, '500');
    const db = server.database.db;
    const network = await db.selectFrom('coin_network').select(['withdraw_fee_type', 'withdraw_fee']).where('id', '=', usdtTrc20.id).executeTakeFirstOrThrow();
    await db.updateTable('coin_network').set({ withdraw_fee_type: '', withdraw_fee: '0' }).where('id', '=', usdtTrc20.id).execute();
    try {
      const listed = await call(server, '/v1/waa/wallet/coinNetworks', {}, who.token);
      expect(listed.code, listed.msg).toBe(0);
      expect((listed.data as { dtoList: { id: number; feeType: string }[] }).dtoList.find((item) => item.id === usdtTrc20.id)?.feeType).toBe('');
      const answer = await quote(who, '120');
      expect(answer.code, answer.msg).toBe(0);
      expect(answer.data).toMatchObject({ feeType: '', feeNum: '0.00', feeUsd: '0.00', practical: '120.00', afterBalance: '380.00' });
      const placed = await withdraw(who, '120', '120.00');
      expect(placed.code, placed.msg).toBe(0);
      expect(await heldOf(who.uid)).toBe('120.00');
    } finally {
      await db.updateTable('coin_network').set({ withdraw_fee_type: network.withdraw_fee_type, withdraw_fee: String(network.withdraw_fee) }).where('id', '=', usdtTrc20.id).execute();
    }
  });

  it('refuses the second of two simultaneous withdrawals with 1070 in the reader\'s language, holding only the first', async () => {
    const who = await withdrawer();
    await fund(who.uid, '500');
    const answers = await Promise.all([withdraw(who, '100', '99', crypto.randomUUID(), 'de'), withdraw(who, '100', '99', crypto.randomUUID(), 'de')]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([0, ErrorCode.WITHDRAWAL_UNDER_REVIEW]);
    expect(answers.find((answer) => answer.code !== 0)?.msg).toContain(de.errors['1070']);
    expect(await walletOf(who.uid)).toBe('400.00');
    expect(await heldOf(who.uid)).toBe('100.00');
    expect(await reviewOf(who.uid)).toHaveLength(1);
  });

  it('holds one of 20 parallel withdrawals (one under review at a time), and never below zero', async () => {
    const who = await withdrawer();
    await fund(who.uid, '1050');
    const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(who, '100', '99')));
    expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
    expect(answers.filter((answer) => answer.code !== 0).every((answer) => answer.code === ErrorCode.WITHDRAWAL_UNDER_REVIEW)).toBe(true);
    expect(await walletOf(who.uid)).toBe('950.00');
    expect(await heldOf(who.uid)).toBe('100.00');
    const reviews = await reviewOf(who.uid);
    expect(reviews).toHaveLength(1);
    expect(reviews.every((review) => review.status === 'pending' && review.withdrawalStatus === 'pending')).toBe(true);

    // The balance check holds too: all of 1,000 when 950 is left is refused, holding nothing more.
    const [first] = reviews;
    await decided(server, financeA.token, { kind: 'withdrawal', id: first!.reviewId, decision: 'reject', reason: 'test' }, 'rejected');
    expect((await withdraw(who, '1051', '1050')).code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(await heldOf(who.uid)).toBe('0.00');
    expect(await walletOf(who.uid)).toBe('1050.00');
    expect(await audit()).toEqual([]);
  });

  it('answers a replayed Idempotency-Key with the first answer and holds once', async () => {
    const who = await withdrawer();
    await fund(who.uid, '300');
    const key = crypto.randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => withdraw(who, '100', '99', key)));
    expect(answers.map((answer) => answer.code)).toEqual([0, 0, 0]);
    expect(await walletOf(who.uid)).toBe('200.00');
    expect(await reviewOf(who.uid)).toHaveLength(1);
  });

  it('refuses a practical amount other than the fee gives, and an amount over the balance, holding nothing', async () => {
    const who = await withdrawer();
    await fund(who.uid, '100');
    // Told why: the fee the customer did not see, not the code's generic "Incorrect parameter value".
    expect(await withdraw(who, '100', '100')).toMatchObject({ code: ErrorCode.INCORRECT_PARAMETER_VALUE, msg: 'The fee has changed: check what you will receive and submit again (1016)' });
    expect((await withdraw(who, '101', '100')).code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(await walletOf(who.uid)).toBe('100.00');
    expect(await reviewOf(who.uid)).toEqual([]);
  });

  it('pays an approved withdrawal once (amount less fee out, fee to the house) and releases a rejected one with notice 629005', async () => {
    const who = await withdrawer();
    await fund(who.uid, '400');
    const paidBefore = money(await house(HouseAccountKind.withdrawals));
    const feesBefore = money(await house(HouseAccountKind.fees));
    expect((await withdraw(who, '100', '99')).code).toBe(0);
    const [first] = await reviewOf(who.uid);

    await decided(server, financeA.token, { kind: 'withdrawal', id: first!.reviewId, decision: 'approve' }, 'approved');
    expect(await heldOf(who.uid)).toBe('0.00');
    expect(money(await house(HouseAccountKind.withdrawals)) - paidBefore).toBe(money('99'));
    expect(money(await house(HouseAccountKind.fees)) - feesBefore).toBe(money('1'));

    // One under review at a time: the second is placed once the first is decided.
    expect((await withdraw(who, '200', '199')).code).toBe(0);
    const [, second] = await reviewOf(who.uid);
    expect(await heldOf(who.uid)).toBe('200.00');

    await decided(server, financeB.token, { kind: 'withdrawal', id: second!.reviewId, decision: 'reject', reason: 'address on a sanctions list' }, 'rejected');
    expect(await heldOf(who.uid)).toBe('0.00');
    expect(await walletOf(who.uid)).toBe('300.00');
    expect((await reviewOf(who.uid)).map((review) => review.withdrawalStatus)).toEqual(['paid', 'rejected']);
    const notices = ((await call(server, '/v1/waa/notice/list', { page: 1, limit: 10 }, who.token)).data as { list: { alarmType: number; paymentPrice: string; remark: string | null }[] }).list;
    expect(notices).toContainEqual(expect.objectContaining({ alarmType: 629005, paymentPrice: '200.00', remark: 'address on a sanctions list' }));
    // A decided item cannot be decided again: the payout stays single.
    expect((await decide(server, financeB.token, { kind: 'withdrawal', id: first!.reviewId, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_ALREADY_DECIDED);
    expect(await audit()).toEqual([]);
  });

  it('needs two different finance staff for a withdrawal of FOUR_EYES_USD or more', async () => {
    const who = await withdrawer();
    await fund(who.uid, '2000');
    expect((await withdraw(who, '1500', '1499')).code).toBe(0);
    const [large] = await reviewOf(who.uid);
    await decided(server, financeA.token, { kind: 'withdrawal', id: large!.reviewId, decision: 'approve' }, 'awaiting_second');
    expect(await heldOf(who.uid)).toBe('1500.00');
    expect((await decide(server, financeA.token, { kind: 'withdrawal', id: large!.reviewId, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_SAME_APPROVER);
    await decided(server, financeB.token, { kind: 'withdrawal', id: large!.reviewId, decision: 'approve' }, 'approved');
    expect(await heldOf(who.uid)).toBe('0.00');
    expect(await walletOf(who.uid)).toBe('500.00');
    expect(await audit()).toEqual([]);
  });

  it('lets the customer cancel while under review (the hold released), never after a decision', async () => {
    const who = await withdrawer();
    await fund(who.uid, '300');
    expect((await withdraw(who, '100', '99')).code).toBe(0);
    const [decidedOne] = await reviewOf(who.uid);
    await decided(server, financeA.token, { kind: 'withdrawal', id: decidedOne!.reviewId, decision: 'approve' }, 'approved');
    expect((await withdraw(who, '100', '99')).code).toBe(0);
    const [, open] = await reviewOf(who.uid);

    expect((await call(server, '/v1/waa/withdraw/cancel', { id: open!.withdrawalId }, who.token)).code).toBe(0);
    expect(await walletOf(who.uid)).toBe('200.00');
    expect(await heldOf(who.uid)).toBe('0.00');
    expect((await reviewOf(who.uid)).map((review) => [review.status, review.withdrawalStatus])).toEqual([
      ['approved', 'paid'],
      ['rejected', 'canceled'],
    ]);
    expect((await call(server, '/v1/waa/withdraw/cancel', { id: decidedOne!.withdrawalId }, who.token)).code).toBe(ErrorCode.STATUS_UNCHANGED);
    const stranger = await customer();
    expect((await call(server, '/v1/waa/withdraw/cancel', { id: open!.withdrawalId }, stranger.token)).code).toBe(ErrorCode.DATA_NOT_FOUND);
    expect(await audit()).toEqual([]);
  });

  it('answers 406 to the real account’s orders and options while a withdrawal awaits review, and 1070 on withdraw/status', async () => {
    const who = await withdrawer();
    await fund(who.uid, '300');
    expect((await call(server, '/v1/waa/withdraw/status', {}, who.token)).data).toEqual({ cryptoEnabled: true, bankCardEnabled: true });
    expect((await withdraw(who, '100', '99')).code).toBe(0);
    const order = { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: `w406-${who.uid}` };
    expect((await call(server, '/exchange/addOrder', order, who.token)).code).toBe(ErrorCode.UNREVIEWED_WITHDRAWAL);
    const option = { tradePair: 'BTCUSDT', optionsProductId: 1, price: '67000', timeLong: 30, btime: Math.floor(Date.now() / 1000), rate: '0.8', amount: '100', orderType: 0, clientOrderId: `w406o-${who.uid}` };
    expect((await call(server, '/exchange/addOptionOrder', option, who.token)).code).toBe(ErrorCode.UNREVIEWED_WITHDRAWAL);
    expect((await call(server, '/v1/waa/withdraw/status', {}, who.token)).code).toBe(ErrorCode.WITHDRAWAL_UNDER_REVIEW);

    const [pending] = await reviewOf(who.uid);
    await decided(server, financeA.token, { kind: 'withdrawal', id: pending!.reviewId, decision: 'reject', reason: 'test' }, 'rejected');
    // Decided: the order goes on to its own checks (no price here), no longer 406.
    expect((await call(server, '/exchange/addOrder', { ...order, clientOrderId: `w406b-${who.uid}` }, who.token)).code).not.toBe(ErrorCode.UNREVIEWED_WITHDRAWAL);
    expect((await call(server, '/v1/waa/withdraw/status', {}, who.token)).code).toBe(0);
  });

  it('withdraws to a saved bank card at the bank channel’s terms', async () => {
    const who = await withdrawer();
    await fund(who.uid, '1000');
    const card = { bankName: 'vib', name: encodeField('Linh Tran', who.aesKey), account: encodeField('0123456789', who.aesKey) };
    expect((await moneyCall(server, '/v1/waa/bankCard/insert', card, who.token, crypto.randomUUID())).code).toBe(0);
    const cardId = ((await call(server, '/v1/waa/bankCard/all', {}, who.token)).data as { list: { id: number }[] }).list[0]!.id;
    const meta = (await call(server, '/v1/waa/withdraw/bankMeta', {}, who.token)).data as { currencyId: number; currency: string; feeType: string };
    expect(meta).toMatchObject({ currency: 'USDT', minWithdrawAmount: '50.00', maxWithdrawAmount: '10000000.00', feeType: 'PERCENTAGE', feeNum: '1.00' });
    const quoted = (await call(server, '/v1/waa/withdraw/bankCalculate', { currencyId: meta.currencyId, num: '200' }, who.token)).data;
    expect(quoted).toEqual({ feeType: 'PERCENTAGE', feeNum: '2.00', feeUsd: '2.00', practical: '198.00', isOver: false, afterBalance: '800.00', practicalUsd: '198.00', afterBalanceUsd: '800.00' });
    const submitted = await moneyCall(server, '/v1/waa/withdraw/bankSubmit', { num: '200', practicalNum: '198', userBankId: cardId, withdrawType: 1, locale: 'en' }, who.token, crypto.randomUUID());
    expect(submitted.code, submitted.msg).toBe(0);
    expect(await heldOf(who.uid)).toBe('200.00');
    const stranger = await withdrawer();
    await fund(stranger.uid, '1000');
    const refused = await moneyCall(server, '/v1/waa/withdraw/bankSubmit', { num: '200', practicalNum: '198', userBankId: cardId, withdrawType: 1, locale: 'en' }, stranger.token, crypto.randomUUID());
    expect(refused.code).toBe(ErrorCode.DATA_NOT_FOUND);
    expect(await heldOf(stranger.uid)).toBe('0.00');
  });
});
