import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { money } from '../../src/shared/money/money';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, ledgerFundedTrader, loginByEmail, registerByEmail, setSwitch } from './identity-support';
const { cash: cashKind } = UserAccountKind;

// A Tuesday noon: forex is open.
let clock = Date.parse('2026-01-13T12:00:00Z');
let mailbox = 0;
let orderIds = 0;

describe.each(testBackends())('market contracts on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();
  /** EUR/USD quotes in units of 0.00001. */
  const quote = (bid: number, ask = bid + 12) => script.push([{ symbol: 'EURUSD', timeMs: clock, bid, ask, volume: 1 }]);

  const trader = (deposit = '1000') => ledgerFundedTrader(server, ledger, deposit);

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
  /** The ledger's own audit and the ledger against the books. */
  const audit = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];

  beforeAll(async () => {
    server = await startTestServer(backend, { MIN_HOLD_SECONDS: '180', STALE_PRICE_MS: '10000', FOREX_MIN_DEPOSIT: '40', MAX_PENDING_ORDERS: '3', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => clock });
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
    expect(open.list).toEqual([expect.objectContaining({ uid: placed.data, openingPrice: '1.08512', securityDepositInitial: '108.512', feeAmount: '0.217024', overnightFee: '0.00', productName: 'EUR/USD', lever: 100 })]);
    // The specification's names answer beside the older ones, with the same values.
    const [row] = open.list as unknown as { status: number; positionStatus: number; orderTime: number; orderTimeTs: number }[];
    expect(row).toMatchObject({ status: 2, positionStatus: 2 });
    expect(row?.orderTimeTs).toBe(row?.orderTime);
    expect(await audit()).toEqual([]);
  });

  it('places one order per clientOrderId, however often it is retried', async () => {
    const user = await trader();
    const body = order({ clientOrderId: 'retry-me' });
    const answers = await Promise.all([1, 2, 3].map(() => call(server, '/exchange/addOrder', body, user.token)));
    expect(new Set(answers.map((answer) => answer.data)).size).toBe(1);
    expect(((await balance(user.token)) as { lockMargin: string }).lockMargin).toBe('108.512');
  });

  it('an ended session places and closes nothing: the order paths check the session alongside their first reads, and answer 23519', async () => {
    const user = await trader();
    quote(108500, 108512);
    const opened = await call(server, '/exchange/addOrder', order(), user.token);
    expect(opened.code).toBe(0);
    const before = await balance(user.token);
    // Another sign-in of the same account stays; this one ends.
    const other = await loginByEmail(server, user.email);
    expect((await call(server, '/v1/waa/user/logout', {}, user.token)).code).toBe(0);
    const placed = await call(server, '/exchange/addOrder', order(), user.token);
    expect(placed.code).toBe(23519);
    // A refusal the order rules would give (volume 0) still answers the ended session, not the rule.
    expect((await call(server, '/exchange/addOrder', order({ orderQuantity: '0' }), user.token)).code).toBe(23519);
    // A replayed clientOrderId answers nothing of the earlier order either.
    expect((await call(server, '/exchange/addOrder', order({ clientOrderId: 'ignored' }), user.token)).code).toBe(23519);
    clock += 181_000;
    quote(108600, 108612);
    expect((await call(server, '/exchange/closeOrder', { orderId: opened.data }, user.token)).code).toBe(23519);
    expect(await balance(other.token)).toEqual(before);
    const open = (await call(server, '/v1/waa/order/history', { positionStatus: 2 }, other.token)).data as { list: { uid: string }[] };
    expect(open.list.map((row) => row.uid)).toEqual([opened.data]);
    // A token whose signature was changed is no session at all (401), on both paths.
    const [header, payload, signature = ''] = other.token.split('.');
    const forged = `${header}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    for (const [path, body] of [['/exchange/addOrder', order()], ['/exchange/closeOrder', { orderId: opened.data }]] as const) {
      const answer = await call(server, path, body, forged);
      expect(answer.status, path).toBe(401);
      expect(answer.code, path).toBe(400);
    }
    expect(await balance(other.token)).toEqual(before);
    // The living session closes it.
    expect((await call(server, '/exchange/closeOrder', { orderId: opened.data }, other.token)).code).toBe(0);
    expect(await audit()).toEqual([]);
  });

  it('twelve parallel orders that together need more than the cash: nine are placed, three refused with 203, and no refused one leaves an order or a journal', async () => {
    const user = await trader('1000');
    quote(108500, 108512);
    // Each locks 108.512 and pays 0.217024; each open buy is 1.20 down at the bid, which free margin counts.
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(server, '/exchange/addOrder', order(), user.token)));
    expect(answers.map((answer) => answer.code).sort((a, b) => a - b)).toEqual([...Array<number>(9).fill(0), 203, 203, 203]);
    expect(await balance(user.token)).toEqual({ balanceAmount: '21.438784', lockMargin: '976.608' });
    const db = server.database.db;
    const rows = await db.selectFrom('trade_order').select('order_no').where('uid', '=', user.uid).execute();
    expect(rows.map((row) => row.order_no).sort()).toEqual(answers.filter((answer) => answer.code === 0).map((answer) => String(answer.data)).sort());
    const journals = await db.selectFrom('ledger_journal').select('reference').where('uid', '=', user.uid).where('kind', '=', 'order-open').execute();
    expect(journals.map((journal) => journal.reference).sort()).toEqual(rows.map((row) => row.order_no).sort());
    // The nine closed at once (other tests' stop-out checks see every account): each settles once, in the same statement as its row.
    clock += 181_000;
    quote(108500, 108512);
    const closes = await Promise.all(rows.map((row) => call(server, '/exchange/closeOrder', { orderId: row.order_no }, user.token)));
    expect(closes.map((answer) => answer.code)).toEqual(rows.map(() => 0));
    // 1000 − 9 × 0.217024 in fees − 9 × 1.20 at the bid.
    expect(await balance(user.token)).toEqual({ balanceAmount: '987.246784', lockMargin: '0.00' });
    expect(await audit()).toEqual([]);
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

  it("a clientOrderId is the account's own: another user sending the same one gets an order of its own, never the first one's; a user barred from trading after opening still closes (405 only for new orders)", async () => {
    const first = await trader();
    const second = await trader();
    quote(108500, 108512);
    const mine = await call(server, '/exchange/addOrder', order({ clientOrderId: 'shared-id' }), first.token);
    const theirs = await call(server, '/exchange/addOrder', order({ clientOrderId: 'shared-id' }), second.token);
    expect([mine.code, theirs.code]).toEqual([0, 0]);
    expect(theirs.data).not.toBe(mine.data);
    expect(await balance(second.token)).toEqual({ balanceAmount: '891.270976', lockMargin: '108.512' });
    // Barred while a position is open: the flag is read with the session at each order, not carried in the token.
    await server.database.db.updateTable('app_user').set({ trade_prohibited: true }).where('uid', '=', first.uid).execute();
    expect((await call(server, '/exchange/addOrder', order(), first.token)).code).toBe(405);
    expect(await balance(first.token)).toEqual({ balanceAmount: '891.270976', lockMargin: '108.512' });
    clock += 181_000;
    quote(108500, 108512);
    expect((await call(server, '/exchange/closeOrder', { orderId: mine.data }, first.token)).code).toBe(0);
    // 1000 − 0.217024 fee − 1.20 at the bid.
    expect(await balance(first.token)).toEqual({ balanceAmount: '998.582976', lockMargin: '0.00' });
    expect(await audit()).toEqual([]);
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
    // Another user's order answers exactly as a missing one (code and message): nothing to enumerate.
    const notYours = await call(server, '/exchange/closeOrder', { orderId: orderNo }, other.token);
    const missing = await call(server, '/exchange/closeOrder', { orderId: '999' }, user.token);
    expect(missing.code).toBe(402);
    expect(notYours).toEqual(missing);
    expect((await call(server, '/exchange/cancelOrder', { orderId: orderNo }, other.token))).toEqual(missing);
    clock += 181_000;
    quote(108612, 108624);
    // Parallel closes of one position: exactly one wins.
    const closes = await Promise.all([1, 2, 3].map(() => call(server, '/exchange/closeOrder', { orderId: orderNo }, user.token)));
    expect(closes.map((answer) => answer.code).sort()).toEqual([0, 410, 410]);
    // (1.08612 − 1.08512) × 0.1 × 100000 = 10.00 profit; the fee was paid at opening.
    expect(await balance(user.token)).toEqual({ balanceAmount: '1009.782976', lockMargin: '0.00' });
    const history = (await call(server, '/v1/waa/order/history', { page: 1, limit: 10 }, user.token)).data as { list: { closingPrice: string; profitLoss: string; closeReason: string }[]; profitLossTotal: string; profitLossToday: string; pages: number };
    expect(history.list[0]).toMatchObject({ closingPrice: '1.08612', profitLoss: '10.00', closeReason: 'manual' });
    expect(history).toMatchObject({ profitLossTotal: '10.00', profitLossToday: '10.00', pages: 1 });
    expect((await call(server, '/exchange/cancelOrder', { orderId: orderNo }, user.token)).code).toBe(407);
    expect(await audit()).toEqual([]);
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
    expect(await audit()).toEqual([]);
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
    expect(await audit()).toEqual([]);
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
    const orderNo = (await call(server, '/exchange/addOrder', order(), user.token)).data as string;
    const before = await server.app.trading.chargeOvernight('2026-01-13');
    expect(before).toBeGreaterThanOrEqual(1);
    expect(await server.app.trading.chargeOvernight('2026-01-13')).toBe(0);
    // 1.08512 × 0.1 × 100000 × 0.00008 = 0.868096 on top of the opening fee.
    expect(await balance(user.token)).toEqual({ balanceAmount: '890.40288', lockMargin: '108.512' });
    // The fee counts both; the overnight fee is also told on its own.
    const open = (await call(server, '/v1/waa/order/history', { positionStatus: 2 }, user.token)).data as { list: { uid: string; feeAmount: string; overnightFee: string }[] };
    expect(open.list.find((row) => row.uid === orderNo)).toMatchObject({ feeAmount: '1.08512', overnightFee: '0.868096' });
    expect(await audit()).toEqual([]);
    // The ledger check holds the recorded overnight fee to what the journals charged.
    const db = server.database.db;
    await db.updateTable('trade_order').set({ overnight_fee: '0' }).where('order_no', '=', orderNo).execute();
    expect(await audit()).toEqual([`order ${orderNo} records 0.00 of overnight fees but its journals charged 0.868096`]);
    await db.updateTable('trade_order').set({ overnight_fee: '0.868096' }).where('order_no', '=', orderNo).execute();
    expect(await audit()).toEqual([]);
  });

  describe('negative-balance protection belongs to the account', () => {
    /**
     * A hedged pair: 1 lot bought at 1.08512 and 1 lot sold at 1.08500 (margin 1085.12 and
     * 1085.00, fees 2.17024 and 2.17) on 2200 deposited, then the price gaps 15% down.
     * The buy loses 16287.00, the sell gains 16263.00: the account's equity is
     * 25.53976 + 2170.12 − 24.00 = 2171.65976, and that is what it must end with, whatever
     * order the legs close in (the per-position cap paid out about 15,148 of the house's money).
     */
    const equityAfterGap = '2171.65976';
    async function hedgedPair(stopPrice?: string) {
      const user = await trader('2200');
      quote(108500, 108512);
      const buy = (await call(server, '/exchange/addOrder', order({ orderQuantity: '1', ...(stopPrice ? { stopPrice } : {}) }), user.token)).data as string;
      const sell = (await call(server, '/exchange/addOrder', order({ orderQuantity: '1', orderType: 1 }), user.token)).data as string;
      expect(await balance(user.token)).toEqual({ balanceAmount: '25.53976', lockMargin: '2170.12' });
      clock += 181_000;
      return { user, buy, sell };
    }
    const gap = () => quote(92225, 92237);
    const closeReasons = async (token: string) =>
      Object.fromEntries(((await call(server, '/v1/waa/order/list', { limit: 10 }, token)).data as { list: { uid: string; closeReason: string; profitLoss: string }[] }).list.map((item) => [item.uid, `${item.closeReason} ${item.profitLoss}`]));

    it('closing the losing leg first closes the account at its equity: no gain from the house', async () => {
      const { user, buy, sell } = await hedgedPair();
      gap();
      expect((await call(server, '/exchange/closeOrder', { orderId: buy }, user.token)).code).toBe(0);
      expect(await balance(user.token)).toEqual({ balanceAmount: equityAfterGap, lockMargin: '0.00' });
      // The winning leg covered the loss: it closed with it, at the server's quote.
      expect(await closeReasons(user.token)).toEqual({ [buy]: 'manual -16287.00', [sell]: 'stop_out 16263.00' });
      expect((await call(server, '/exchange/closeOrder', { orderId: sell }, user.token)).code).toBe(410);
      expect(await audit()).toEqual([]);
      quote(108500);
    });

    it('closing the winning leg first ends at the same equity', async () => {
      const { user, buy, sell } = await hedgedPair();
      gap();
      expect((await call(server, '/exchange/closeOrder', { orderId: sell }, user.token)).code).toBe(0);
      expect((await call(server, '/exchange/closeOrder', { orderId: buy }, user.token)).code).toBe(0);
      expect(await balance(user.token)).toEqual({ balanceAmount: equityAfterGap, lockMargin: '0.00' });
      expect(await closeReasons(user.token)).toEqual({ [buy]: 'manual -16287.00', [sell]: 'manual 16263.00' });
      expect(await audit()).toEqual([]);
      quote(108500);
    });

    it('closing both legs at once cannot pass the test twice', async () => {
      const { user, buy, sell } = await hedgedPair();
      gap();
      const answers = await Promise.all([buy, sell].map((orderId) => call(server, '/exchange/closeOrder', { orderId }, user.token)));
      expect(answers.filter((answer) => answer.code === 0).length).toBeGreaterThanOrEqual(1);
      expect(await balance(user.token)).toEqual({ balanceAmount: equityAfterGap, lockMargin: '0.00' });
      expect(await audit()).toEqual([]);
      quote(108500);
    });

    it('a stop loss gapped through on one leg closes the account at its equity, never below zero', async () => {
      const { user, buy, sell } = await hedgedPair('1.08');
      gap();
      await server.app.trading.settled();
      expect(await closeReasons(user.token)).toEqual({ [buy]: 'stop_loss -16287.00', [sell]: 'stop_out 16263.00' });
      expect(await balance(user.token)).toEqual({ balanceAmount: equityAfterGap, lockMargin: '0.00' });
      expect(await audit()).toEqual([]);
      quote(108500);
    });

    it('an account whose equity is below zero ends at exactly 0.00, its pending orders canceled, the house absorbing the rest', async () => {
      const user = await trader('1215');
      quote(108500, 108512);
      const buy = (await call(server, '/exchange/addOrder', order({ orderQuantity: '1' }), user.token)).data as string;
      // The buy is 12.00 under water at once (the spread): free margin 1215 − 1087.29024 − 12 = 115.70976 carries a 110.00 pending sell.
      const pending = (await call(server, '/exchange/addOrder', order({ orderType: 1, buyPoint: 1, price: '1.1' }), user.token)).data as string;
      expect(await balance(user.token)).toEqual({ balanceAmount: '17.70976', lockMargin: '1195.12' });
      clock += 181_000;
      gap();
      await server.app.trading.settled();
      expect((await call(server, '/exchange/closeOrder', { orderId: buy }, user.token)).code).toBe(0);
      expect(await balance(user.token)).toEqual({ balanceAmount: '0.00', lockMargin: '0.00' });
      // The user lost everything held (1215 less the fee); the history says so, not the 16287 the market moved.
      expect(await closeReasons(user.token)).toEqual({ [buy]: 'manual -1212.82976', [pending]: 'stop_out null' });
      expect(await audit()).toEqual([]);
      quote(108500);
    });
  });

  it('refuses a clientOrderId reused for a different order (1016), answering the same body with its first order', async () => {
    const user = await trader();
    quote(108500, 108512);
    const first = await call(server, '/exchange/addOrder', order({ clientOrderId: 'reused' }), user.token);
    expect(first.code).toBe(0);
    expect(await call(server, '/exchange/addOrder', order({ clientOrderId: 'reused' }), user.token)).toMatchObject({ code: 0, data: first.data });
    for (const change of [{ orderQuantity: '0.2' }, { orderType: 1 }, { tradePair: 'GBPUSD' }, { buyPoint: 1, price: '1.08' }, { stopPrice: '1.07' }]) {
      const reused = await call(server, '/exchange/addOrder', order({ clientOrderId: 'reused', ...change }), user.token);
      expect(reused.code).toBe(1016);
      expect(reused.msg).toBe('This order reference was already used for a different order. (1016)');
    }
    // Two different orders racing under one new id: one is placed, the other refused.
    const raced = await Promise.all([order({ clientOrderId: 'raced' }), order({ clientOrderId: 'raced', stopPrice: '1.07' })].map((body) => call(server, '/exchange/addOrder', body, user.token)));
    expect(raced.map((answer) => answer.code).sort()).toEqual([0, 1016]);
    expect(await balance(user.token)).toEqual({ balanceAmount: '782.541952', lockMargin: '217.024' });
  });

  it('gives every order its own number, even a burst of them in one millisecond', async () => {
    const user = await trader('3000');
    quote(108500, 108512);
    // The clock stands still here: the old millisecond-plus-three-digits numbers collided (HTTP 500).
    const answers = await Promise.all(Array.from({ length: 100 }, () => call(server, '/exchange/addOrder', order({ orderQuantity: '0.01' }), user.token)));
    expect(answers.map((answer) => answer.code)).toEqual(answers.map(() => 0));
    expect(new Set(answers.map((answer) => answer.data)).size).toBe(100);
    for (const answer of answers) expect(answer.data).toMatch(/^\d{16}$/);
  });

  it('refuses a pending price outside 50% of the market, and more than the allowed pending orders', async () => {
    const user = await trader('1000');
    quote(108500, 108512);
    const far = await call(server, '/exchange/addOrder', order({ buyPoint: 1, price: '0.00000001' }), user.token);
    expect(far).toMatchObject({ code: 1016, msg: 'The pending price must be within 50% of the market price. (1016)' });
    expect((await call(server, '/exchange/addOrder', order({ orderType: 1, buyPoint: 1, price: '1.7' }), user.token)).code).toBe(1016);
    expect(await balance(user.token)).toEqual({ balanceAmount: '1000.00', lockMargin: '0.00' });
    // Inside the band (1.08512 × 0.5 = 0.54256): placed. Six at once against a cap of 3: three placed.
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(server, '/exchange/addOrder', order({ buyPoint: 1, price: '0.55', orderQuantity: '0.01' }), user.token)));
    expect(answers.filter((answer) => answer.code === 0)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.code !== 0);
    expect(refused.map((answer) => answer.msg)).toEqual(refused.map(() => 'You can have at most 3 pending orders; cancel one first. (1010)'));
    expect(await balance(user.token)).toEqual({ balanceAmount: '983.50', lockMargin: '16.50' });
  });

  describe('the demo reset is one transaction', () => {
    async function demoTrader() {
      const user = await trader();
      await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', true);
      const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
      return { user, demo };
    }

    it('twenty parallel resets leave exactly the virtual balance', async () => {
      const { demo } = await demoTrader();
      quote(108500, 108512);
      for (let i = 0; i < 3; i += 1) expect((await call(server, '/exchange/addOrderMock', order({ orderQuantity: '1' }), demo.token)).code).toBe(0);
      const answers = await Promise.all(Array.from({ length: 20 }, () => call(server, '/v1/waa/user/resetMock', {}, demo.token)));
      expect(answers.map((answer) => answer.code)).toEqual(answers.map(() => 0));
      expect(await balance(demo.token)).toEqual({ balanceAmount: '100000.00', lockMargin: '0.00' });
      expect(await audit()).toEqual([]);
    });

    it('resets racing order placements leave every open order with its margin, closable', async () => {
      const { demo } = await demoTrader();
      quote(108500, 108512);
      const work = Array.from({ length: 12 }, (_, i) =>
        i % 4 === 0 ? call(server, '/v1/waa/user/resetMock', {}, demo.token) : call(server, '/exchange/addOrderMock', order({ orderQuantity: '1' }), demo.token),
      );
      expect((await Promise.all(work)).map((answer) => answer.code)).toEqual(work.map(() => 0));
      expect(await audit()).toEqual([]);
      clock += 181_000;
      quote(108500, 108512);
      const open = ((await call(server, '/v1/waa/order/historyMock', { positionStatus: 2, limit: 50 }, demo.token)).data as { list: { uid: string }[] }).list;
      for (const position of open) expect((await call(server, '/exchange/closeOrderMock', { orderId: position.uid }, demo.token)).code).toBe(0);
      expect(((await balance(demo.token)) as { lockMargin: string }).lockMargin).toBe('0.00');
      expect(await audit()).toEqual([]);
    });
  });

  it('the ledger check finds margin that its open orders do not hold, and orders without journals', async () => {
    const user = await trader();
    quote(108500, 108512);
    const orderNo = (await call(server, '/exchange/addOrder', order(), user.token)).data as string;
    // The state the old demo reset left: the margin account emptied under an open order.
    await ledger.post({
      idempotencyKey: `test-drain:${user.uid}`,
      book: 'real',
      kind: 'test',
      uid: user.uid,
      postings: [
        { account: { owner: user.uid, book: 'real', kind: 'margin' }, amount: -money('108.512') },
        { account: { owner: user.uid, book: 'real', kind: cashKind }, amount: money('108.512') },
      ],
    });
    expect(await ledger.check()).toEqual([]);
    expect(await reconcileBooks(server.database.db)).toEqual([`user ${user.uid} real margin holds 0.00 but its open orders lock 108.512`]);
    // Put it back, then an order that no journal paid for.
    await ledger.post({
      idempotencyKey: `test-undrain:${user.uid}`,
      book: 'real',
      kind: 'test',
      uid: user.uid,
      postings: [
        { account: { owner: user.uid, book: 'real', kind: cashKind }, amount: -money('108.512') },
        { account: { owner: user.uid, book: 'real', kind: 'margin' }, amount: money('108.512') },
      ],
    });
    const row = await server.database.db.selectFrom('trade_order').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = row;
    await server.database.db.insertInto('trade_order').values({ ...copy, order_no: '1999999999999999', client_order_id: 'forged', status: 4, fee: '0' }).execute();
    expect(await reconcileBooks(server.database.db)).toEqual(['order 1999999999999999 has no journal order-cancel:1999999999999999', 'order 1999999999999999 has no journal order-open:1999999999999999']);
    await server.database.db.deleteFrom('trade_order').where('order_no', '=', '1999999999999999').execute();
    expect(await audit()).toEqual([]);
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
    expect(await audit()).toEqual([]);
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
  const audit = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];

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

    const first = await list(user.token, { page: 1, limit: 3, columns: ['orderTime'] });
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

  it('answers one order of the book by its id (the transaction list\'s ?uid=), and nothing for an id of another account or book', async () => {
    const user = await trader();
    const mine = await place(user.token);
    await place(user.token);
    const found = await list(user.token, { uid: mine });
    expect(uids(found)).toEqual([mine]);
    expect(found.pages).toBe(1);
    expect(found.list[0]).toMatchObject({ uid: mine, status: 2, productName: 'EUR/USD' });
    // With a status that is not the order's: nothing.
    expect(await list(user.token, { uid: mine, positionStatus: 3 })).toEqual({ list: [], pages: 0 });
    // Another trader asking for it by id gets nothing, as does the owner's demo book.
    const other = await trader();
    expect(await list(other.token, { uid: mine })).toEqual({ list: [], pages: 0 });
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', true);
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    expect(await list(demo.token, { uid: mine }, '/v1/waa/order/listMock')).toEqual({ list: [], pages: 0 });
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', false);
    for (const bad of ['', '   ', 'x'.repeat(41), 12]) {
      const answer = await call(server, '/v1/waa/order/list', { uid: bad }, user.token);
      expect(answer.code, JSON.stringify(bad)).toBe(1001);
    }
  });

  it('sorts the history by the columns asked as an array (closing time by default) and refuses columns sent as a string', async () => {
    const user = await trader();
    const first = await place(user.token);
    const second = await place(user.token);
    clock += 1_000;
    expect((await call(server, '/exchange/closeOrder', { orderId: second }, user.token)).code).toBe(0);
    clock += 1_000;
    expect((await call(server, '/exchange/closeOrder', { orderId: first }, user.token)).code).toBe(0);
    const history = '/v1/waa/order/history';
    // Placed first, closed last: newest close first, then newest order first.
    expect(uids(await list(user.token, { positionStatus: 3, columns: ['closingTime'] }, history))).toEqual([first, second]);
    expect(uids(await list(user.token, {}, history))).toEqual([first, second]);
    expect(uids(await list(user.token, { positionStatus: 3, columns: ['orderTime'] }, history))).toEqual([second, first]);
    const asString = await call(server, history, { positionStatus: 3, columns: 'closingTime' }, user.token);
    expect(asString.code).toBe(1001);
    expect((await call(server, history, { columns: ['password'] }, user.token)).code).toBe(1001);
  });

  it('filters the history: all, unsettled, deal, canceled, and exception for orders the system ended (here the demo reset); a bad filter is refused with 1001', async () => {
    const user = await trader();
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', true);
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    const history = '/v1/waa/order/historyMock';
    const mock = '/exchange/addOrderMock';
    const closed = await place(demo.token, {}, mock);
    const open = await place(demo.token, {}, mock);
    const pending = await place(demo.token, { buyPoint: 1, price: '1.08' }, mock);
    const canceled = await place(demo.token, { buyPoint: 1, price: '1.07' }, mock);
    expect((await call(server, '/exchange/cancelOrderMock', { orderId: canceled }, demo.token)).code).toBe(0);
    clock += 1_000;
    expect((await call(server, '/exchange/closeOrderMock', { orderId: closed }, demo.token)).code).toBe(0);
    const filtered = async (filter: string) => new Set(uids(await list(demo.token, { filter, columns: ['orderTime'] }, history)));

    expect(await filtered('all')).toEqual(new Set([closed, open, pending, canceled]));
    expect(await filtered('unsettled')).toEqual(new Set([open, pending]));
    expect(await filtered('deal')).toEqual(new Set([closed]));
    expect(await filtered('canceled')).toEqual(new Set([canceled]));
    // Closed and canceled by the trader: no exception.
    expect(await filtered('exception')).toEqual(new Set());
    // The filter replaces the status: all orders whatever positionStatus says.
    expect(uids(await list(demo.token, { filter: 'all', positionStatus: 3, columns: ['orderTime'] }, history))).toEqual([canceled, pending, open, closed]);

    // The reset ends the running ones on the trader's behalf: the position closed, the pending order canceled.
    expect((await call(server, '/v1/waa/user/resetMock', {}, demo.token)).code).toBe(0);
    expect(await filtered('exception')).toEqual(new Set([open, pending]));
    expect(await filtered('unsettled')).toEqual(new Set());
    expect(await filtered('deal')).toEqual(new Set([closed, open]));
    expect(await filtered('canceled')).toEqual(new Set([canceled, pending]));

    for (const bad of ['stop_out', 'ALL', '', 3]) {
      const answer = await call(server, history, { filter: bad }, demo.token);
      expect(answer.code, JSON.stringify(bad)).toBe(1001);
      expect(answer.data, JSON.stringify(bad)).toMatchObject({ problems: [expect.any(String)] });
    }
    await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', false);
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
    expect(await audit()).toEqual([]);
  });
});
