import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer } from '../../server/app';
import { createTokenService, type TokenService } from '../../server/auth/tokens';
import type { DatabaseHandle } from '../../server/db/database';
import type { MarketDataSource } from '../../server/modules/market/sources/market-data-source';
import { seededRandom } from '../../server/modules/market/sources/random';
import { HouseAccountKind, UserAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { createMessageDelivery } from '../../server/messaging/delivery';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { readSettings } from '../../server/settings';
import type { OptionOrder, OptionOrderListData, OptionProduct } from '../../src/shared/api/options';
import { exchangeFeedMessage } from '../../src/shared/api/trading';
import { formatMoney, money, type Units } from '../../src/shared/money/money';
import { optionFee, settleOption } from '../../src/shared/options/option-rules';
import { openTestDatabase, scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, loginByEmail, setSwitch } from './identity-support';
import { fundedTrader } from './funding-support';
const { cash: cashKind, optionEscrow: optionEscrowKind } = UserAccountKind;
const { optionResult: optionResultKind } = HouseAccountKind;

// A Tuesday noon: forex, indices and crypto are open; Hong Kong 50 (01:15–08:30 UTC) is closed.
const tuesdayNoon = Date.parse('2026-01-13T12:00:00Z');
const environment = {
  STALE_PRICE_MS: '10000',
  OPTION_SETTLEMENT_GRACE_MS: '250',
  // Settlement runs when a test asks (the clock is the test's); the safety sweep would race it.
  OPTION_SETTLEMENT_SWEEP_MS: '3600000',
  FOREX_MIN_DEPOSIT: '0',
  // The clock crosses midnight: sessions outlive it.
  ACCESS_TOKEN_TTL_SECONDS: '604800',
  SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1',
  CODES_SENT_PER_10_MIN: '1000',
  CODE_CHECKS_PER_10_MIN: '1000',
};
let clientIds = 0;
/** Tests that start several server instances (each prepares the market at start). */
const restartTimeoutMs = 120_000;

type Call = Awaited<ReturnType<typeof call>>;
type Server = Pick<TestServer, 'app' | 'delivery' | 'nowMs'>;

function newTrader(server: Server, deposit = '1000') {
  return fundedTrader(server, deposit, 'option');
}

describe.each(testBackends())('timed options on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let clock = tuesdayNoon;
  const script = scriptedSource();
  const quote = (symbol: string, bid: number) => script.push([{ symbol, timeMs: clock, bid, ask: bid + 2, volume: 1 }]);
  const products = new Map<string, number>();
  const place = (token: string, change: Record<string, unknown> = {}, path = '/exchange/addOptionOrder') =>
    call(server, path, {
      tradePair: 'BTCUSDT',
      optionsProductId: products.get(String(change.tradePair ?? 'BTCUSDT')) ?? 999,
      price: '67000',
      timeLong: 30,
      btime: Math.floor(clock / 1000),
      rate: '0.8',
      amount: '100',
      orderType: 0,
      clientOrderId: `o${(clientIds += 1)}`,
      ...change,
    }, token);
  const cashOf = (uid: number, book: 'real' | 'demo' = 'real') => ledger.balance({ owner: uid, book, kind: cashKind });
  const escrowOf = (uid: number, book: 'real' | 'demo' = 'real') => ledger.balance({ owner: uid, book, kind: optionEscrowKind });
  const orderOf = async (token: string, uid: string) => (await call(server, '/v1/waa/option/order', { uid }, token)).data as OptionOrder;
  const settle = () => server.app.timedOptions.settleDue();
  const trader = (deposit?: string) => newTrader(server, deposit);
  /** Earlier tests' options out of the way: a test that counts settlements starts with none running. */
  const settleEverything = async () => {
    clock += 301_000;
    await settle();
    expect(await server.database.db.selectFrom('option_order').select('id').where('status', '=', 0).execute()).toEqual([]);
  };

  beforeAll(async () => {
    server = await startTestServer(backend, environment, { marketSource: script.source, nowMs: () => clock });
    ledger = createLedger(server.database.db);
    const list = (await call(server, '/v1/wa-na/option/findOptionsProduct', { limit: 100 })).data as { optionsProducts: OptionProduct[] };
    for (const product of list.optionsProducts) products.set(product.productCode, product.id);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    expect(await ledger.check()).toEqual([]);
  });

  it('lists the option products anonymously and signed in, with paging and a product filter; 603 without any', async () => {
    const all = (await call(server, '/v1/wa-na/option/findOptionsProduct', { limit: 100, page: 1 })).data as { optionsProducts: OptionProduct[] };
    expect(all.optionsProducts.map((product) => product.productCode)).toEqual(['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GBPUSD', 'XAUUSD', 'US500']);
    expect(all.optionsProducts[0]).toEqual({
      id: products.get('BTCUSDT'),
      productCode: 'BTCUSDT',
      productName: 'Bitcoin',
      tradeStatus: 1,
      feeRate: '0.01',
      timeRatePayload: { '1': '30;80;10|50|100|500;10000;10;30s', '2': '60;85;10|50|100|500;10000;10;60s', '3': '120;88;10|50|100|500;10000;10;120s', '4': '300;90;10|50|100|500;10000;10;300s' },
    });
    const second = (await call(server, '/v1/wa-na/option/findOptionsProduct', { limit: 2, page: 2 })).data as { optionsProducts: OptionProduct[] };
    expect(second.optionsProducts.map((product) => product.productCode)).toEqual(['EURUSD', 'GBPUSD']);
    const user = await trader();
    const one = await call(server, '/v1/waa/option/productList', { limit: 1, page: 1, productCode: 'XAUUSD' }, user.token);
    expect((one.data as { optionsProducts: OptionProduct[] }).optionsProducts.map((product) => product.productName)).toEqual(['Gold']);
    expect((await call(server, '/v1/waa/option/productList', { limit: 1, page: 1 })).status).toBe(401);

    // No option configuration at all: 603 (the rows are put back as they were).
    const db = server.database.db;
    const saved = await db.selectFrom('option_product').selectAll().execute();
    await db.deleteFrom('option_product').execute();
    quote('BTCUSDT', 6_700_000);
    expect((await place(user.token)).code).toBe(603);
    await db.insertInto('option_product').values(saved.map((row) => ({ ...row, time_rate_payload: JSON.stringify(row.time_rate_payload) }))).execute();
    expect(await cashOf(user.uid)).toBe(money('1000'));
  });

  it('places at the server\'s latest tick, moving exactly amount + fee to escrow and fee income in one journal', async () => {
    const user = await trader();
    const feesBefore = await ledger.balance({ owner: null, book: 'real', kind: 'fees' });
    quote('BTCUSDT', 6_700_012);
    // The client's price is not the option's: the server's tick is.
    const placed = await place(user.token, { price: '1.00', amount: '250' });
    expect(placed.code, placed.msg).toBe(0);
    const { uid, beginTime } = placed.data as { uid: string; beginTime: number };
    expect(uid).toMatch(/^\d{19}$/);
    expect(beginTime).toBe(clock);
    expect(await cashOf(user.uid)).toBe(money('747.5'));
    expect(await escrowOf(user.uid)).toBe(money('250'));
    expect((await ledger.balance({ owner: null, book: 'real', kind: 'fees' })) - feesBefore).toBe(money('2.5'));
    expect(await orderOf(user.token, uid)).toEqual({
      id: expect.any(Number) as number,
      uid,
      orderType: 0,
      tradePair: 'BTCUSDT',
      productName: 'Bitcoin',
      optionsProductId: products.get('BTCUSDT'),
      price: '67000.12',
      priceTime: clock,
      priceEnd: null,
      priceEndTime: null,
      feeAmount: '2.50',
      timeLong: 30,
      beginTime: clock,
      endTime: clock + 30_000,
      completeTime: null,
      amount: '250.00',
      rate: '0.80',
      winLost: null,
      status: 0,
      positionStatus: 0,
      result: null,
      voidReason: null,
    });
    expect((await call(server, '/v1/waa/option/completed', { uid }, user.token)).data).toEqual({ completed: false });
    const journals = await server.database.db.selectFrom('ledger_journal').select(['kind', 'reference']).where('reference', '=', uid).execute();
    expect(journals).toEqual([{ kind: 'option-open', reference: uid }]);
    // The user's balance call shows the cash left, and the running option's amount as locked.
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '747.50', lockMargin: '250.00' });
  });

  it('answers "order still processing" (411) for an option asked for between its end and its settlement, then its result', async () => {
    const user = await trader();
    quote('BTCUSDT', 6_700_000);
    const placed = await place(user.token);
    expect(placed.code, placed.msg).toBe(0);
    const { uid } = placed.data as { uid: string };
    const start = clock;
    clock = start + 29_999;
    expect(await orderOf(user.token, uid)).toMatchObject({ status: 0, result: null });
    clock = start + 30_000;
    quote('BTCUSDT', 6_700_100);
    const asked = await call(server, '/v1/waa/option/order', { uid }, user.token);
    expect(asked.code).toBe(411);
    expect(asked.data).toBeNull();
    expect((await call(server, '/v1/waa/option/completed', { uid }, user.token)).data).toEqual({ completed: false });
    clock = start + 31_000;
    await settle();
    expect(await orderOf(user.token, uid)).toMatchObject({ status: 1, result: 'win' });
  });

  it('refuses an option with 603 while the brand offers only market mode, and moves no money', async () => {
    const user = await trader();
    quote('BTCUSDT', 6_700_000);
    await setSwitch(server, 'OptionMock', false);
    try {
      expect((await place(user.token)).code).toBe(603);
      expect(await cashOf(user.uid)).toBe(money('1000'));
      expect(await escrowOf(user.uid)).toBe(0n);
    } finally {
      await setSwitch(server, 'OptionMock', true);
    }
    quote('BTCUSDT', 6_700_000);
    expect((await place(user.token)).code).toBe(0);
  });

  it('places one option per clientOrderId, however often and however concurrently it is retried', async () => {
    const user = await trader();
    quote('BTCUSDT', 6_700_000);
    const body = { clientOrderId: 'same-option' };
    const answers = await Promise.all([1, 2, 3, 4].map(() => place(user.token, body)));
    expect(answers.map((answer) => answer.code)).toEqual([0, 0, 0, 0]);
    expect(new Set(answers.map((answer) => (answer.data as { uid: string }).uid)).size).toBe(1);
    const again = await place(user.token, body);
    expect(again.data).toEqual(answers[0]?.data);
    expect(await cashOf(user.uid)).toBe(money('899'));
    const running = (await call(server, '/v1/waa/option/orderList', { positionStatus: 0, limit: 99999, page: 1 }, user.token)).data as OptionOrderListData;
    expect(running.items).toHaveLength(1);
  });

  it('refuses a clientOrderId reused for a different option (1016) and moves no more money', async () => {
    const user = await trader();
    quote('BTCUSDT', 6_700_000);
    expect((await place(user.token, { clientOrderId: 'used-option' })).code).toBe(0);
    for (const change of [{ amount: '200' }, { orderType: 1 }, { timeLong: 60, rate: '0.85' }]) {
      const reused = await place(user.token, { clientOrderId: 'used-option', ...change });
      expect(reused).toMatchObject({ code: 1016, msg: 'This order reference was already used for a different order. (1016)' });
    }
    // Two different options racing under one new id: one placed, the other refused.
    const raced = await Promise.all([place(user.token, { clientOrderId: 'raced-option' }), place(user.token, { clientOrderId: 'raced-option', orderType: 1 })]);
    expect(raced.map((answer) => answer.code).sort()).toEqual([0, 1016]);
    expect(await cashOf(user.uid)).toBe(money('798'));
  });

  it('an ended session places no option, as on the order paths: 23519 even for a replayed clientOrderId, and no money moves', async () => {
    const user = await trader('500');
    quote('BTCUSDT', 6_700_000);
    const first = await place(user.token, { clientOrderId: 'before-logout' });
    expect(first.code).toBe(0);
    const other = await loginByEmail(server, user.email);
    expect((await call(server, '/v1/waa/user/logout', {}, user.token)).code).toBe(0);
    expect((await place(user.token)).code).toBe(23519);
    // A refusal the rules would give (amount under the minimum) answers the ended session, not the rule.
    expect((await place(user.token, { amount: '9' })).code).toBe(23519);
    expect((await place(user.token, { clientOrderId: 'before-logout' })).code).toBe(23519);
    expect((await place(user.token, { amount: '10' }, '/exchange/addOptionOrderMock')).code).toBe(23519);
    // 500 − (100 + 1 fee) for the one option placed before; the other sign-in places as before.
    expect(await cashOf(user.uid)).toBe(money('399'));
    expect((await place(other.token, { clientOrderId: 'before-logout' })).data).toEqual(first.data);
    expect(await cashOf(user.uid)).toBe(money('399'));
  });

  it('a client order id with a NUL byte is refused with 1001 and places nothing, on the option and the order path', async () => {
    const user = await trader('500');
    quote('BTCUSDT', 6_700_000);
    for (const clientOrderId of ['a\u0000b', '\u0000']) {
      const answer = await place(user.token, { clientOrderId });
      expect(answer.code, JSON.stringify(clientOrderId)).toBe(1001);
      const order = await call(server, '/exchange/addOrder', { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId }, user.token);
      expect(order.code, JSON.stringify(clientOrderId)).toBe(1001);
    }
    expect(await cashOf(user.uid)).toBe(money('500'));
  });

  it('refuses with the codes of the rules (601–607, 203, 405, 1016) and moves no money', async () => {
    const user = await trader('50');
    quote('BTCUSDT', 6_700_000);
    quote('ETHUSDT', 350_000);
    expect((await place(user.token, { tradePair: 'NOPE' })).code).toBe(604);
    // A known pair without an option product, and a product id of another pair: 606.
    expect((await place(user.token, { tradePair: 'AAPL' })).code).toBe(606);
    expect((await place(user.token, { optionsProductId: products.get('ETHUSDT') })).code).toBe(606);
    // Not a duration on offer, or not the rate on offer: 602.
    expect((await place(user.token, { timeLong: 45 })).code).toBe(602);
    expect((await place(user.token, { rate: '0.85' })).code).toBe(602);
    expect((await place(user.token, { timeLong: 60, rate: '0.85', amount: '10' })).code).toBe(0);
    // Amount: a whole number within min (10) and max (10000).
    expect((await place(user.token, { amount: '10.5' })).code).toBe(1016);
    expect((await place(user.token, { amount: '9' })).code).toBe(1016);
    expect((await place(user.token, { amount: '10001' })).code).toBe(1016);
    expect((await place(user.token, { amount: 'ten' })).code).toBe(1001);
    // 39.90 left: 39 + 0.39 fits, 40 + 0.40 does not.
    const short = await place(user.token, { amount: '40' });
    expect(short.code).toBe(203);
    expect(short.msg).toMatch(/\(203\)$/);
    expect(await cashOf(user.uid)).toBe(money('39.9'));
    // The option product is off (605), the market is closed (605: Hong Kong 50 at noon UTC).
    const db = server.database.db;
    await db.updateTable('option_product').set({ trade_status: 0 }).where('product_code', '=', 'ETHUSDT').execute();
    expect((await place(user.token, { tradePair: 'ETHUSDT', amount: '10' })).code).toBe(605);
    await db.updateTable('option_product').set({ trade_status: 1 }).where('product_code', '=', 'ETHUSDT').execute();
    const hk = await db
      .insertInto('option_product')
      .values({ product_code: 'HK50', trade_status: 1, fee_rate: '0.01', time_rate_payload: JSON.stringify({ '1': '30;80;;0;10' }), sort: 99 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await place(user.token, { tradePair: 'HK50', optionsProductId: hk.id, amount: '10' })).code).toBe(605);
    // A stale price (no tick for longer than the threshold): 601; a fresh one places.
    clock += 10_001;
    expect((await place(user.token, { amount: '10' })).code).toBe(601);
    quote('BTCUSDT', 6_700_000);
    expect((await place(user.token, { amount: '10' })).code).toBe(0);
    // Prohibited users (405), no token (401).
    await db.updateTable('app_user').set({ trade_prohibited: true }).where('uid', '=', user.uid).execute();
    expect((await place(user.token, { amount: '10' })).code).toBe(405);
    expect((await place('')).status).toBe(401);
    expect(await cashOf(user.uid)).toBe(money('29.8'));
  });

  it('any other failure of the placement is 607, with nothing placed', async () => {
    const user = await trader();
    quote('BTCUSDT', 6_700_000);
    // A row that cannot be written (a broken product reference) stands for a database fault.
    const db = server.database.db;
    const broken = await db
      .insertInto('option_product')
      .values({ product_code: 'GER40', trade_status: 1, fee_rate: '0.01', time_rate_payload: JSON.stringify({ '1': '30;80;;0;10' }), sort: 98 })
      .returning('id')
      .executeTakeFirstOrThrow();
    quote('GER40', 1_830_000);
    await sql`create function test_refuse_ger40() returns trigger language plpgsql as $$
      begin if new.symbol = 'GER40' then raise exception 'refused by the test'; end if; return new; end $$`.execute(db);
    await sql`create trigger test_refuse_ger40 before insert on option_order for each row execute function test_refuse_ger40()`.execute(db);
    try {
      expect((await place(user.token, { tradePair: 'GER40', optionsProductId: broken.id })).code).toBe(607);
    } finally {
      await sql`drop trigger test_refuse_ger40 on option_order`.execute(db);
      await sql`drop function test_refuse_ger40()`.execute(db);
    }
    expect((await place(user.token, { tradePair: 'GER40', optionsProductId: broken.id })).code).toBe(0);
    expect(await cashOf(user.uid)).toBe(money('899'));
  });

  it('keeps real and demo books apart: Mock path for demo sessions only, lists from the token\'s book', async () => {
    const user = await trader();
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    quote('BTCUSDT', 6_700_000);
    expect((await place(demo.token)).code).toBe(1001);
    expect((await place(user.token, {}, '/exchange/addOptionOrderMock')).code).toBe(1001);
    const placed = await place(demo.token, { amount: '500' }, '/exchange/addOptionOrderMock');
    expect(placed.code, placed.msg).toBe(0);
    const uid = (placed.data as { uid: string }).uid;
    expect(await cashOf(user.uid, 'demo')).toBe(money('99495'));
    expect(await cashOf(user.uid, 'real')).toBe(money('1000'));
    expect((await call(server, '/v1/waa/user/balance', {}, demo.token)).data).toEqual({ balanceAmount: '99495.00', lockMargin: '500.00' });
    // The same clientOrderId on the other book is another option.
    const real = await place(user.token, { clientOrderId: `o${clientIds}` });
    expect(real.code).toBe(0);
    expect((real.data as { uid: string }).uid).not.toBe(uid);
    const demoList = (await call(server, '/v1/waa/option/orderList', { positionStatus: 0, limit: 99999 }, demo.token)).data as OptionOrderListData;
    const realList = (await call(server, '/v1/waa/option/orderList', { positionStatus: 0, limit: 99999 }, user.token)).data as OptionOrderListData;
    expect(demoList.items.map((item) => item.uid)).toEqual([uid]);
    expect(realList.items.map((item) => item.uid)).toEqual([(real.data as { uid: string }).uid]);
    expect((await call(server, '/v1/waa/option/order', { uid }, user.token)).code).toBe(402);
    expect((await call(server, '/v1/waa/option/order', { uid }, demo.token)).code).toBe(0);
    const other = await trader();
    // Another user's option answers exactly as a missing one.
    const missing = await call(server, '/v1/waa/option/completed', { uid: '123' }, other.token);
    expect(missing.code).toBe(402);
    expect(await call(server, '/v1/waa/option/completed', { uid: (real.data as { uid: string }).uid }, other.token)).toEqual(missing);
    expect((await call(server, '/v1/waa/option/order', { uid: (real.data as { uid: string }).uid }, other.token)).code).toBe(402);

    // The demo reset voids running demo options before it restores the balance.
    expect((await call(server, '/v1/waa/user/resetMock', {}, demo.token)).code).toBe(0);
    expect(await orderOf(demo.token, uid)).toMatchObject({ status: 1, result: 'void', voidReason: 'demo-reset', winLost: '0.00' });
    expect(await cashOf(user.uid, 'demo')).toBe(money('100000'));
    expect(await escrowOf(user.uid, 'demo')).toBe(0n);
    expect(await escrowOf(user.uid, 'real')).toBe(money('100'));
  });

  it('settles at the end time on the recorded tick at that instant: win, loss and equal, once; pushes on the exchange socket', async () => {
    await settleEverything();
    const user = await trader();
    const messages: unknown[] = [];
    const detach = await server.app.positionsFeed.attach({ send: (text) => messages.push(JSON.parse(text)), close: () => undefined }, user.uid, 'real');
    try {
      quote('BTCUSDT', 6_700_000);
      quote('ETHUSDT', 350_000);
      const start = clock;
      const up = ((await place(user.token)).data as { uid: string }).uid;
      const down = ((await place(user.token, { orderType: 1 })).data as { uid: string }).uid;
      const flat = ((await place(user.token, { tradePair: 'ETHUSDT', amount: '50' })).data as { uid: string }).uid;
      expect(await cashOf(user.uid)).toBe(money('747.5'));
      const running = (await call(server, '/v1/waa/option/orderList', { positionStatus: 0, limit: 99999, page: 1 }, user.token)).data as OptionOrderListData;
      expect(running).toMatchObject({ pages: 1, todayWinLoss: '0.00', totalWinLoss: '0.00' });
      expect(running.items.map((item) => item.uid)).toEqual([flat, down, up]);
      // Running options' amounts are locked: in user/balance's locked figure and in the feed's net value (1000 − 2.50 of fees).
      expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '747.50', lockMargin: '250.00' });
      const holtSummaries = () => messages.filter((message) => (message as { type: string }).type === 'holtOrder') as { data: { netValue: string; securityDepositAvailableSum: string } }[];
      const pushed = holtSummaries().length;
      server.app.positionsFeed.changed(user.uid, 'real');
      await vi.waitFor(() => expect(holtSummaries().length).toBeGreaterThan(pushed));
      expect(holtSummaries().at(-1)?.data).toMatchObject({ netValue: '997.50', securityDepositAvailableSum: '747.50' });

      clock = start + 12_000;
      quote('BTCUSDT', 6_690_000);
      quote('ETHUSDT', 350_100);
      clock = start + 25_000;
      quote('ETHUSDT', 350_000);
      clock = start + 30_000; // the end: this tick is the settlement price
      quote('BTCUSDT', 6_700_001);
      clock = start + 30_100; // after the end: ignored
      quote('BTCUSDT', 6_600_000);
      quote('ETHUSDT', 360_000);
      clock = start + 30_200; // within the grace: not due yet
      await settle();
      expect((await call(server, '/v1/waa/option/completed', { uid: up }, user.token)).data).toEqual({ completed: false });
      clock = start + 31_000;
      expect(await settle()).toBe(3);
      expect(await settle()).toBe(0);

      expect(await orderOf(user.token, up)).toMatchObject({ status: 1, result: 'win', price: '67000.00', priceEnd: '67000.01', priceEndTime: start + 30_000, winLost: '80.00', completeTime: clock });
      expect(await orderOf(user.token, down)).toMatchObject({ status: 1, result: 'loss', priceEnd: '67000.01', winLost: '-100.00' });
      expect(await orderOf(user.token, flat)).toMatchObject({ status: 1, result: 'equal', price: '3500.00', priceEnd: '3500.00', priceEndTime: start + 25_000, winLost: '0.00' });
      // 1000 − 3 × (amount + fee) + 180 (win) + 0 (loss) + 50 (equal: the amount back, the fee kept).
      expect(await cashOf(user.uid)).toBe(money('977.5'));
      expect(await escrowOf(user.uid)).toBe(0n);
      // Settled: nothing is locked any more.
      expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '977.50', lockMargin: '0.00' });
      expect((await call(server, '/v1/waa/option/completed', { uid: up }, user.token)).data).toEqual({ completed: true });
      const journals = await server.database.db.selectFrom('ledger_journal').select(['kind', 'reference']).where('reference', 'in', [up, down, flat]).where('kind', '<>', 'option-open').orderBy('id').execute();
      expect(journals.map((journal) => journal.kind).sort()).toEqual(['option-equal', 'option-loss', 'option-win']);

      const settled = (await call(server, '/v1/waa/option/orderList', { positionStatus: 1, limit: 10, page: 1 }, user.token)).data as OptionOrderListData;
      expect(settled).toMatchObject({ pages: 1, todayWinLoss: '-20.00', totalWinLoss: '-20.00' });
      expect(settled.items).toHaveLength(3);
      expect(((await call(server, '/v1/waa/option/orderList', { positionStatus: 0, limit: 99999 }, user.token)).data as OptionOrderListData).items).toEqual([]);

      const options = messages.map((message) => exchangeFeedMessage.parse(message)).filter((message) => message.type === 'option');
      expect(options.map((message) => `${message.data.uid}:${message.data.status}`).sort()).toEqual([`${up}:0`, `${up}:1`, `${down}:0`, `${down}:1`, `${flat}:0`, `${flat}:1`].sort());
      expect(options.find((message) => message.data.uid === up && message.data.status === 1)?.data).toMatchObject({ result: 'win', winLost: '80.00' });
    } finally {
      detach();
    }
  });

  it('voids and refunds amount and fee when no tick was recorded within the stale threshold before the end', async () => {
    const user = await trader();
    quote('GBPUSD', 127_000);
    const start = clock;
    const uid = ((await place(user.token, { tradePair: 'GBPUSD' })).data as { uid: string }).uid;
    clock = start + 19_999;
    quote('GBPUSD', 127_050); // 10.001 s before the end: too old to settle on
    clock = start + 40_000;
    quote('GBPUSD', 127_100);
    await settle();
    expect(await orderOf(user.token, uid)).toMatchObject({ status: 1, result: 'void', voidReason: 'no-price', priceEnd: null, winLost: '0.00' });
    expect(await cashOf(user.uid)).toBe(money('1000'));
  });

  it('sums todayWinLoss over options settled since the server\'s midnight and totalWinLoss over all, per book; pages settled lists newest first', async () => {
    const user = await trader('5000');
    const runOne = async (change: Record<string, unknown>, endBid: number) => {
      quote('XAUUSD', 235_000);
      const answer = await place(user.token, { tradePair: 'XAUUSD', ...change });
      expect(answer.code, `${new Date(clock).toISOString()} ${answer.msg}`).toBe(0);
      const uid = (answer.data as { uid: string }).uid;
      clock += 30_000;
      quote('XAUUSD', endBid);
      clock += 1_000;
      await settle();
      return uid;
    };
    await runOne({ amount: '200' }, 235_100); // win 160 yesterday
    await runOne({ amount: '50', orderType: 1 }, 235_100); // loss 50 yesterday
    clock = Date.parse(new Date(clock + 86_400_000).toISOString().slice(0, 10)) + 60_000; // 00:01 the next day
    const uids: string[] = [];
    for (let index = 0; index < 11; index += 1) uids.push(await runOne({ amount: '10', orderType: 1 }, 234_900)); // 11 wins of 8 today
    uids.push(await runOne({ amount: '30' }, 234_900)); // a loss of 30 today
    const page1 = (await call(server, '/v1/waa/option/orderList', { positionStatus: 1, limit: 10, page: 1 }, user.token)).data as OptionOrderListData;
    expect(page1).toMatchObject({ pages: 2, todayWinLoss: '58.00', totalWinLoss: '168.00' });
    expect(page1.items.map((item) => item.uid)).toEqual(uids.slice(-10).reverse());
    const page2 = (await call(server, '/v1/waa/option/orderList', { positionStatus: 1, limit: 10, page: 2 }, user.token)).data as OptionOrderListData;
    expect(page2.items).toHaveLength(4);
    // The settled list pages at most 100; the running one takes 99999.
    const big = (await call(server, '/v1/waa/option/orderList', { positionStatus: 1, limit: 99999 }, user.token)).data as OptionOrderListData;
    expect(big.items).toHaveLength(14);
    expect((await call(server, '/v1/waa/option/orderList', { positionStatus: 2 }, user.token)).code).toBe(1001);
    expect((await call(server, '/v1/waa/option/orderList', { positionStatus: 0, limit: 100000 }, user.token)).code).toBe(1001);
    // Demo has its own sums.
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    expect((await call(server, '/v1/waa/option/orderList', { positionStatus: 1 }, demo.token)).data).toEqual({ items: [], pages: 0, todayWinLoss: '0.00', totalWinLoss: '0.00' });
  });

  it('keeps the ledger balanced and every account as modelled over a random sequence of options (property test, seeded)', async () => {
    await settleEverything();
    const random = seededRandom(20261123);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)]!;
    const users = [await trader('2000'), await trader('300'), await trader('0')];
    const demos = await Promise.all(users.map(async (user) => ({ ...user, token: ((await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string }).token })));
    const symbols = ['BTCUSDT', 'ETHUSDT'] as const;
    const durations = [[30, '80'], [60, '85'], [120, '88'], [300, '90']] as const;
    const ticks = new Map<string, { timeMs: number; bid: number }[]>(symbols.map((symbol) => [symbol, []]));
    const price = new Map<string, number>([['BTCUSDT', 6_700_000], ['ETHUSDT', 350_000]]);
    const push = (symbol: string) => {
      quote(symbol, price.get(symbol)!);
      ticks.get(symbol)!.push({ timeMs: clock, bid: price.get(symbol)! });
    };
    interface Modelled { uid: string; owner: number; book: 'real' | 'demo'; symbol: string; direction: 0 | 1; amount: Units; rate: string; start: number; endMs: number }
    const running: Modelled[] = [];
    const cash = new Map<string, Units>();
    const key = (uid: number, book: string) => `${uid}|${book}`;
    for (const user of users) {
      cash.set(key(user.uid, 'real'), await cashOf(user.uid, 'real'));
      cash.set(key(user.uid, 'demo'), await cashOf(user.uid, 'demo'));
    }
    for (const symbol of symbols) push(symbol);
    let placedCount = 0;
    let settledCount = 0;
    for (let step = 0; step < 160; step += 1) {
      const action = random.next();
      if (action < 0.45) {
        const index = Math.floor(random.next() * users.length);
        const book = random.next() < 0.5 ? 'real' : 'demo';
        const session = book === 'real' ? users[index]! : demos[index]!;
        const symbol = pick(symbols);
        const [timeLong, rate] = pick(durations);
        const amount = BigInt(10 + Math.floor(random.next() * 400)) * 100_000_000n;
        const direction = random.next() < 0.5 ? 0 : 1;
        const last = ticks.get(symbol)!.at(-1)!;
        const answer: Call = await place(session.token, { tradePair: symbol, timeLong, rate: formatMoney(money(rate) / 100n), amount: formatMoney(amount, 0), orderType: direction }, book === 'real' ? '/exchange/addOptionOrder' : '/exchange/addOptionOrderMock');
        const available = cash.get(key(session.uid, book))!;
        const cost = amount + optionFee(amount, '0.01');
        if (cost > available) expect(answer.code, `step ${step}`).toBe(203);
        else if (clock - last.timeMs > 10_000) expect(answer.code, `step ${step}`).toBe(601);
        else {
          expect(answer.code, `step ${step}: ${answer.msg}`).toBe(0);
          cash.set(key(session.uid, book), available - cost);
          running.push({ uid: (answer.data as { uid: string }).uid, owner: session.uid, book, symbol, direction, amount, rate, start: last.bid, endMs: clock + timeLong * 1000 });
          placedCount += 1;
        }
      } else if (action < 0.8) {
        const symbol = pick(symbols);
        // Often unchanged, so that equal prices happen.
        const move = random.next() < 0.3 ? 0 : Math.round((random.next() - 0.5) * 2_000);
        price.set(symbol, price.get(symbol)! + move);
        push(symbol);
      } else {
        clock += 1_000 + Math.floor(random.next() * 40_000);
        if (random.next() < 0.7) push(pick(symbols));
        await settle();
        const due = running.filter((option) => option.endMs <= clock - 250);
        for (const option of due) {
          running.splice(running.indexOf(option), 1);
          const end = ticks.get(option.symbol)!.filter((tick) => tick.timeMs <= option.endMs).at(-1);
          const account = key(option.owner, option.book);
          if (!end || end.timeMs < option.endMs - 10_000) {
            cash.set(account, cash.get(account)! + option.amount + optionFee(option.amount, '0.01'));
          } else {
            const result = settleOption(option.direction, option.amount, option.rate, BigInt(option.start) * 1_000_000n, BigInt(end.bid) * 1_000_000n);
            cash.set(account, cash.get(account)! + result.payout);
          }
          settledCount += 1;
        }
        for (const user of users) {
          for (const book of ['real', 'demo'] as const) {
            expect(await cashOf(user.uid, book), `step ${step} ${user.uid} ${book}`).toBe(cash.get(key(user.uid, book)));
            const escrow = running.filter((option) => option.owner === user.uid && option.book === book).reduce((sum, option) => sum + option.amount, 0n);
            expect(await escrowOf(user.uid, book)).toBe(escrow);
          }
        }
        const stillRunning = await server.database.db.selectFrom('option_order').select('order_no').where('status', '=', 0).where('uid', 'in', users.map((user) => user.uid)).execute();
        expect(stillRunning.map((row) => row.order_no).sort(), `step ${step}`).toEqual(running.map((option) => option.uid).sort());
        expect(await ledger.check(), `step ${step}`).toEqual([]);
      }
    }
    expect(placedCount).toBeGreaterThan(20);
    expect(settledCount).toBeGreaterThan(10);
    // The house's option account holds exactly what users lost minus what they won.
    const house = await ledger.balance({ owner: null, book: 'real', kind: optionResultKind });
    const results = await server.database.db.selectFrom('option_order').select(({ fn }) => fn.sum<string>('win_lost').as('total')).where('book', '=', 'real').where('status', '=', 1).executeTakeFirstOrThrow();
    expect(house).toBe(-money(String(results.total)));
  });
});

