import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, ledgerFundedTrader, loginByEmail } from './identity-support';

// A Friday noon: forex and crypto are open.
const friday = Date.parse('2026-01-16T12:00:00Z');
let clock = friday;
let orderIds = 0;

/**
 * A position whose market is closed never blocks closing one whose market is open
 * (src/shared/trading/protection-cover.ts): a forex position held over the weekend, and a
 * Bitcoin position that loses more on Saturday than the cash and its own margin carry.
 */
describe.each(testBackends())('negative-balance protection over a closed market on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();
  /** EUR/USD in 0.00001, Bitcoin in 0.01. */
  const euro = (bid: number) => script.push([{ symbol: 'EURUSD', timeMs: clock, bid, ask: bid + 12, volume: 1 }]);
  const bitcoin = (bid: number) => script.push([{ symbol: 'BTCUSDT', timeMs: clock, bid, ask: bid + 2000, volume: 1 }]);
  const order = (change: Record<string, unknown>) => ({ price: '0', orderQuantity: '0.1', orderType: 0, buyPoint: 2, clientOrderId: `held${(orderIds += 1)}`, ...change });
  const balance = async (token: string) => (await call(server, '/v1/waa/user/balance', {}, token)).data;
  const reasons = async (token: string) =>
    Object.fromEntries(((await call(server, '/v1/waa/order/list', { limit: 10 }, token)).data as { list: { uid: string; closeReason: string; profitLoss: string }[] }).list.map((item) => [item.uid, `${item.closeReason} ${item.profitLoss}`]));
  const openPositions = async (token: string) => ((await call(server, '/v1/waa/order/history', { positionStatus: 2 }, token)).data as { list: { uid: string; securityDepositInitial: string }[] }).list;
  const audit = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];

  beforeAll(async () => {
    // Each backend's server starts on Friday: its seeded history ends there.
    clock = friday;
    server = await startTestServer(backend, { MIN_HOLD_SECONDS: '0', FOREX_MIN_DEPOSIT: '0', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => clock });
    ledger = createLedger(server.database.db);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('closes the open market\'s position at once; the held one covers the shortfall with its margin and closes when its market opens', async () => {
    clock = friday;
    const user = await ledgerFundedTrader(server, ledger, '1000');
    euro(108500);
    bitcoin(6700000);
    const euroOrder = await call(server, '/exchange/addOrder', order({ tradePair: 'EURUSD', multiple: 100 }), user.token);
    expect(euroOrder.code, euroOrder.msg).toBe(0);
    const held = euroOrder.data as string;
    const crypto = await call(server, '/exchange/addOrder', order({ tradePair: 'BTCUSDT', multiple: 20 }), user.token);
    expect(crypto.code, crypto.msg).toBe(0);
    // Margins 108.512 and 335.10, fees 0.217024 and 3.351.
    expect(await balance(user.token)).toEqual({ balanceAmount: '552.819976', lockMargin: '443.612' });

    // Saturday: forex is closed, its last price a day old. Bitcoin falls 9,500.
    clock = friday + 24 * 3_600_000;
    // A day later the access token has run out: signed in again.
    user.token = (await loginByEmail(server, user.email)).token;
    bitcoin(5752000);
    const closed = await call(server, '/exchange/closeOrder', { orderId: crypto.data }, user.token);
    // Before: 202 until the forex market quoted again on Sunday night.
    expect(closed.code, closed.msg).toBe(0);
    // The loss of 950.00 leaves 62.080024 missing: taken from the held position's margin, the house pays nothing.
    expect(await balance(user.token)).toEqual({ balanceAmount: '0.00', lockMargin: '46.431976' });
    expect(await reasons(user.token)).toMatchObject({ [crypto.data as string]: 'manual -950.00' });
    expect((await openPositions(user.token)).map((item) => item.uid)).toEqual([held]);
    expect(await audit()).toEqual([]);

    // Monday: the held position quotes again and closes by hand, on what is left of its margin.
    clock = friday + 3 * 24 * 3_600_000;
    user.token = (await loginByEmail(server, user.email)).token;
    euro(108500);
    expect((await call(server, '/exchange/closeOrder', { orderId: held }, user.token)).code).toBe(0);
    // 1000 less the fees (3.568024), Bitcoin's 950.00 and the euro's 1.20: all the customer's own, nothing from the house.
    expect(await balance(user.token)).toEqual({ balanceAmount: '45.231976', lockMargin: '0.00' });
    expect(await reasons(user.token)).toMatchObject({ [held]: 'manual -1.20' });
    expect(await audit()).toEqual([]);
  });

  it('the house absorbs only what every held margin cannot cover, and the cash ends at 0', async () => {
    // The next week: ticks older than the last ones are ignored.
    const nextFriday = friday + 7 * 24 * 3_600_000;
    clock = nextFriday;
    const user = await ledgerFundedTrader(server, ledger, '1000');
    euro(108500);
    bitcoin(6700000);
    const held = (await call(server, '/exchange/addOrder', order({ tradePair: 'EURUSD', multiple: 100 }), user.token)).data as string;
    const crypto = (await call(server, '/exchange/addOrder', order({ tradePair: 'BTCUSDT', multiple: 20 }), user.token)).data as string;
    clock = nextFriday + 24 * 3_600_000;
    user.token = (await loginByEmail(server, user.email)).token;
    // Bitcoin falls 12,000: a loss of 1,200.00 against 552.819976 + 335.10 + 108.512 = 996.431976.
    bitcoin(5502000);
    expect((await call(server, '/exchange/closeOrder', { orderId: crypto }, user.token)).code).toBe(0);
    expect(await balance(user.token)).toEqual({ balanceAmount: '0.00', lockMargin: '0.00' });
    // The user lost all they held; the history says so, not the 1,200 the market moved.
    expect(await reasons(user.token)).toMatchObject({ [crypto]: 'manual -996.431976' });
    expect((await openPositions(user.token)).map((item) => item.uid)).toEqual([held]);
    expect(await audit()).toEqual([]);
  });
});
