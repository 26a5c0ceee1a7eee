import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { money, type Units } from '../../src/shared/money/money';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { post, scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, setSwitch } from './identity-support';
import { fundedTrader } from './funding-support';

const start = Date.parse('2026-03-03T12:00:00Z');

describe.each(testBackends())('wallets and transfers on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let clock = start;
  let keys = 0;
  const script = scriptedSource();
  /** BTCUSDT at a bid and ask in cents (the product's precision is 2). */
  const btcQuote = (bidCents: number, askCents = bidCents + 100) => script.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: bidCents, ask: askCents, volume: 1 }]);
  const newKey = () => `wallet-test-${Date.now().toString(36)}-${(keys += 1)}`;
  const ids = new Map<string, number>();

  const transform = (token: string, body: Record<string, unknown>, key: string | null = newKey()) =>
    post(server.app, '/v1/waa/wallet/transform', body, { authorization: `Bearer ${token}`, ...(key === null ? {} : { 'idempotency-key': key }) }).then(
      (response) => response.json() as { code: number; msg: string; data: unknown },
    );
  const quoteOf = async (token: string, curr: string, type: 0 | 1, num: string) => {
    const answer = await call(server, '/v1/waa/wallet/transformCalculate', { curr, currId: ids.get(curr), type, num }, token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as { fee: string; practical: string };
  };
  const draft = async (token: string, curr: string, type: 0 | 1, num: string) => ({ curr, currId: ids.get(curr), type, num, ...(await quoteOf(token, curr, type, num)) });
  const walletOf = (uid: number, currency: string) => ledger.balance({ owner: uid, book: 'real', kind: 'wallet', currency });
  const cashOf = (uid: number) => ledger.balance({ owner: uid, book: 'real', kind: 'cash' });
  const creditWallet = (uid: number, currency: string, amount: string) =>
    server.database.db.transaction().execute((trx) => ledger.creditWalletDeposit(trx, { uid, currency, amount: money(amount), key: `test-wallet-deposit:${uid}:${currency}:${amount}` }));
  const transferJournals = async (uid: number) =>
    (await server.database.db.selectFrom('ledger_journal').select('id').where('uid', '=', uid).where('kind', 'in', ['transfer-in', 'transfer-out']).execute()).length;
  const books = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];

  beforeAll(async () => {
    server = await startTestServer(backend, { STALE_PRICE_MS: '10000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => clock });
    ledger = createLedger(server.database.db);
    for (const row of await server.database.db.selectFrom('currency').select(['id', 'code']).execute()) ids.set(row.code, row.id);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the seeded coins on their networks with the withdrawal bounds and fees', async () => {
    const user = await fundedTrader(server, '0', 'coins');
    const answer = await call(server, '/v1/waa/wallet/coinNetworks', {}, user.token);
    const list = (answer.data as { dtoList: { currency: string; protocol: string; minWithdrawAmount: string; feeType: string; feeNum: string }[] }).dtoList;
    expect(list.map((item) => `${item.currency}/${item.protocol}`)).toEqual(['USDT/TRC20', 'USDT/ERC20', 'BTC/Bitcoin', 'ETH/ERC20']);
    expect(list[0]).toMatchObject({ minWithdrawAmount: '50', feeType: 'FIX_AMOUNT', feeNum: '1' });
    expect(list[2]).toMatchObject({ minWithdrawAmount: '0.001', feeType: 'PERCENTAGE', feeNum: '0.5' });
  });

  it('values each wallet in USD at the live bid and totals them', async () => {
    const user = await fundedTrader(server, '0', 'valued');
    await creditWallet(user.uid, 'BTC', '0.5');
    await creditWallet(user.uid, 'USDT', '100');
    btcQuote(6_700_012);
    const answer = await call(server, '/v1/waa/wallet/balance', {}, user.token);
    expect(answer.code, answer.msg).toBe(0);
    const data = answer.data as { list: { currency: string; balance: string; usdBalance: string }[]; totalBalance: string };
    expect(data.list.map(({ currency, balance, usdBalance }) => ({ currency, balance, usdBalance }))).toEqual([
      { currency: 'USDT', balance: '100.00', usdBalance: '100.00' },
      { currency: 'BTC', balance: '0.50', usdBalance: '33500.06' },
      { currency: 'ETH', balance: '0.00', usdBalance: '0.00' },
    ]);
    expect(data.totalBalance).toBe('33600.06');
  });

  it('transfers in at the bid and out at the ask, exact to the unit, the fee in the unit that leaves', async () => {
    const user = await fundedTrader(server, '0', 'transfer');
    await creditWallet(user.uid, 'BTC', '0.5');
    btcQuote(6_700_012, 6_700_112);
    // In: 0.5 BTC, fee 0.1 % = 0.0005 BTC, 0.4995 × 67000.12 = 33466.55994 → 33466.5599 USD (down).
    const into = await draft(user.token, 'BTC', 0, '0.5');
    expect(into).toMatchObject({ fee: '0.0005', practical: '33466.5599' });
    // The draft's unit (the specification's field) is the unit its amount is in: BTC on the way in, not USD.
    const wrongUnit = await transform(user.token, { ...into, unit: 'USD' });
    expect(wrongUnit.code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect(await walletOf(user.uid, 'BTC')).toBe(money('0.5'));
    expect((await transform(user.token, { ...into, unit: 'BTC' })).code).toBe(0);
    expect(await walletOf(user.uid, 'BTC')).toBe(0n);
    expect(await cashOf(user.uid)).toBe(money('33466.5599'));
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toMatchObject({ balanceAmount: '33466.5599' });

    // Out: 1000 USD, fee 1 USD, 999 ÷ 67001.12 = 0.01491… → 0.0149 BTC (down).
    const out = await draft(user.token, 'BTC', 1, '1000');
    expect(out).toMatchObject({ fee: '1.0000', practical: '0.0149' });
    expect((await transform(user.token, { ...out, unit: 'BTC' })).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await transform(user.token, { ...out, unit: 'USD' })).code).toBe(0);
    expect(await walletOf(user.uid, 'BTC')).toBe(money('0.0149'));
    expect(await cashOf(user.uid)).toBe(money('32466.5599'));
    // The house kept each fee in the unit that left.
    expect(await ledger.balance({ owner: null, book: 'real', kind: 'fees', currency: 'BTC' })).toBeGreaterThanOrEqual(money('0.0005'));

    const records = await call(server, '/v1/waa/wallet/records', { page: 1, limit: 10 }, user.token);
    const list = (records.data as { list: { orderType: number; movement: string; orderQuantity: string; unit: string }[]; pages: number }).list;
    // The deposit is type 2 (the specification's "order") and says what it is: a deposit.
    expect(list.map(({ orderType, movement, orderQuantity, unit }) => ({ orderType, movement, orderQuantity, unit }))).toEqual([
      { orderType: 1, movement: 'transferOut', orderQuantity: '0.0149', unit: 'BTC' },
      { orderType: 0, movement: 'transferIn', orderQuantity: '-0.50', unit: 'BTC' },
      { orderType: 2, movement: 'deposit', orderQuantity: '0.50', unit: 'BTC' },
    ]);
    const onlyIn = await call(server, '/v1/waa/wallet/records', { page: 1, limit: 10, type: 0 }, user.token);
    expect((onlyIn.data as { list: unknown[]; pages: number })).toMatchObject({ pages: 1, list: [{ orderType: 0, orderQuantity: '-0.50' }] });
    expect(await books()).toEqual([]);
  });

  it('refuses a stale price (202) and a quote that moved (1033) without moving anything', async () => {
    const user = await fundedTrader(server, '0', 'stale');
    await creditWallet(user.uid, 'BTC', '0.1');
    btcQuote(6_700_000);
    const seen = await draft(user.token, 'BTC', 0, '0.1');
    btcQuote(6_690_000);
    const moved = await transform(user.token, seen);
    expect(moved.code).toBe(1033);
    expect(moved.msg).toMatch(/rate|quote/i);
    expect(await walletOf(user.uid, 'BTC')).toBe(money('0.1'));

    const fresh = await draft(user.token, 'BTC', 0, '0.1');
    clock += 10_001;
    expect((await transform(user.token, fresh)).code).toBe(202);
    expect((await call(server, '/v1/waa/wallet/transformCalculate', { curr: 'BTC', currId: ids.get('BTC'), type: 0, num: '0.1' }, user.token)).code).toBe(202);
    expect(await walletOf(user.uid, 'BTC')).toBe(money('0.1'));
    expect(await cashOf(user.uid)).toBe(0n);
    expect(await transferJournals(user.uid)).toBe(0);
  });

  it('lets only the transfers out that fit through when 10 run at once, never below zero', async () => {
    const user = await fundedTrader(server, '1000', 'parallel');
    const body = await draft(user.token, 'USDT', 1, '150');
    expect(body).toMatchObject({ fee: '0.0000', practical: '150.0000' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => transform(user.token, body)));
    expect(answers.filter((answer) => answer.code === 0)).toHaveLength(6);
    expect(answers.filter((answer) => answer.code !== 0).every((answer) => answer.code === 203)).toBe(true);
    expect(await cashOf(user.uid)).toBe(money('100'));
    expect(await walletOf(user.uid, 'USDT')).toBe(money('900'));
    // The six transfers out, and the transfer in that funded the trading account.
    expect(await transferJournals(user.uid)).toBe(7);
    expect(await books()).toEqual([]);
  });

  it('answers a replayed Idempotency-Key from the first call and moves the money once, also in parallel', async () => {
    const user = await fundedTrader(server, '500', 'replay');
    const body = await draft(user.token, 'USDT', 1, '100');
    const key = newKey();
    expect((await transform(user.token, body, key)).code).toBe(0);
    expect((await transform(user.token, body, key)).code).toBe(0);
    expect(await cashOf(user.uid)).toBe(money('400'));

    const parallelKey = newKey();
    const answers = await Promise.all(Array.from({ length: 5 }, () => transform(user.token, body, parallelKey)));
    expect(answers.map((answer) => answer.code)).toEqual([0, 0, 0, 0, 0]);
    expect(await cashOf(user.uid)).toBe(money('300'));
    expect(await walletOf(user.uid, 'USDT')).toBe(money('200'));
    // One per key, and the transfer in that funded the trading account.
    expect(await transferJournals(user.uid)).toBe(3);

    // No key, or a malformed one, refuses before anything moves.
    expect((await transform(user.token, body, null)).code).toBe(1001);
    expect((await transform(user.token, body, 'short')).code).toBe(1001);
    expect(await cashOf(user.uid)).toBe(money('300'));
    expect(await books()).toEqual([]);
  });

  it('refuses more than the wallet holds, and an amount that is not a transfer amount', async () => {
    const user = await fundedTrader(server, '0', 'short');
    await creditWallet(user.uid, 'USDT', '10');
    const tooMuch = await draft(user.token, 'USDT', 0, '10.0001');
    expect((await transform(user.token, tooMuch)).code).toBe(203);
    const precise = await call(server, '/v1/waa/wallet/transformCalculate', { curr: 'USDT', currId: ids.get('USDT'), type: 0, num: '1.00001' }, user.token);
    expect(precise.code).toBe(1001);
    const zero = await call(server, '/v1/waa/wallet/transformCalculate', { curr: 'USDT', currId: ids.get('USDT'), type: 0, num: '0' }, user.token);
    expect(zero.code).toBe(1016);
    const forged = await call(server, '/v1/waa/wallet/transformCalculate', { curr: 'BTC', currId: ids.get('USDT'), type: 0, num: '1' }, user.token);
    expect(forged.code).toBe(1030);
    expect(await walletOf(user.uid, 'USDT')).toBe(money('10'));
  });

  it('refuses every wallet call with a demo token', async () => {
    const user = await fundedTrader(server, '100', 'demo');
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', true);
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    for (const path of ['balance', 'coinNetworks', 'records', 'transformCalculate']) {
      const body = path === 'records' ? { page: 1, limit: 10 } : path === 'transformCalculate' ? { curr: 'USDT', currId: ids.get('USDT'), type: 1, num: '1' } : {};
      expect((await call(server, `/v1/waa/wallet/${path}`, body, demo.token)).code, path).toBe(1001);
    }
    const body = { curr: 'USDT', currId: ids.get('USDT'), type: 1, num: '1', fee: '0', practical: '1' };
    expect((await transform(demo.token, body)).code).toBe(1001);
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', false);
    expect(await cashOf(user.uid)).toBe(money('100') as Units);
    // Only the transfer in that funded the trading account.
    expect(await transferJournals(user.uid)).toBe(1);
  });
});
