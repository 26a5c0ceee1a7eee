import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, ledgerFundedTrader } from './identity-support';

// A Tuesday noon: forex is open.
const clock = Date.parse('2026-01-13T12:00:00Z');
let orderIds = 0;

/**
 * The stop-out job as it runs in production (RISK_CHECK_MS at its minimum, not the hour
 * the other API tests set) against manual closes of the same position: one of the two
 * closes it, the other is told it was already closed, and the books stay balanced.
 */
describe.each(testBackends())('stop-out and a manual close on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();
  const quote = (bid: number, ask = bid + 12) => script.push([{ symbol: 'EURUSD', timeMs: clock, bid, ask, volume: 1 }]);
  const order = () => ({ tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: `race${(orderIds += 1)}` });
  const closedOrder = async (token: string, orderNo: string) => {
    const list = ((await call(server, '/v1/waa/order/list', { limit: 10 }, token)).data as { list: { uid: string; closeReason: string; positionStatus: number }[] }).list;
    return list.find((item) => item.uid === orderNo);
  };

  beforeAll(async () => {
    server = await startTestServer(backend, { RISK_CHECK_MS: '100', MIN_HOLD_SECONDS: '0', STALE_PRICE_MS: '10000', FOREX_MIN_DEPOSIT: '0', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => clock });
    ledger = createLedger(server.database.db);
    quote(108500);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a close after the stop-out took the position is told it was already closed (410)', async () => {
    const user = await ledgerFundedTrader(server, ledger, '200');
    quote(108500, 108512);
    const placed = await call(server, '/exchange/addOrder', order(), user.token);
    expect(placed.code, placed.msg).toBe(0);
    const orderNo = placed.data as string;
    quote(107050, 107062); // equity 53.58 against 54.26 needed: below the level
    await expect.poll(async () => (await closedOrder(user.token, orderNo))?.closeReason, { timeout: 10_000 }).toBe('stop_out');
    const late = await call(server, '/exchange/closeOrder', { orderId: orderNo }, user.token);
    expect(late).toMatchObject({ status: 200, code: 410, msg: 'This position was already closed (410)' });
    expect([...(await ledger.check()), ...(await reconcileBooks(server.database.db))]).toEqual([]);
    quote(108500);
  });

  it('a manual close racing the stop-out: exactly one closes it, the other answers 410', async () => {
    for (let round = 0; round < 6; round += 1) {
      const user = await ledgerFundedTrader(server, ledger, '200');
      quote(108500, 108512);
      const orderNo = (await call(server, '/exchange/addOrder', order(), user.token)).data as string;
      quote(107050, 107062);
      // Two tabs close at once while the job runs: never a 404 or a 5xx, one close only.
      const answers = await Promise.all([1, 2].map(() => call(server, '/exchange/closeOrder', { orderId: orderNo }, user.token)));
      for (const answer of answers) expect([0, 410], answer.msg).toContain(answer.code);
      const closed = await closedOrder(user.token, orderNo);
      expect(closed?.closeReason).toMatch(/^(manual|stop_out)$/);
      // A manual win answers 0 once; a stop-out win answers 410 to both.
      expect(answers.filter((answer) => answer.code === 0)).toHaveLength(closed?.closeReason === 'manual' ? 1 : 0);
      quote(108500);
    }
    expect([...(await ledger.check()), ...(await reconcileBooks(server.database.db))]).toEqual([]);
  });
});
