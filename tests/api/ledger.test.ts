import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, money } from '../../src/shared/money/money';
import { UserAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { createTradingRepository } from '../../server/modules/trading/trading-repository';
import { seededRandom } from '../../server/modules/market/sources/random';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, loginByEmail, registerByEmail, setSwitch } from './identity-support';
const { cash: cashKind, margin: marginKind } = UserAccountKind;

let mailbox = 0;
const newEmail = () => `ledger${Date.now().toString(36)}${(mailbox += 1)}@example.com`;

async function newUser(server: TestServer) {
  const email = newEmail();
  await registerByEmail(server, email);
  const session = await loginByEmail(server, email);
  const uid = (await call(server, '/v1/waa/user/info', {}, session.token)).data as { uid: number };
  return { email, ...session, uid: uid.uid };
}

describe.each(testBackends())('accounts and ledger on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  beforeAll(async () => {
    server = await startTestServer(backend, { DEMO_BALANCE: '100000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' });
    ledger = createLedger(server.database.db);
  });
  afterAll(async () => {
    await server?.close();
  });
  /** Real cash from the house's deposits account to a user. */
  const deposit = (uid: number, amount: string, idempotencyKey: string) =>
    ledger.post({
      idempotencyKey,
      book: 'real',
      kind: 'deposit',
      uid,
      postings: [
        { account: { owner: null, book: 'real', kind: 'deposits' }, amount: -money(amount) },
        { account: { owner: uid, book: 'real', kind: cashKind }, amount: money(amount) },
      ],
    });

  it('opens a real account at zero and a demo account with the virtual balance; user/info reports the profile', async () => {
    const user = await newUser(server);
    const info = await call(server, '/v1/waa/user/info', {}, user.token);
    expect(info.data).toMatchObject({ uid: user.uid, email: user.email, registerType: 'E', account: { balanceAmount: '0.00', lockMargin: '0.00' } });
    expect((info.data as { inviteCode: string }).inviteCode).toMatch(/^[A-Z0-9]{6}$/);
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '0.00', lockMargin: '0.00' });
    expect(await ledger.balance({ owner: user.uid, book: 'demo', kind: cashKind })).toBe(money('100000'));

    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', true);
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    expect((await call(server, '/v1/waa/user/balance', {}, demo.token)).data).toEqual({ balanceAmount: '100000.00', lockMargin: '0.00' });

    // Demo money moves (a margin lock), then the reset restores the virtual balance.
    await ledger.post({
      idempotencyKey: `test-lock:${user.uid}`,
      book: 'demo',
      kind: 'margin-lock',
      uid: user.uid,
      postings: [
        { account: { owner: user.uid, book: 'demo', kind: cashKind }, amount: -money('1234.5') },
        { account: { owner: user.uid, book: 'demo', kind: marginKind }, amount: money('1234.5') },
      ],
    });
    expect((await call(server, '/v1/waa/user/balance', {}, demo.token)).data).toEqual({ balanceAmount: '98765.50', lockMargin: '1234.50' });
    expect((await call(server, '/v1/waa/user/resetMock', {}, demo.token)).code).toBe(0);
    expect((await call(server, '/v1/waa/user/balance', {}, demo.token)).data).toEqual({ balanceAmount: '100000.00', lockMargin: '0.00' });
    // The real book never saw any of it.
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: cashKind })).toBe(0n);
    expect((await call(server, '/v1/waa/user/resetMock', {}, user.token)).code).toBe(1001);
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', false);
    expect(await ledger.check()).toEqual([]);
  });

  it('records a journal once per idempotency key', async () => {
    const user = await newUser(server);
    const journal = {
      idempotencyKey: `deposit:${user.uid}:1`,
      book: 'real' as const,
      kind: 'deposit',
      uid: user.uid,
      postings: [
        { account: { owner: null, book: 'real' as const, kind: 'deposits' }, amount: -money('250') },
        { account: { owner: user.uid, book: 'real' as const, kind: cashKind }, amount: money('250') },
      ],
    };
    const first = await ledger.post(journal);
    const second = await ledger.post(journal);
    expect(second).toEqual({ journalId: first.journalId, replayed: true });
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '250.00', lockMargin: '0.00' });
  });

  it('writes an order with its margin journal in one statement: too little cash keeps neither, a journal key recorded before keeps no second order, a close that changes no row settles nothing', async () => {
    const user = await newUser(server);
    const db = server.database.db;
    const orders = createTradingRepository(db);
    await deposit(user.uid, '100', `deposit:${user.uid}:alongside`);
    const at = new Date();
    const newOrder = (orderNo: string, margin: string) => ({
      order_no: orderNo,
      uid: user.uid,
      book: 'real' as const,
      client_order_id: `alongside-${orderNo}`,
      symbol: 'EURUSD',
      direction: 0,
      price_type: 2,
      status: 1,
      volume: '0.1',
      leverage: 100,
      contract_size: '100000',
      limit_price: null,
      open_price: '1.1',
      stop_loss: null,
      take_profit: null,
      margin,
      fee: '0',
      open_tick_ms: String(at.getTime()),
      created_at: at,
      opened_at: at,
    });
    const place = (orderNo: string, margin: string) =>
      db.transaction().execute(async (trx) => {
        await ledger.lockCash(trx, user.uid, 'real');
        return ledger.lockMarginPlacing(trx, { uid: user.uid, book: 'real', orderNo, margin: money(margin), fee: 0n }, orders.insertStatement(trx, newOrder(orderNo, margin)));
      });
    const count = async (orderNo: string) => (await db.selectFrom('trade_order').select('id').where('order_no', '=', orderNo).execute()).length;

    const placed = await place('9100000000000001', '60');
    // The order's row as its insert returns it (types included), without the statement's own column.
    expect(placed).toMatchObject({ order_no: '9100000000000001', uid: user.uid, opened_at: at });
    expect(money(String(placed.margin))).toBe(money('60'));
    expect(typeof placed.id).toBe('number');
    expect(placed).not.toHaveProperty('journal_posted');
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '40.00', lockMargin: '60.00' });
    // 60 more than the 40 left: the database refuses the journal, and the order goes with it.
    await expect(place('9100000000000002', '60')).rejects.toMatchObject({ code: '23514' });
    expect(await count('9100000000000002')).toBe(0);
    // The first order's number again under another client id: its journal is recorded, so no second order is kept.
    await expect(
      db.transaction().execute(async (trx) => {
        await ledger.lockCash(trx, user.uid, 'real');
        return ledger.lockMarginPlacing(trx, { uid: user.uid, book: 'real', orderNo: '9100000000000001', margin: money('10'), fee: 0n }, orders.insertStatement(trx, { ...newOrder('9100000000000003', '10') }));
      }),
    ).rejects.toThrow(/recorded before/);
    expect(await count('9100000000000003')).toBe(0);
    // A settlement whose close changes no row (no such position) posts no money either.
    const journals = async () => Number((await db.selectFrom('ledger_journal').select(({ fn }) => fn.countAll<string>().as('count')).where('uid', '=', user.uid).executeTakeFirstOrThrow()).count);
    const journalsBefore = await journals();
    await expect(
      db.transaction().execute(async (trx) => {
        await ledger.lockCash(trx, user.uid, 'real');
        await ledger.settlePositionClosing(
          trx,
          { uid: user.uid, book: 'real', orderNo: '9100000000000001', margin: money('60'), profitLoss: money('5') },
          orders.closeStatement(trx, -1, { closePrice: '1.2', closeTickMs: String(at.getTime()), profitLoss: '5', reason: 'manual', closedAt: at }),
        );
      }),
    ).rejects.toThrow(/changed 0 rows/);
    expect(await journals()).toBe(journalsBefore);
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '40.00', lockMargin: '60.00' });
    expect(await ledger.check()).toEqual([]);
  });

  it('refuses a movement that would take a user balance below zero (203) and writes nothing', async () => {
    const user = await newUser(server);
    const journalsBefore = await server.database.db.selectFrom('ledger_journal').select(({ fn }) => fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    await expect(
      ledger.post({
        idempotencyKey: `overdraw:${user.uid}`,
        book: 'real',
        kind: 'fee',
        uid: user.uid,
        postings: [
          { account: { owner: user.uid, book: 'real', kind: cashKind }, amount: -money('0.01') },
          { account: { owner: null, book: 'real', kind: 'fees' }, amount: money('0.01') },
        ],
      }),
    ).rejects.toMatchObject({ code: 203 });
    const journalsAfter = await server.database.db.selectFrom('ledger_journal').select(({ fn }) => fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    expect(Number(journalsAfter.count)).toBe(Number(journalsBefore.count));
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: cashKind })).toBe(0n);
  });

  it('refuses unbalanced journals and journals that mix real and demo money', async () => {
    const user = await newUser(server);
    await expect(
      ledger.post({ idempotencyKey: `bad:${user.uid}`, book: 'real', kind: 'x', uid: user.uid, postings: [{ account: { owner: user.uid, book: 'real', kind: cashKind }, amount: money('1') }] }),
    ).rejects.toThrow(/unbalanced/);
    await expect(
      ledger.post({
        idempotencyKey: `mix:${user.uid}`,
        book: 'real',
        kind: 'x',
        uid: user.uid,
        postings: [
          { account: { owner: user.uid, book: 'demo', kind: cashKind }, amount: -money('1') },
          { account: { owner: user.uid, book: 'real', kind: cashKind }, amount: money('1') },
        ],
      }),
    ).rejects.toThrow(/mixes books/);
  });

  it('under 20 concurrent debits of 10 from 100, exactly 10 succeed and the balance ends at zero', async () => {
    const user = await newUser(server);
    await deposit(user.uid, '100', `fund:${user.uid}`);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        ledger.post({
          idempotencyKey: `spend:${user.uid}:${index}`,
          book: 'real',
          kind: 'fee',
          uid: user.uid,
          postings: [
            { account: { owner: user.uid, book: 'real', kind: cashKind }, amount: -money('10') },
            { account: { owner: null, book: 'real', kind: 'fees' }, amount: money('10') },
          ],
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    expect(results.filter((result) => result.status === 'rejected').every((result) => (result.reason as { code?: number }).code === 203)).toBe(true);
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: cashKind })).toBe(0n);
    expect(await ledger.check()).toEqual([]);
  });

  it('stays balanced through a random sequence of movements (property test, seeded)', async () => {
    const users = [await newUser(server), await newUser(server), await newUser(server)];
    const random = seededRandom(20261123);
    const model = new Map<string, bigint>();
    const key = (uid: number, book: string, kind: string) => `${uid}|${book}|${kind}`;
    for (const user of users) {
      model.set(key(user.uid, 'real', cashKind), 0n);
      model.set(key(user.uid, 'real', marginKind), 0n);
      model.set(key(user.uid, 'demo', cashKind), money('100000'));
      model.set(key(user.uid, 'demo', marginKind), 0n);
    }
    for (let step = 0; step < 120; step += 1) {
      const user = users[Math.floor(random.next() * users.length)]!;
      const book = random.next() < 0.5 ? ('real' as const) : ('demo' as const);
      const amount = BigInt(Math.floor(random.next() * 5_000_000_000)); // up to 50.00000000
      const cash = key(user.uid, book, cashKind);
      const margin = key(user.uid, book, marginKind);
      const operation = ['deposit', 'lock', 'release', 'fee', 'profit', 'loss'][Math.floor(random.next() * 6)]!;
      const postings: { account: { owner: number | null; book: 'real' | 'demo'; kind: string }; amount: bigint }[] = [];
      const move = (from: { owner: number | null; kind: string }, to: { owner: number | null; kind: string }, value: bigint) => {
        postings.push({ account: { ...from, book }, amount: -value }, { account: { ...to, book }, amount: value });
      };
      const me = (kind: string) => ({ owner: user.uid, kind });
      const house = (kind: string) => ({ owner: null, kind });
      if (operation === 'deposit') move(house('deposits'), me(cashKind), amount);
      if (operation === 'lock') move(me(cashKind), me(marginKind), amount);
      if (operation === 'release') move(me(marginKind), me(cashKind), amount);
      if (operation === 'fee') move(me(cashKind), house('fees'), amount);
      if (operation === 'profit') move(house('pnl'), me(cashKind), amount);
      if (operation === 'loss') move(me(cashKind), house('pnl'), amount);
      const expected = new Map(model);
      for (const posting of postings) {
        if (posting.account.owner === null) continue;
        const account = key(posting.account.owner, book, posting.account.kind);
        expected.set(account, (expected.get(account) ?? 0n) + posting.amount);
      }
      const wouldGoNegative = [...expected.values()].some((value) => value < 0n);
      const attempt = ledger.post({ idempotencyKey: `property:${user.uid}:${step}`, book, kind: operation, uid: user.uid, postings });
      if (wouldGoNegative) await expect(attempt).rejects.toMatchObject({ code: 203 });
      else {
        await attempt;
        for (const [account, value] of expected) model.set(account, value);
      }
      expect(await ledger.balance({ owner: user.uid, book, kind: cashKind }), `step ${step} ${operation}`).toBe(model.get(cash));
      expect(await ledger.balance({ owner: user.uid, book, kind: marginKind })).toBe(model.get(margin));
      if (step % 20 === 19) expect(await ledger.check()).toEqual([]);
    }
    expect(await ledger.check()).toEqual([]);
    expect(formatMoney(model.get(key(users[0]!.uid, 'demo', cashKind))!)).toMatch(/^\d+\.\d{2,8}$/);
  });

  it('posts a batch of journals in one transaction: balances move, a replayed key posts nothing, a bad journal or a negative balance changes nothing', async () => {
    const user = await newUser(server);
    const demoCash = { owner: user.uid, book: 'demo' as const, kind: cashKind };
    const house = { owner: null, book: 'demo' as const, kind: 'batch-test-house' };
    const journal = (n: number, amount: string) => ({
      idempotencyKey: `batch-test:${user.uid}:${n}`,
      book: 'demo' as const,
      kind: 'batch-test',
      uid: user.uid,
      postings: [
        { account: demoCash, amount: -money(amount) },
        { account: house, amount: money(amount) },
      ],
    });
    const db = server.database.db;
    const before = await ledger.balance(demoCash);
    expect(await db.transaction().execute((trx) => ledger.postManyInTransaction(trx, [journal(1, '10'), journal(2, '2.5'), journal(3, '0.00000001')]))).toBe(3);
    expect(await ledger.balance(demoCash)).toBe(before - money('12.50000001'));
    // A retried batch: only the new key posts.
    expect(await db.transaction().execute((trx) => ledger.postManyInTransaction(trx, [journal(1, '10'), journal(4, '1')]))).toBe(1);
    expect(await ledger.balance(demoCash)).toBe(before - money('13.50000001'));

    const unbalanced = { ...journal(5, '1'), postings: [{ account: demoCash, amount: -money('1') }] };
    await expect(db.transaction().execute((trx) => ledger.postManyInTransaction(trx, [journal(6, '1'), unbalanced]))).rejects.toThrow(/unbalanced/);
    // More than the account holds: the database refuses, and the whole batch with it.
    await expect(db.transaction().execute((trx) => ledger.postManyInTransaction(trx, [journal(7, '1'), journal(8, '1000000')]))).rejects.toThrow();
    expect(await ledger.balance(demoCash)).toBe(before - money('13.50000001'));
    expect(await ledger.check()).toEqual([]);
  });

  it('the ledger check finds a tampered balance', async () => {
    const user = await newUser(server);
    await server.database.db.updateTable('ledger_account').set({ balance: '5' }).where('owner_uid', '=', user.uid).where('book', '=', 'real').where('kind', '=', cashKind).execute();
    const problems = await ledger.check();
    expect(problems.some((problem) => /holds 5\.00000000 but its entries sum to 0/.test(problem))).toBe(true);
    await server.database.db.updateTable('ledger_account').set({ balance: '0' }).where('owner_uid', '=', user.uid).where('book', '=', 'real').where('kind', '=', cashKind).execute();
    expect(await ledger.check()).toEqual([]);
  });
});

describe('npm run ledger:check', () => {
  it('audits the configured database and finds nothing wrong in a fresh one', async () => {
    const { runLedgerCheck } = await import('../../server/tools/ledger-check');
    const fs = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ledger-check-'));
    try {
      expect(await runLedgerCheck({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })).toEqual([]);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
