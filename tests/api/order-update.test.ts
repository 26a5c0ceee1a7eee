import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { JournalKind } from '../../server/modules/ledger/ledger-kinds';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { post, scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { fundedTrader } from './funding-support';

// A Tuesday noon: forex is open.
let clock = Date.parse('2026-01-13T12:00:00Z');
let orderIds = 0;

interface OrderData {
  uid: string;
  status: number;
  stopPrice: string | null;
  takeProfitPrice: string | null;
  limitPrice: string | null;
  closeReason: string | null;
  closingPrice: string | null;
  closableAfterTime: number | null;
  openingPrice: string | null;
  lever: number;
}

describe.each(testBackends())('editing orders (exchange/updateOrder) on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();
  /** EUR/USD quotes in units of 0.00001. */
  const quote = (bid: number, ask = bid + 12) => script.push([{ symbol: 'EURUSD', timeMs: clock, bid, ask, volume: 1 }]);
  const trader = () => fundedTrader(server, '1000');
  const place = async (token: string, change: Record<string, unknown> = {}) => {
    const body = { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: `u${(orderIds += 1)}`, ...change };
    const answer = await call(server, '/exchange/addOrder', body, token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as string;
  };
  const update = (token: string, body: Record<string, unknown>) => call(server, '/exchange/updateOrder', body, token);
  /** The account's order of that number, of any status. */
  const orderOf = async (token: string, orderNo: string) => {
    const list = ((await call(server, '/v1/waa/order/list', { limit: 100 }, token)).data as { list: OrderData[] }).list;
    return list.find((order) => order.uid === orderNo);
  };
  const audit = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];
  const balanceOf = async (token: string) => (await call(server, '/v1/waa/user/balance', {}, token)).data;
  /** How many margin adjustments the ledger holds for an order (one per edit that moved its margin). */
  const marginAdjustments = async (orderNo: string) =>
    Number(
      (
        await server.database.db
          .selectFrom('ledger_journal')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('kind', '=', JournalKind.orderMarginAdjust)
          .where('reference', '=', orderNo)
          .executeTakeFirstOrThrow()
      ).count,
    );

  beforeAll(async () => {
    server = await startTestServer(backend, { MIN_HOLD_SECONDS: '180', STALE_PRICE_MS: '10000', FOREX_MIN_DEPOSIT: '0', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => clock });
    ledger = createLedger(server.database.db);
    quote(108500);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('moves a stop loss and take profit: the new stop fires at the first tick through it, which the old one would not have', async () => {
    const user = await trader();
    quote(108500, 108512);
    const orderNo = await place(user.token, { stopPrice: '1.07' });
    expect((await update(user.token, { orderId: orderNo, stopPrice: '1.084', takeProfitPrice: '1.095' })).code).toBe(0);
    // A repeat changes nothing and succeeds.
    expect((await update(user.token, { orderId: orderNo, stopPrice: '1.084' })).code).toBe(0);
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 2, stopPrice: '1.084', takeProfitPrice: '1.095' });
    clock += 1_000;
    quote(108390);
    await server.app.trading.settled();
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 3, closeReason: 'stop_loss', closingPrice: '1.0839' });
    expect(await audit()).toEqual([]);
  });

  it('removes a stop loss with "": the price moves through where it stood and the position stays open; the take profit is kept', async () => {
    const user = await trader();
    quote(108500, 108512);
    const orderNo = await place(user.token, { stopPrice: '1.084', takeProfitPrice: '1.095' });
    expect((await update(user.token, { orderId: orderNo, stopPrice: '' })).code).toBe(0);
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 2, stopPrice: null, takeProfitPrice: '1.095' });
    clock += 1_000;
    quote(108300);
    await server.app.trading.settled();
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 2, closeReason: null });
    // Removing what is not there is a repeat; the take profit goes the same way.
    expect((await update(user.token, { orderId: orderNo, stopPrice: '', takeProfitPrice: '' })).code).toBe(0);
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 2, stopPrice: null, takeProfitPrice: null });
    clock += 1_000;
    quote(109600);
    await server.app.trading.settled();
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 2, closeReason: null });
    expect(await audit()).toEqual([]);
  });

  it('refuses a level on the wrong side or of 0 with its code, and changes nothing', async () => {
    const user = await trader();
    quote(108500, 108512);
    const orderNo = await place(user.token, { stopPrice: '1.07' });
    // A buy closes at the bid (1.08500): its stop loss must be below it, its take profit above.
    expect((await update(user.token, { orderId: orderNo, stopPrice: '1.086' })).code).toBe(311);
    expect((await update(user.token, { orderId: orderNo, takeProfitPrice: '1.08' })).code).toBe(310);
    const zero = await update(user.token, { orderId: orderNo, stopPrice: '0' });
    expect(zero.code).toBe(313);
    expect(zero.msg).toBe('The stop loss must be greater than 0. (313)');
    expect((await update(user.token, { orderId: orderNo, takeProfitPrice: '0.00' })).code).toBe(314);
    expect((await update(user.token, { orderId: orderNo, stopPrice: '-1' })).code).toBe(1001);
    // A position has no limit price to move.
    expect((await update(user.token, { orderId: orderNo, price: '1.08' })).code).toBe(1016);
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 2, stopPrice: '1.07', takeProfitPrice: null });
    // The same stop of 0 is refused at placement too, with the same code (it no longer means "none").
    expect((await call(server, '/exchange/addOrder', { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 1, buyPoint: 2, stopPrice: '0', clientOrderId: 'zero-stop' }, user.token)).code).toBe(313);
  });

  it('refuses another user\'s order and a closed one', async () => {
    const owner = await trader();
    const other = await trader();
    quote(108500, 108512);
    const orderNo = await place(owner.token);
    expect((await update(other.token, { orderId: orderNo, stopPrice: '1.08' })).code).toBe(402);
    expect(await orderOf(owner.token, orderNo)).toMatchObject({ stopPrice: null });
    clock += 181_000;
    quote(108500, 108512);
    expect((await call(server, '/exchange/closeOrder', { orderId: orderNo }, owner.token)).code).toBe(0);
    expect((await update(owner.token, { orderId: orderNo, stopPrice: '1.08' })).code).toBe(404);
    expect(await orderOf(owner.token, orderNo)).toMatchObject({ status: 3, stopPrice: null });
    // A real order on the demo path is not there.
    expect((await call(server, '/exchange/updateOrderMock', { orderId: orderNo, stopPrice: '1.08' }, owner.token)).code).toBe(1001);
  });

  it('moves a pending price within the rules: its side, the band, the margin it holds; its levels follow the new limit', async () => {
    const user = await trader();
    quote(108500, 108512);
    const orderNo = await place(user.token, { buyPoint: 1, price: '1.08', stopPrice: '1.07' });
    // Outside the 50% band, above the ask, or at 0: refused.
    expect((await update(user.token, { orderId: orderNo, price: '0.5' })).code).toBe(1016);
    expect((await update(user.token, { orderId: orderNo, price: '1.09' })).code).toBe(1016);
    expect((await update(user.token, { orderId: orderNo, price: '0' })).code).toBe(301);
    // The stop loss must stay below the new limit (315).
    expect((await update(user.token, { orderId: orderNo, price: '1.065' })).code).toBe(315);
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 1, limitPrice: '1.08', stopPrice: '1.07' });
    expect((await update(user.token, { orderId: orderNo, price: '1.075', stopPrice: '1.065' })).code).toBe(0);
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 1, limitPrice: '1.075', stopPrice: '1.065' });
    // It fills at the new limit, not the old one.
    clock += 1_000;
    quote(107900, 107912);
    await server.app.trading.settled();
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 1 });
    quote(107480, 107492);
    await server.app.trading.settled();
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 2, stopPrice: '1.065' });
    expect(await audit()).toEqual([]);
  });

  it('a moved pending price locks the margin it needs: more after a move up, the excess released after a move down', async () => {
    const user = await trader();
    quote(108500, 108512);
    const balance = async () => (await call(server, '/v1/waa/user/balance', {}, user.token)).data;
    // 0.1 lot at 1:100: the margin is a thousandth of the limit price's 100 000 units.
    const orderNo = await place(user.token, { buyPoint: 1, price: '1.08' });
    expect(await balance()).toEqual({ balanceAmount: '892.00', lockMargin: '108.00' });
    expect((await update(user.token, { orderId: orderNo, price: '1.084' })).code).toBe(0);
    expect(await balance()).toEqual({ balanceAmount: '891.60', lockMargin: '108.40' });
    expect((await update(user.token, { orderId: orderNo, price: '1.07' })).code).toBe(0);
    expect(await balance()).toEqual({ balanceAmount: '893.00', lockMargin: '107.00' });
    // Back to a price it had before: a new edit, a new journal.
    expect((await update(user.token, { orderId: orderNo, price: '1.084' })).code).toBe(0);
    expect(await balance()).toEqual({ balanceAmount: '891.60', lockMargin: '108.40' });
    expect(await audit()).toEqual([]);
    // Canceled, it releases what it holds now.
    expect((await call(server, '/exchange/cancelOrder', { orderId: orderNo }, user.token)).code).toBe(0);
    expect(await balance()).toEqual({ balanceAmount: '1000.00', lockMargin: '0.00' });
    expect(await audit()).toEqual([]);
  });

  it('refuses a move whose extra margin the free margin cannot cover (203), and changes nothing', async () => {
    const user = await fundedTrader(server, '108.2');
    quote(108500, 108512);
    const orderNo = await place(user.token, { buyPoint: 1, price: '1.08' });
    const refused = await update(user.token, { orderId: orderNo, price: '1.0825', stopPrice: '1.07' });
    expect(refused.code).toBe(203);
    expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 1, limitPrice: '1.08', stopPrice: null });
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '0.20', lockMargin: '108.00' });
    // An extra within the free margin is taken.
    expect((await update(user.token, { orderId: orderNo, price: '1.0815' })).code).toBe(0);
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '0.05', lockMargin: '108.15' });
    expect(await audit()).toEqual([]);
  });

  it('two parallel moves of one order end consistent: the margin of the price it ends at', async () => {
    const user = await trader();
    quote(108500, 108512);
    const orderNo = await place(user.token, { buyPoint: 1, price: '1.08' });
    const answers = await Promise.all([update(user.token, { orderId: orderNo, price: '1.084' }), update(user.token, { orderId: orderNo, price: '1.07' })]);
    expect(answers.map((answer) => answer.code)).toEqual([0, 0]);
    const order = await orderOf(user.token, orderNo);
    const expected = order?.limitPrice === '1.084' ? { balanceAmount: '891.60', lockMargin: '108.40' } : { balanceAmount: '893.00', lockMargin: '107.00' };
    expect(['1.084', '1.07']).toContain(order?.limitPrice);
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual(expected);
    expect(await audit()).toEqual([]);
  });

  it('places at a lower leverage step with more margin; a leverage above the product\'s or off the steps is refused', async () => {
    const user = await trader();
    quote(108500, 108512);
    const orderNo = await place(user.token, { multiple: 20 });
    // 1.08512 × 0.1 × 100000 ÷ 20 = 542.56; fee 0.217024.
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '457.222976', lockMargin: '542.56' });
    expect(await orderOf(user.token, orderNo)).toMatchObject({ lever: 20 });
    for (const multiple of [200, 7]) {
      expect((await call(server, '/exchange/addOrder', { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple, orderType: 0, buyPoint: 2, clientOrderId: `bad-leverage-${multiple}` }, user.token)).code).toBe(1016);
    }
    expect(await audit()).toEqual([]);
  });

  it('tells the app when a position may be closed (its minimum holding time), and refuses an earlier close', async () => {
    const user = await trader();
    quote(108500, 108512);
    const placedAt = clock;
    const orderNo = await place(user.token);
    expect(await orderOf(user.token, orderNo)).toMatchObject({ closableAfterTime: placedAt + 180_000 });
    clock += 179_000;
    quote(108500, 108512);
    expect((await call(server, '/exchange/closeOrder', { orderId: orderNo }, user.token)).code).toBe(409);
    clock += 1_000;
    quote(108500, 108512);
    expect((await call(server, '/exchange/closeOrder', { orderId: orderNo }, user.token)).code).toBe(0);
    // A closed order has nothing left to wait for.
    expect(await orderOf(user.token, orderNo)).toMatchObject({ closableAfterTime: null });
  });

  describe('adversarial review', () => {
    it('a replayed identical edit changes nothing more: one margin adjustment, the books balanced', async () => {
      const user = await trader();
      quote(108500, 108512);
      const orderNo = await place(user.token, { buyPoint: 1, price: '1.08' });
      const edit = { orderId: orderNo, price: '1.084', stopPrice: '1.07' };
      expect((await update(user.token, edit)).code).toBe(0);
      // The same request again, then three times at once (a client retrying after a timeout).
      expect((await update(user.token, edit)).code).toBe(0);
      expect((await Promise.all([1, 2, 3].map(() => update(user.token, edit)))).map((answer) => answer.code)).toEqual([0, 0, 0]);
      expect(await marginAdjustments(orderNo)).toBe(1);
      expect(await balanceOf(user.token)).toEqual({ balanceAmount: '891.60', lockMargin: '108.40' });
      expect(await orderOf(user.token, orderNo)).toMatchObject({ status: 1, limitPrice: '1.084', stopPrice: '1.07' });
      expect(await audit()).toEqual([]);
    });

    it("another user's order answers exactly as a missing one, on every kind of edit, and nothing changes", async () => {
      const owner = await trader();
      const other = await trader();
      quote(108500, 108512);
      const pendingNo = await place(owner.token, { buyPoint: 1, price: '1.08', stopPrice: '1.07' });
      const missing = await update(other.token, { orderId: '999999999', price: '1.075' });
      expect(missing.code).toBe(402);
      for (const edit of [{ price: '1.075' }, { stopPrice: '' }, { takeProfitPrice: '1.09' }]) {
        expect(await update(other.token, { orderId: pendingNo, ...edit })).toEqual(missing);
      }
      expect(await orderOf(owner.token, pendingNo)).toMatchObject({ status: 1, limitPrice: '1.08', stopPrice: '1.07', takeProfitPrice: null });
      expect(await balanceOf(owner.token)).toEqual({ balanceAmount: '892.00', lockMargin: '108.00' });
      expect(await balanceOf(other.token)).toEqual({ balanceAmount: '1000.00', lockMargin: '0.00' });
      expect(await marginAdjustments(pendingNo)).toBe(0);
    });

    it('a demo token on the real path and a real token on the demo path are refused, and nothing changes', async () => {
      const user = await trader();
      const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
      quote(108500, 108512);
      const realNo = await place(user.token, { buyPoint: 1, price: '1.08' });
      const demoAnswer = await call(server, '/exchange/addOrderMock', { tradePair: 'EURUSD', price: '1.08', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 1, clientOrderId: `u${(orderIds += 1)}` }, demo.token);
      expect(demoAnswer.code, demoAnswer.msg).toBe(0);
      const demoNo = demoAnswer.data as string;
      // Each token on the other book's path, with its own book's order or the other's.
      for (const orderId of [realNo, demoNo]) {
        expect((await call(server, '/exchange/updateOrder', { orderId, price: '1.075' }, demo.token)).code).toBe(1001);
        expect((await call(server, '/exchange/updateOrderMock', { orderId, price: '1.075' }, user.token)).code).toBe(1001);
      }
      // The right token on its path, with the other book's order: not there.
      expect((await call(server, '/exchange/updateOrder', { orderId: demoNo, price: '1.075' }, user.token)).code).toBe(402);
      expect((await call(server, '/exchange/updateOrderMock', { orderId: realNo, price: '1.075' }, demo.token)).code).toBe(402);
      expect(await orderOf(user.token, realNo)).toMatchObject({ status: 1, limitPrice: '1.08' });
      const demoList = ((await call(server, '/v1/waa/order/listMock', { limit: 100 }, demo.token)).data as { list: OrderData[] }).list;
      expect(demoList.find((order) => order.uid === demoNo)).toMatchObject({ status: 1, limitPrice: '1.08' });
      expect(await marginAdjustments(realNo)).toBe(0);
      expect(await marginAdjustments(demoNo)).toBe(0);
      expect(await audit()).toEqual([]);
    });

    it('an edit of a canceled or a closed order is refused with 404, and no margin moves', async () => {
      const user = await trader();
      quote(108500, 108512);
      const pendingNo = await place(user.token, { buyPoint: 1, price: '1.08' });
      expect((await call(server, '/exchange/cancelOrder', { orderId: pendingNo }, user.token)).code).toBe(0);
      for (const edit of [{ price: '1.075' }, { stopPrice: '1.07' }, { takeProfitPrice: '' }]) {
        expect((await update(user.token, { orderId: pendingNo, ...edit })).code).toBe(404);
      }
      const positionNo = await place(user.token);
      clock += 181_000;
      quote(108500, 108512);
      expect((await call(server, '/exchange/closeOrder', { orderId: positionNo }, user.token)).code).toBe(0);
      expect((await update(user.token, { orderId: positionNo, stopPrice: '1.07' })).code).toBe(404);
      expect(await orderOf(user.token, pendingNo)).toMatchObject({ status: 4, limitPrice: '1.08' });
      expect(await orderOf(user.token, positionNo)).toMatchObject({ status: 3, stopPrice: null });
      expect((await balanceOf(user.token)) as { lockMargin: string }).toMatchObject({ lockMargin: '0.00' });
      expect(await marginAdjustments(pendingNo)).toBe(0);
      expect(await audit()).toEqual([]);
    });

    it("a hedged pair: moving the pending leg's price keeps the open leg's margin, counts its loss against the extra (203), and releases only its own excess", async () => {
      // A buy of 0.1 at 1.08512 (margin 108.512, fee 0.217024) and a sell limit of 0.1 at 1.09 (margin 109.00): cash 2.270976.
      const user = await fundedTrader(server, '220');
      quote(108500, 108512);
      const buyNo = await place(user.token);
      const sellNo = await place(user.token, { orderType: 1, buyPoint: 1, price: '1.09' });
      expect(await balanceOf(user.token)).toEqual({ balanceAmount: '2.270976', lockMargin: '217.512' });
      // The bid falls to 1.08491: the buy loses 2.10, so the free margin is 0.170976 although the cash is 2.27.
      clock += 1_000;
      quote(108491, 108503);
      expect((await update(user.token, { orderId: sellNo, price: '1.0902' })).code).toBe(0);
      expect(await balanceOf(user.token)).toEqual({ balanceAmount: '2.250976', lockMargin: '217.532' });
      // 0.16 more would fit in the cash (2.25) but not in the free margin (0.150976): refused, nothing changes.
      expect((await update(user.token, { orderId: sellNo, price: '1.0918' })).code).toBe(203);
      expect(await orderOf(user.token, sellNo)).toMatchObject({ status: 1, limitPrice: '1.0902' });
      expect(await balanceOf(user.token)).toEqual({ balanceAmount: '2.250976', lockMargin: '217.532' });
      // Down to 1.086: the sell releases 0.42 of its own; the buy still holds its 108.512.
      expect((await update(user.token, { orderId: sellNo, price: '1.086' })).code).toBe(0);
      expect(await balanceOf(user.token)).toEqual({ balanceAmount: '2.670976', lockMargin: '217.112' });
      expect(await orderOf(user.token, buyNo)).toMatchObject({ status: 2 });
      expect(await marginAdjustments(sellNo)).toBe(2);
      expect(await marginAdjustments(buyNo)).toBe(0);
      expect(await audit()).toEqual([]);
    });

    it('ten parallel moves of one pending price: the locked margin is exactly what the final price needs, one journal per move', async () => {
      const user = await trader();
      quote(108500, 108512);
      const orderNo = await place(user.token, { buyPoint: 1, price: '1.08' });
      const prices = Array.from({ length: 10 }, (_, i) => `1.07${i}`);
      const answers = await Promise.all(prices.map((price) => update(user.token, { orderId: orderNo, price })));
      expect(answers.map((answer) => answer.code)).toEqual(prices.map(() => 0));
      const order = await orderOf(user.token, orderNo);
      expect(prices).toContain(order?.limitPrice);
      // 0.1 lot at 1:100 locks a thousandth of 100 000 units of the price: 100 × the price.
      const lockedCents = 10_700 + Number(order!.limitPrice!.slice(-1)) * 10;
      const freeCents = 100_000 - lockedCents;
      const amount = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      expect(await balanceOf(user.token)).toEqual({ balanceAmount: amount(freeCents), lockMargin: amount(lockedCents) });
      // Every move changed the price it found (all ten differ and none is 1.08): ten adjustments.
      expect(await marginAdjustments(orderNo)).toBe(10);
      expect(await audit()).toEqual([]);
    });

    it('a parallel edit and close of one position, and a parallel move and cancel of one pending order: one wins, no margin is left behind', async () => {
      const user = await trader();
      quote(108500, 108512);
      const positionNo = await place(user.token, { stopPrice: '1.07' });
      const pendingNo = await place(user.token, { buyPoint: 1, price: '1.08' });
      clock += 181_000;
      quote(108500, 108512);
      const [edited, closed, moved, canceled] = await Promise.all([
        update(user.token, { orderId: positionNo, stopPrice: '1.075' }),
        call(server, '/exchange/closeOrder', { orderId: positionNo }, user.token),
        update(user.token, { orderId: pendingNo, price: '1.084' }),
        call(server, '/exchange/cancelOrder', { orderId: pendingNo }, user.token),
      ]);
      expect(closed.code).toBe(0);
      expect(canceled.code).toBe(0);
      // An edit that came after the close or cancel finds it ended.
      expect([0, 404]).toContain(edited.code);
      expect([0, 404]).toContain(moved.code);
      expect(await orderOf(user.token, positionNo)).toMatchObject({ status: 3 });
      expect(await orderOf(user.token, pendingNo)).toMatchObject({ status: 4 });
      expect(await marginAdjustments(pendingNo)).toBe(moved.code === 0 ? 1 : 0);
      expect((await balanceOf(user.token)) as { lockMargin: string }).toMatchObject({ lockMargin: '0.00' });
      expect(await audit()).toEqual([]);
    });

    it('NUL bytes and garbage in any field are bad input (HTTP 200, a code, never a 500): the order, its margin and the books stay as they were', async () => {
      const user = await trader();
      quote(108500, 108512);
      const positionNo = await place(user.token, { stopPrice: '1.07' });
      const pendingNo = await place(user.token, { buyPoint: 1, price: '1.08', stopPrice: '1.07' });
      const before = await balanceOf(user.token);
      const nul = '\u0000';
      const garbage: [string, Record<string, unknown>][] = [];
      for (const orderId of [positionNo, pendingNo]) {
        garbage.push(
          [`NUL in orderId`, { orderId: `${orderId}${nul}`, stopPrice: '1.075' }],
          [`NUL in stopPrice`, { orderId, stopPrice: `1.075${nul}` }],
          [`NUL alone as a level`, { orderId, takeProfitPrice: nul }],
          [`NUL in price`, { orderId, price: `1.07${nul}` }],
          [`NUL in an unknown key`, { orderId, [`stop${nul}Price`]: '1.075' }],
          [`an unknown field`, { orderId, stopPrice: '1.075', orderQuantity: '5' }],
          [`a number instead of a string`, { orderId, stopPrice: 1.075 }],
          [`a numeric orderId`, { orderId: Number(orderId), stopPrice: '1.075' }],
          [`an array`, { orderId, stopPrice: ['1.075'] }],
          [`an object`, { orderId, takeProfitPrice: { value: '1.09' } }],
          [`null`, { orderId, stopPrice: null }],
          [`an exponent`, { orderId, stopPrice: '1e0' }],
          [`a second point`, { orderId, stopPrice: '1.07.5' }],
          [`a sign`, { orderId, takeProfitPrice: '+1.09' }],
          [`NaN`, { orderId, stopPrice: 'NaN' }],
          [`Infinity`, { orderId, takeProfitPrice: 'Infinity' }],
          [`a hex number`, { orderId, takeProfitPrice: '0x10' }],
          [`nine decimals`, { orderId, stopPrice: '1.075000001' }],
          [`twenty-three digits`, { orderId, takeProfitPrice: '1'.repeat(23) }],
          [`"" as a price`, { orderId, price: '' }],
          [`an orderId of 41 characters`, { orderId: `${orderId}${'9'.repeat(41)}`.slice(0, 41), stopPrice: '1.075' }],
          [`a blank orderId`, { orderId: '   ', stopPrice: '1.075' }],
          [`no orderId`, { stopPrice: '1.075' }],
          [`SQL in orderId`, { orderId: `${orderId}' OR '1'='1`, stopPrice: '1.075' }],
        );
      }
      for (const [name, body] of garbage) {
        const answer = await update(user.token, body);
        expect(answer.status, name).toBe(200);
        expect(answer.code, name).not.toBe(0);
        expect(answer.msg, name).not.toBe('');
      }
      // Bodies that are not an object at all.
      for (const raw of ['', 'null', '[]', '"orderId"', '{"orderId":', `{"orderId":"${positionNo}","stopPrice":"1.075"}x`]) {
        const response = await post(server.app, '/exchange/updateOrder', raw, { authorization: `Bearer ${user.token}` });
        expect(response.statusCode, raw).toBeLessThan(500);
        expect((response.json() as { code: number }).code, raw).not.toBe(0);
      }
      // A take profit far above the price is on the right side of a buy and fits the column (22 digits): kept exactly, then removed.
      const far = '9'.repeat(22);
      expect((await update(user.token, { orderId: positionNo, takeProfitPrice: far })).code).toBe(0);
      expect(await orderOf(user.token, positionNo)).toMatchObject({ takeProfitPrice: `${far}.00` });
      expect((await update(user.token, { orderId: positionNo, takeProfitPrice: '' })).code).toBe(0);
      expect(await orderOf(user.token, positionNo)).toMatchObject({ status: 2, stopPrice: '1.07', takeProfitPrice: null });
      expect(await orderOf(user.token, pendingNo)).toMatchObject({ status: 1, limitPrice: '1.08', stopPrice: '1.07', takeProfitPrice: null });
      expect(await balanceOf(user.token)).toEqual(before);
      expect(await marginAdjustments(pendingNo)).toBe(0);
      expect(await audit()).toEqual([]);
    });

    it('a trigger that fired at a level an edit moved or removed meanwhile does not act at the old level', async () => {
      for (let round = 0; round < 4; round += 1) {
        const user = await trader();
        clock += 1_000;
        quote(108500, 108512);
        const pendingNo = await place(user.token, { buyPoint: 1, price: '1.08' });
        const positionNo = await place(user.token, { stopPrice: '1.07' });
        // One tick crosses the old limit (ask 1.07962) and the old stop (bid 1.0695) while the edits move them out of its way.
        clock += 1_000;
        const [moved, removed] = await Promise.all([
          update(user.token, { orderId: pendingNo, price: '1.07' }),
          update(user.token, { orderId: positionNo, stopPrice: '' }),
          Promise.resolve().then(() => quote(106950, 107962)),
        ]);
        await server.app.trading.settled();
        const pending = await orderOf(user.token, pendingNo);
        // Either the fill came first (the move then finds a position: 1016) or the move did (no fill at 1.07962 for a limit of 1.07).
        if (moved.code === 0) expect(pending).toMatchObject({ status: 1, limitPrice: '1.07' });
        else expect([moved.code, pending?.status, pending?.openingPrice]).toEqual([1016, 2, '1.07962']);
        const position = await orderOf(user.token, positionNo);
        if (removed.code === 0) expect(position).toMatchObject({ status: 2, stopPrice: null });
        else expect([removed.code, position?.status, position?.closeReason]).toEqual([404, 3, 'stop_loss']);
        expect(await audit()).toEqual([]);
      }
    });
  });
});
