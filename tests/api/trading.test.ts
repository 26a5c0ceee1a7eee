import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketDataSource, RawTick } from '../../server/market/sources/market-data-source';
import { cashKind } from '../../server/modules/account/account-service';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { money } from '../../src/shared/money/money';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, fundedTrader, loginByEmail, registerByEmail, setSwitch } from './identity-support';

// A Tuesday noon: forex is open.
let clock = Date.parse('2026-01-13T12:00:00Z');
let mailbox = 0;
let orderIds = 0;

function scriptedSource() {
  let emit: ((ticks: RawTick[]) => void) | null = null;
  const source: MarketDataSource = { name: 'scripted', start: (onTicks) => void (emit = onTicks), stop: () => void (emit = null) };
  return { source, push: (ticks: RawTick[]) => emit?.(ticks) };
}

describe.each(testBackends())('market contracts on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();
  /** EUR/USD quotes in units of 0.00001. */
  const quote = (bid: number, ask = bid + 12) => script.push([{ symbol: 'EURUSD', timeMs: clock, bid, ask, volume: 1 }]);

  const trader = (deposit = '1000') => fundedTrader(server, ledger, deposit);

  const order = (change: Record<string, unknown> = {}) => ({
    tradePair: 'EURUSD',
    price: '0',
    orderQuantity: '0.1',
    multiple: 100,
    orderType: 0,
    buyPoint: 2,
    clientOrderId: `c${(orderIds += 1)}`,
    ...change,
  });
  const balance = async (token: string) => (await call(server, '/v1/waa/user/balance', {}, token)).data;

  beforeAll(async () => {
    server = await startTestServer(backend, { MIN_HOLD_SECONDS: '180', STALE_PRICE_MS: '10000', FOREX_MIN_DEPOSIT: '40', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => clock });
    ledger = createLedger(server.database.db);
    quote(108500);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('fills a market buy at the ask, locking margin and charging the fee in one journal', async () => {
    const user = await trader();
    quote(108500, 108512);
    const placed = await call(server, '/exchange/addOrder', order(), user.token);
    expect(placed.code, placed.msg).toBe(0);
    expect(placed.data).toMatch(/^\d{16}$/);
    // Margin 1.08512 × 0.1 × 100000 / 100 = 108.512; fee × 0.00002 = 0.217024.
    expect(await balance(user.token)).toEqual({ balanceAmount: '891.270976', lockMargin: '108.512' });
    const open = (await call(server, '/v1/waa/order/history', { positionStatus: 2 }, user.token)).data as { list: { uid: string; openingPrice: string; securityDepositInitial: string; feeAmount: string }[] };
    expect(open.list).toEqual([expect.objectContaining({ uid: placed.data, openingPrice: '1.08512', securityDepositInitial: '108.512', feeAmount: '0.217024', productName: 'EUR/USD', lever: 100 })]);
    expect(await ledger.check()).toEqual([]);
  });

  it('places one order per clientOrderId, however often it is retried', async () => {
    const user = await trader();
    const body = order({ clientOrderId: 'retry-me' });
    const answers = await Promise.all([1, 2, 3].map(() => call(server, '/exchange/addOrder', body, user.token)));
    expect(new Set(answers.map((answer) => answer.data)).size).toBe(1);
    expect(((await balance(user.token)) as { lockMargin: string }).lockMargin).toBe('108.512');
  });

  it('refuses with the codes of the rules and changes nothing', async () => {
    const user = await trader('50');
    expect((await call(server, '/exchange/addOrder', order({ tradePair: 'NOPE' }), user.token)).code).toBe(303);
    expect((await call(server, '/exchange/addOrder', order({ orderQuantity: '60' }), user.token)).code).toBe(305);
    expect((await call(server, '/exchange/addOrder', order({ orderQuantity: '0' }), user.token)).code).toBe(302);
    expect((await call(server, '/exchange/addOrder', order({ stopPrice: '1.2' }), user.token)).code).toBe(311);
    expect((await call(server, '/exchange/addOrder', order({ orderType: 1, takeProfitPrice: '1.2' }), user.token)).code).toBe(308);
    expect((await call(server, '/exchange/addOrder', order({ multiple: 500 }), user.token)).code).toBe(1016);
    const short = await call(server, '/exchange/addOrder', order(), user.token);
    expect(short.code).toBe(203);
    expect(short.msg).toMatch(/\(203\)$/);
    expect(await balance(user.token)).toEqual({ balanceAmount: '50.00', lockMargin: '0.00' });
    expect((await call(server, '/exchange/addOrder', order())).status).toBe(401);
  });

  it('refuses real forex trading below the total-deposit rule (320) and users prohibited from trading (405)', async () => {
    const small = await trader('30');
    expect((await call(server, '/exchange/addOrder', order(), small.token)).code).toBe(320);
    const prohibited = await trader();
    await server.database.db.updateTable('app_user').set({ trade_prohibited: true }).where('uid', '=', prohibited.uid).execute();
    expect((await call(server, '/exchange/addOrder', order(), prohibited.token)).code).toBe(405);
    expect(await balance(prohibited.token)).toEqual({ balanceAmount: '1000.00', lockMargin: '0.00' });
  });

  it('refuses a fill on a quote older than the stale threshold (202)', async () => {
    const user = await trader();
    clock += 11_000;
    expect((await call(server, '/exchange/addOrder', order(), user.token)).code).toBe(202);
    quote(108500);
    expect((await call(server, '/exchange/addOrder', order(), user.token)).code).toBe(0);
  });

  it('closes after the minimum holding time at the bid, settling profit in the ledger; the history shows it', async () => {
    const user = await trader();
    quote(108500, 108512);
    const orderNo = (await call(server, '/exchange/addOrder', order(), user.token)).data as string;
    expect((await call(server, '/exchange/closeOrder', { orderId: orderNo }, user.token)).code).toBe(409);
    const other = await trader();
    expect((await call(server, '/exchange/closeOrder', { orderId: orderNo }, other.token)).code).toBe(403);
    expect((await call(server, '/exchange/closeOrder', { orderId: '999' }, user.token)).code).toBe(402);
    clock += 181_000;
    quote(108612, 108624);
    // Parallel closes of one position: exactly one wins.
    const closes = await Promise.all([1, 2, 3].map(() => call(server, '/exchange/closeOrder', { orderId: orderNo }, user.token)));
    expect(closes.map((answer) => answer.code).sort()).toEqual([0, 404, 404]);
    // (1.08612 − 1.08512) × 0.1 × 100000 = 10.00 profit; the fee was paid at opening.
    expect(await balance(user.token)).toEqual({ balanceAmount: '1009.782976', lockMargin: '0.00' });
    const history = (await call(server, '/v1/waa/order/history', { page: 1, limit: 10 }, user.token)).data as { list: { closingPrice: string; profitLoss: string; closeReason: string }[]; profitLossTotal: string; profitLossToday: string; pages: number };
    expect(history.list[0]).toMatchObject({ closingPrice: '1.08612', profitLoss: '10.00', closeReason: 'manual' });
    expect(history).toMatchObject({ profitLossTotal: '10.00', profitLossToday: '10.00', pages: 1 });
    expect((await call(server, '/exchange/cancelOrder', { orderId: orderNo }, user.token)).code).toBe(407);
    expect(await ledger.check()).toEqual([]);
  });

  it('fires a stop loss once, at the first tick that crosses it, at that tick\'s price; losses never go below zero', async () => {
    const user = await trader('120');
    quote(108500, 108512);
    const orderNo = (await call(server, '/exchange/addOrder', order({ stopPrice: '1.08' }), user.token)).data as string;
    quote(108100);
    await server.app.trading.settled();
    expect(((await call(server, '/v1/waa/order/history', { positionStatus: 2 }, user.token)).data as { list: unknown[] }).list).toHaveLength(1);
    // A crash through the stop: the position closes at the first crossing tick's bid.
    clock += 1_000;
    quote(98000);
    quote(97000);
    await server.app.trading.settled();
    const closed = (await call(server, '/v1/waa/order/history', {}, user.token)).data as { list: { uid: string; closingPrice: string; closeReason: string; profitLoss: string }[] };
    expect(closed.list[0]).toMatchObject({ uid: orderNo, closingPrice: '0.98', closeReason: 'stop_loss' });
    // The loss (1.08512 − 0.98) × 10000 = 1051.20 is more than the 120 deposited: capped at what the account held.
    expect(closed.list[0]?.profitLoss).toBe('-119.782976');
    expect(await balance(user.token)).toEqual({ balanceAmount: '0.00', lockMargin: '0.00' });
    expect(await ledger.check()).toEqual([]);
  });

  it('rests a pending buy below the price, cancels it, and fills another when the ask reaches it', async () => {
    const user = await trader();
    quote(108500, 108512);
    expect((await call(server, '/exchange/addOrder', order({ buyPoint: 1, price: '1.09' }), user.token)).code).toBe(1016);
    const first = (await call(server, '/exchange/addOrder', order({ buyPoint: 1, price: '1.08' }), user.token)).data as string;
    expect(await balance(user.token)).toEqual({ balanceAmount: '892.00', lockMargin: '108.00' });
    expect((await call(server, '/exchange/cancelOrder', { orderId: first }, user.token)).code).toBe(0);
    expect((await call(server, '/exchange/cancelOrder', { orderId: first }, user.token)).code).toBe(408);
    expect(await balance(user.token)).toEqual({ balanceAmount: '1000.00', lockMargin: '0.00' });

    const second = (await call(server, '/exchange/addOrder', order({ buyPoint: 1, price: '1.08', takeProfitPrice: '1.09' }), user.token)).data as string;
    quote(108100, 108112);
    await server.app.trading.settled();
    expect(((await call(server, '/v1/waa/order/history', { positionStatus: 1 }, user.token)).data as { list: unknown[] }).list).toHaveLength(1);
    quote(107990, 107998);
    await server.app.trading.settled();
    const position = ((await call(server, '/v1/waa/order/history', { positionStatus: 2 }, user.token)).data as { list: { uid: string; openingPrice: string; feeAmount: string }[] }).list;
    expect(position).toEqual([expect.objectContaining({ uid: second, openingPrice: '1.07998', feeAmount: '0.215996' })]);
    // Its take profit is armed now that it is a position.
    quote(109010, 109022);
    await server.app.trading.settled();
    const done = ((await call(server, '/v1/waa/order/history', {}, user.token)).data as { list: { uid: string; closeReason: string; closingPrice: string }[] }).list;
    expect(done[0]).toMatchObject({ uid: second, closeReason: 'take_profit', closingPrice: '1.0901' });
    expect(await ledger.check()).toEqual([]);
  });

  it('stops out below a 50% margin level, closing the position at the server\'s quote', async () => {
    const user = await trader('200');
    quote(108500, 108512);
    const orderNo = (await call(server, '/exchange/addOrder', order(), user.token)).data as string;
    quote(107200, 107212); // equity 200 − 0.22 − 131.2 = 68.58: above 54.26 (50% of 108.51)
    expect(await server.app.trading.checkStopOuts()).toBe(0);
    quote(107050, 107062); // equity 200 − 0.22 − 146.2 = 53.58: below
    expect(await server.app.trading.checkStopOuts()).toBe(1);
    const history = (await call(server, '/v1/waa/order/history', {}, user.token)).data as { list: { uid: string; closeReason: string; closingPrice: string; profitLoss: string }[] };
    expect(history.list[0]).toMatchObject({ uid: orderNo, closeReason: 'stop_out', closingPrice: '1.0705', profitLoss: '-146.20' });
    expect(await balance(user.token)).toEqual({ balanceAmount: '53.582976', lockMargin: '0.00' });
    quote(108500);
  });

  it('charges the overnight fee once per day per open position', async () => {
    const user = await trader();
    quote(108500, 108512);
    await call(server, '/exchange/addOrder', order(), user.token);
    const before = await server.app.trading.chargeOvernight('2026-01-13');
    expect(before).toBeGreaterThanOrEqual(1);
    expect(await server.app.trading.chargeOvernight('2026-01-13')).toBe(0);
    // 1.08512 × 0.1 × 100000 × 0.00008 = 0.868096 on top of the opening fee.
    expect(await balance(user.token)).toEqual({ balanceAmount: '890.40288', lockMargin: '108.512' });
    expect(await ledger.check()).toEqual([]);
  });

  it('keeps demo trading on the demo book: Mock paths for demo sessions only', async () => {
    const user = await trader();
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', true);
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    quote(108500, 108512);
    expect((await call(server, '/exchange/addOrder', order(), demo.token)).code).toBe(1001);
    expect((await call(server, '/exchange/addOrderMock', order(), demo.token)).code).toBe(0);
    expect(await balance(demo.token)).toEqual({ balanceAmount: '99891.270976', lockMargin: '108.512' });
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: cashKind })).toBe(money('1000'));
    expect(((await call(server, '/v1/waa/order/historyMock', { positionStatus: 2 }, demo.token)).data as { list: unknown[] }).list).toHaveLength(1);
    // The reset closes demo orders and restores the virtual balance.
    expect((await call(server, '/v1/waa/user/resetMock', {}, demo.token)).code).toBe(0);
    expect(await balance(demo.token)).toEqual({ balanceAmount: '100000.00', lockMargin: '0.00' });
    expect(((await call(server, '/v1/waa/order/historyMock', { positionStatus: 2 }, demo.token)).data as { list: unknown[] }).list).toEqual([]);
    expect(((await call(server, '/v1/waa/order/historyMock', {}, demo.token)).data as { list: { closeReason: string }[] }).list[0]?.closeReason).toBe('demo-reset');
    expect(await ledger.check()).toEqual([]);
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', false);
  });
});

