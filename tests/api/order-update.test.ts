import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, fundedTrader } from './identity-support';

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
  lever: number;
}

describe.each(testBackends())('editing orders (exchange/updateOrder) on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();
  /** EUR/USD quotes in units of 0.00001. */
  const quote = (bid: number, ask = bid + 12) => script.push([{ symbol: 'EURUSD', timeMs: clock, bid, ask, volume: 1 }]);
  const trader = () => fundedTrader(server, ledger, '1000');
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
    const user = await fundedTrader(server, ledger, '108.2');
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
});