describe.each(testBackends())('option settlement across restarts and concurrent workers on $name', (backend) => {
  let clock = tuesdayNoon;
  let target: Awaited<ReturnType<typeof backend.target>>;
  let tokens: TokenService;
  const handles: DatabaseHandle[] = [];
  const delivery = createMessageDelivery({ smtpUrl: null, mailFrom: 'test@tradeweb.example', dataDir: null });

  async function openShared() {
    const handle = await openTestDatabase(target);
    handles.push(handle);
    return handle;
  }

  /** One server instance on the shared database (a restart, or a second worker). */
  async function instance(database: DatabaseHandle, source: MarketDataSource | null, extra: Record<string, string> = {}) {
    const settings = readSettings({ LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent', ...environment, ...extra });
    const app = await buildServer({ settings, database, tokens, delivery, logger: false, marketSource: source, marketSeed: 1, nowMs: () => clock });
    await app.ready();
    return app;
  }

  beforeAll(async () => {
    target = await backend.target();
    tokens = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: 86_400 * 7, nowMs: () => clock });
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await target?.cleanup();
  });

  it('settles options that ended while the server was down on the tick recorded at their end time, exactly once', async () => {
    const database = await openShared();
    const ledger = createLedger(database.db);
    const first = scriptedSource();
    const app1 = await instance(database, first.source);
    const user = await newTrader({ app: app1, delivery, nowMs: () => clock });
    const place = async (app: typeof app1, change: Record<string, unknown>) => {
      const list = (await call({ app } as TestServer, '/v1/wa-na/option/findOptionsProduct', { limit: 100 })).data as { optionsProducts: OptionProduct[] };
      const productId = list.optionsProducts.find((product) => product.productCode === (change.tradePair ?? 'BTCUSDT'))?.id;
      const answer = await call({ app } as TestServer, '/exchange/addOptionOrder', { tradePair: 'BTCUSDT', optionsProductId: productId, price: '0', timeLong: 30, btime: 0, rate: '0.8', amount: '100', orderType: 0, clientOrderId: `r${(clientIds += 1)}`, ...change }, user.token);
      expect(answer.code, answer.msg).toBe(0);
      return (answer.data as { uid: string }).uid;
    };
    const start = clock;
    first.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: 6_700_000, ask: 6_700_002, volume: 1 }, { symbol: 'ETHUSDT', timeMs: clock, bid: 350_000, ask: 350_002, volume: 1 }]);
    const expired = await place(app1, {});
    const unpriced = await place(app1, { tradePair: 'ETHUSDT' });
    const later = await place(app1, { timeLong: 300, rate: '0.9', orderType: 1 });
    clock = start + 5_000;
    first.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: 6_690_000, ask: 6_690_002, volume: 1 }]);
    clock = start + 10_000;
    await app1.close(); // recorded ticks are written at shutdown

    // While it is down, another instance records ticks (the end tick included) and the clock passes the end.
    const recorded = await database.db.selectFrom('option_tick').select(['symbol', 'time_ms', 'price']).where('symbol', '=', 'BTCUSDT').orderBy('id').execute();
    // The start tick with each option, then what arrived while options ran.
    expect(recorded.map((tick) => [Number(tick.time_ms), formatMoney(money(String(tick.price)))])).toEqual([
      [start, '67000.00'],
      [start, '67000.00'],
      [start + 5_000, '66900.00'],
    ]);
    await database.db.insertInto('option_tick').values([
      { symbol: 'BTCUSDT', time_ms: start + 20_000, price: '66950' },
      { symbol: 'BTCUSDT', time_ms: start + 30_000, price: '67000.01' },
      { symbol: 'BTCUSDT', time_ms: start + 30_001, price: '66000' },
    ]).execute();
    clock = start + 60_000;

    const second = scriptedSource();
    const app2 = await instance(database, second.source);
    const order = async (app: typeof app1, uid: string) => (await call({ app } as TestServer, '/v1/waa/option/order', { uid }, user.token)).data as OptionOrder;
    expect(await order(app2, expired)).toMatchObject({ status: 1, result: 'win', priceEnd: '67000.01', priceEndTime: start + 30_000, winLost: '80.00', completeTime: start + 60_000 });
    expect(await order(app2, unpriced)).toMatchObject({ status: 1, result: 'void', voidReason: 'no-price' });
    expect(await order(app2, later)).toMatchObject({ status: 0 });
    // 1000 − 3 × 101 + 180 (win) + 101 (void).
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: cashKind })).toBe(money('978'));

    // The restarted server records the running option's symbol again and settles it at its end.
    clock = start + 299_000;
    second.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: 6_650_000, ask: 6_650_002, volume: 1 }]);
    clock = start + 301_000;
    expect(await app2.timedOptions.settleDue()).toBe(1);
    expect(await order(app2, later)).toMatchObject({ status: 1, result: 'win', priceEnd: '66500.00', winLost: '90.00' });
    await app2.close();

    // A third start settles nothing again, and deletes recorded ticks older than the retention (24 h).
    await database.db.insertInto('option_tick').values({ symbol: 'BTCUSDT', time_ms: start - 2 * 86_400_000, price: '60000' }).execute();
    const app3 = await instance(database, null);
    const kept = await database.db.selectFrom('option_tick').select('time_ms').where('symbol', '=', 'BTCUSDT').execute();
    expect(Math.min(...kept.map((tick) => Number(tick.time_ms)))).toBe(start);
    expect(await app3.timedOptions.settleDue()).toBe(0);
    const settlements = await database.db.selectFrom('ledger_journal').select('reference').where('kind', 'like', 'option-%').where('kind', '<>', 'option-open').where('reference', 'in', [expired, unpriced, later]).execute();
    expect(settlements.map((journal) => journal.reference).sort()).toEqual([expired, unpriced, later].sort());
    expect(await ledger.balance({ owner: user.uid, book: 'real', kind: cashKind })).toBe(money('1168'));
    expect(await ledger.check()).toEqual([]);
    await app3.close();
  }, restartTimeoutMs);

  it('settles each option exactly once when two settlement workers run at the same time', async () => {
    const workerA = await openShared();
    // PostgreSQL: a second pool, truly concurrent; PGlite: the same single connection, interleaved.
    const workerB = backend.name === 'postgres' ? await openShared() : workerA;
    const ledger = createLedger(workerA.db);
    const feed = scriptedSource();
    const small = { OPTION_SETTLEMENT_BATCH: '7' };
    const appA = await instance(workerA, feed.source, small);
    const appB = await instance(workerB, null, small);
    const users = [await newTrader({ app: appA, delivery, nowMs: () => clock }, '10000'), await newTrader({ app: appA, delivery, nowMs: () => clock }, '10000')];
    const list = (await call({ app: appA } as TestServer, '/v1/wa-na/option/findOptionsProduct', { productCode: 'BTCUSDT' })).data as { optionsProducts: OptionProduct[] };
    const start = clock;
    feed.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: 6_700_000, ask: 6_700_002, volume: 1 }]);
    const uids: string[] = [];
    for (let index = 0; index < 40; index += 1) {
      const user = users[index % 2]!;
      const answer = await call({ app: appA } as TestServer, '/exchange/addOptionOrder', { tradePair: 'BTCUSDT', optionsProductId: list.optionsProducts[0]?.id, price: '0', timeLong: 30, btime: 0, rate: '0.8', amount: String(10 + index), orderType: index % 3 === 0 ? 1 : 0, clientOrderId: `w${index}` }, user.token);
      expect(answer.code, answer.msg).toBe(0);
      uids.push((answer.data as { uid: string }).uid);
    }
    clock = start + 30_000;
    feed.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: 6_700_100, ask: 6_700_102, volume: 1 }]);
    // The end tick is durable before anyone settles (in real time the grace, longer than the tick flush, sees to it).
    await appA.timedOptions.flushTicks();
    clock = start + 31_000;
    const [a, b] = await Promise.all([appA.timedOptions.settleDue(), appB.timedOptions.settleDue()]);
    expect(a + b).toBe(40);
    const journals = await workerA.db.selectFrom('ledger_journal').select('reference').where('kind', 'in', ['option-win', 'option-loss', 'option-equal', 'option-void']).where('reference', 'in', uids).execute();
    expect(journals).toHaveLength(40);
    // Up wins 80 % on 10 + index, down loses it.
    for (const [position, user] of users.entries()) {
      let expected = money('10000');
      for (let index = position; index < 40; index += 2) {
        const amount = money(String(10 + index));
        expected -= amount + optionFee(amount, '0.01');
        if (index % 3 !== 0) expected += settleOption(0, amount, '80', money('67000'), money('67001')).payout;
      }
      expect(await ledger.balance({ owner: user.uid, book: 'real', kind: cashKind })).toBe(expected);
    }
    expect(await ledger.check()).toEqual([]);
    await appA.close();
    await appB.close();
  }, restartTimeoutMs);
});
