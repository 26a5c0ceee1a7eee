import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterContextOf } from '../../server/cluster/cluster-context';
import { LeaseLostError, soleLeadership, type Leadership } from '../../server/cluster/leadership';
import { createLedger } from '../../server/modules/ledger/ledger';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { UserAccountKind } from '../../server/modules/ledger/ledger-kinds';
import type { OptionOrder, OptionProduct } from '../../src/shared/api/options';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { money } from '../../src/shared/money/money';
import { memoryLinkHub } from './support/memory-link';
import { fundedTrader } from './funding-support';
import { call, ledgerFundedTrader } from './identity-support';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';

/** A Tuesday noon: crypto is open. */
const tuesdayNoon = Date.parse('2026-01-13T12:00:00Z');

describe.each(testBackends())('a jobs leader whose lease was taken over settles nothing ($name)', (backend) => {
  let server: TestServer;
  let clock = tuesdayNoon;
  /** The process still believes it leads (a pause past its lease), but its epoch is no longer the lease's. */
  let leaseLost = false;
  const script = scriptedSource();

  beforeAll(async () => {
    const jobs: Leadership = {
      ...soleLeadership('jobs'),
      fenceIn: async () => {
        if (leaseLost) throw new LeaseLostError('jobs');
      },
    };
    const cluster = clusterContextOf({ link: memoryLinkHub().member(), market: soleLeadership('market'), jobs, start: () => undefined, stop: async () => undefined });
    server = await startTestServer(
      backend,
      { STALE_PRICE_MS: '10000', MIN_HOLD_SECONDS: '0', OPTION_SETTLEMENT_GRACE_MS: '250', OPTION_SETTLEMENT_SWEEP_MS: '3600000', FOREX_MIN_DEPOSIT: '0', SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1', CODES_SENT_PER_10_MIN: '1000', CODE_CHECKS_PER_10_MIN: '1000' },
      { marketSource: script.source, nowMs: () => clock, cluster },
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses the settlement in its transaction (no journal, the option still running), and the current leader settles it once', async () => {
    const ledger = createLedger(server.database.db);
    const user = await fundedTrader(server, '1000', 'option');
    const list = (await call(server, '/v1/wa-na/option/findOptionsProduct', { productCode: 'BTCUSDT' })).data as { optionsProducts: OptionProduct[] };
    script.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: 6_700_000, ask: 6_700_002, volume: 1 }]);
    const placed = await call(server, '/exchange/addOptionOrder', { tradePair: 'BTCUSDT', optionsProductId: list.optionsProducts[0]?.id, price: '0', timeLong: 30, btime: 0, rate: '0.8', amount: '100', orderType: 0, clientOrderId: 'fenced-1' }, user.token);
    expect(placed.code, placed.msg).toBe(0);
    const uid = (placed.data as { uid: string }).uid;
    const cashAfterPlacing = await ledger.balance({ owner: user.uid, book: 'real', kind: UserAccountKind.cash });
    clock += 30_000;
    script.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: 6_800_000, ask: 6_800_002, volume: 1 }]);
    clock += 1_000;
    const order = async () => (await call(server, '/v1/waa/option/order', { uid }, user.token)).data as OptionOrder;

    leaseLost = true;
    expect(await server.app.timedOptions.settleDue()).toBe(0);
    // Past its end and unsettled: still processing to its owner (411), and still running in the book.
    expect((await call(server, '/v1/waa/option/order', { uid }, user.token)).code).toBe(ErrorCode.ORDER_STILL_PROCESSING);
    expect((await server.database.db.selectFrom('option_order').select('status').where('order_no', '=', uid).executeTakeFirstOrThrow()).status).toBe(0);
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: UserAccountKind.cash })).toBe(cashAfterPlacing);

    leaseLost = false;
    expect(await server.app.timedOptions.settleDue()).toBe(1);
    expect(await order()).toMatchObject({ status: 1, result: 'win' });
    expect(await server.app.timedOptions.settleDue()).toBe(0);
    // 1000 − 101 placed, + 180 won.
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: UserAccountKind.cash })).toBe(money('1079'));
    expect(await ledger.check()).toEqual([]);
  });

  /** EURUSD at `bid` (and `ask`), stamped now. */
  const eurusd = (bid: number, ask = bid + 12) => script.push([{ symbol: 'EURUSD', timeMs: clock, bid, ask, volume: 1 }]);
  const eurusdOrder = (clientOrderId: string) => ({ tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId });
  const orderRow = (orderNo: string) => server.database.db.selectFrom('trade_order').select(['status', 'close_reason', 'fee']).where('order_no', '=', orderNo).executeTakeFirstOrThrow();
  const journalsKeyed = async (prefix: string) =>
    (await server.database.db.selectFrom('ledger_journal').select('idempotency_key').where('idempotency_key', 'like', `${prefix}%`).execute()).map((row) => row.idempotency_key);

  it('refuses the stop-out in its transaction (the position open, no journal, cash untouched), and the current leader stops it out once', async () => {
    const ledger = createLedger(server.database.db);
    const user = await ledgerFundedTrader(server, ledger, '200', 'fenced-stop');
    eurusd(108500);
    const placed = await call(server, '/exchange/addOrder', eurusdOrder('fenced-stop-1'), user.token);
    expect(placed.code, placed.msg).toBe(0);
    const orderNo = placed.data as string;
    const cashWhileOpen = await ledger.balance({ owner: user.uid, book: 'real', kind: UserAccountKind.cash });
    eurusd(107050); // equity 53.58 against 54.26 needed: below the stop-out level

    leaseLost = true;
    await expect(server.app.trading.checkStopOuts()).rejects.toBeInstanceOf(LeaseLostError);
    expect(await orderRow(orderNo)).toMatchObject({ status: 2, close_reason: null });
    expect(await journalsKeyed(`order-close:${orderNo}`)).toEqual([]);
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: UserAccountKind.cash })).toBe(cashWhileOpen);

    leaseLost = false;
    expect(await server.app.trading.checkStopOuts()).toBe(1);
    expect(await orderRow(orderNo)).toMatchObject({ close_reason: 'stop_out' });
    expect(await journalsKeyed(`order-close:${orderNo}`)).toEqual([`order-close:${orderNo}`]);
    expect(await server.app.trading.checkStopOuts()).toBe(0);
    expect([...(await ledger.check()), ...(await reconcileBooks(server.database.db))]).toEqual([]);
    eurusd(108500);
  });

  it('refuses the overnight fee in its transaction (no fee added to the order, no journal, cash untouched), and the current leader charges it once', async () => {
    const ledger = createLedger(server.database.db);
    const user = await ledgerFundedTrader(server, ledger, '1000', 'fenced-night');
    eurusd(108500);
    const placed = await call(server, '/exchange/addOrder', eurusdOrder('fenced-night-1'), user.token);
    expect(placed.code, placed.msg).toBe(0);
    const orderNo = placed.data as string;
    const cashWhileOpen = await ledger.balance({ owner: user.uid, book: 'real', kind: UserAccountKind.cash });
    // The order's fee column holds the opening fee; the overnight fee adds to it.
    const openingFee = money(String((await orderRow(orderNo)).fee));
    const day = '2026-01-13';

    leaseLost = true;
    await expect(server.app.trading.chargeOvernight(day)).rejects.toBeInstanceOf(LeaseLostError);
    expect(money(String((await orderRow(orderNo)).fee))).toBe(openingFee);
    expect(await journalsKeyed(`overnight:${orderNo}`)).toEqual([]);
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: UserAccountKind.cash })).toBe(cashWhileOpen);

    leaseLost = false;
    expect(await server.app.trading.chargeOvernight(day)).toBe(1);
    expect(await server.app.trading.chargeOvernight(day)).toBe(0);
    expect(await journalsKeyed(`overnight:${orderNo}`)).toEqual([`overnight:${orderNo}:${day}`]);
    const fee = money(String((await orderRow(orderNo)).fee)) - openingFee;
    expect(fee).toBeGreaterThan(0n);
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: UserAccountKind.cash })).toBe(cashWhileOpen - fee);
    expect(await call(server, '/exchange/closeOrder', { orderId: orderNo }, user.token)).toMatchObject({ code: 0 });
    expect([...(await ledger.check()), ...(await reconcileBooks(server.database.db))]).toEqual([]);
  });
});