describe.each(testBackends())('the transaction list (order/list) on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();
  const quote = (bid: number, ask = bid + 12) => script.push([{ symbol: 'EURUSD', timeMs: clock, bid, ask, volume: 1 }]);
  type Listed = { uid: string; status: number; closingPrice: string | null; productName: string };
  type ListData = { list: Listed[]; pages: number };

  async function trader() {
    const email = `lister${Date.now().toString(36)}${(mailbox += 1)}@example.com`;
    await registerByEmail(server, email);
    const session = await loginByEmail(server, email);
    const info = (await call(server, '/v1/waa/user/info', {}, session.token)).data as { uid: number };
    await ledger.post({
      idempotencyKey: `list-deposit:${info.uid}`,
      book: 'real',
      kind: 'deposit',
      uid: info.uid,
      postings: [
        { account: { owner: null, book: 'real', kind: 'deposits' }, amount: -money('1000') },
        { account: { owner: info.uid, book: 'real', kind: cashKind }, amount: money('1000') },
      ],
    });
    return { ...session, uid: info.uid };
  }
  /** Places an order a second after the last one, so that order times differ. */
  async function place(token: string, change: Record<string, unknown> = {}, path = '/exchange/addOrder') {
    clock += 1_000;
    quote(108500, 108512);
    const body = { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: `l${(orderIds += 1)}`, ...change };
    const answer = await call(server, path, body, token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as string;
  }
  const list = async (token: string, body: Record<string, unknown> = {}, path = '/v1/waa/order/list') => {
    const answer = await call(server, path, body, token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as ListData;
  };
  const uids = (data: ListData) => data.list.map((order) => order.uid);

  beforeAll(async () => {
    server = await startTestServer(backend, { MIN_HOLD_SECONDS: '0', STALE_PRICE_MS: '10000', FOREX_MIN_DEPOSIT: '0', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => clock });
    ledger = createLedger(server.database.db);
    quote(108500);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the account\'s orders newest first by order time, page by page, of every status or of one', async () => {
    const user = await trader();
    const closed = await place(user.token);
    const open = await place(user.token);
    const pending = await place(user.token, { buyPoint: 1, price: '1.08' });
    const canceled = await place(user.token, { buyPoint: 1, price: '1.07' });
    expect((await call(server, '/exchange/cancelOrder', { orderId: canceled }, user.token)).code).toBe(0);
    clock += 1_000;
    quote(108612, 108624);
    // Closed last, but placed first: the list is by order time, not by close time.
    expect((await call(server, '/exchange/closeOrder', { orderId: closed }, user.token)).code).toBe(0);

    const first = await list(user.token, { page: 1, limit: 3, columns: 'closingTime' });
    expect(uids(first)).toEqual([canceled, pending, open]);
    expect(first.pages).toBe(2);
    expect(first.list.map((order) => order.status)).toEqual([4, 1, 2]);
    expect(first.list[0]).toMatchObject({ productName: 'EUR/USD', closingPrice: null });
    const second = await list(user.token, { page: 2, limit: 3 });
    expect(uids(second)).toEqual([closed]);
    expect(second.list[0]).toMatchObject({ status: 3, closingPrice: '1.08612' });
    expect(await list(user.token, { page: 3, limit: 3 })).toEqual({ list: [], pages: 2 });
    // The defaults: page 1, 10 a page.
    expect(uids(await list(user.token))).toEqual([canceled, pending, open, closed]);

    for (const [status, uid] of [[1, pending], [2, open], [3, closed], [4, canceled]] as const) {
      const filtered = await list(user.token, { positionStatus: status });
      expect(uids(filtered), `status ${status}`).toEqual([uid]);
      expect(filtered.pages).toBe(1);
    }
    // Someone else's list holds none of them.
    const other = await trader();
    expect(await list(other.token)).toEqual({ list: [], pages: 0 });
  });

  it('keeps the demo book\'s list apart from the real one: real tokens on order/list, demo tokens on order/listMock', async () => {
    const user = await trader();
    const real = await place(user.token);
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', true);
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    const demoOrder = await place(demo.token, {}, '/exchange/addOrderMock');
    expect(uids(await list(user.token))).toEqual([real]);
    expect(uids(await list(demo.token, {}, '/v1/waa/order/listMock'))).toEqual([demoOrder]);
    expect((await call(server, '/v1/waa/order/list', {}, demo.token)).code).toBe(1001);
    expect((await call(server, '/v1/waa/order/listMock', {}, user.token)).code).toBe(1001);
    expect((await call(server, '/v1/waa/order/list', {})).status).toBe(401);
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', false);
  });

  it('refuses bad input with 1001 and changes nothing', async () => {
    const user = await trader();
    const only = await place(user.token);
    const before = { list: await list(user.token), balance: (await call(server, '/v1/waa/user/balance', {}, user.token)).data };
    for (const bad of [{ limit: 0 }, { page: -1 }, { page: 0 }, { page: 1.5 }, { limit: 101 }, { positionStatus: 5 }, { positionStatus: 0 }, { orderBy: 'id' }, { page: '1' }]) {
      const answer = await call(server, '/v1/waa/order/list', bad, user.token);
      expect(answer.code, JSON.stringify(bad)).toBe(1001);
      expect(answer.data, JSON.stringify(bad)).toMatchObject({ problems: [expect.any(String)] });
    }
    expect(await list(user.token)).toEqual(before.list);
    expect(uids(before.list)).toEqual([only]);
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual(before.balance);
    expect(await ledger.check()).toEqual([]);
  });
});
