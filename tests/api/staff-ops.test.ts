import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger } from '../../server/modules/ledger/ledger';
import { money } from '../../src/shared/money/money';
import { staffRouteAccess } from '../../src/shared/staff/access';
import { appBannerList, getAllConfigStatusWeb, getCustomerLink } from '../../src/shared/api/anonymous';
import { productList } from '../../src/shared/api/market';
import { findOptionsProduct } from '../../src/shared/api/options';
import * as staffContracts from '../../src/shared/api/staff';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { fundedTrader } from './funding-support';
import { createStaffAndSignIn, proposeAndApprove, staffCall } from './support/staff';

interface ClientSocket {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(): void;
}
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string) => ClientSocket };

/** An exchange socket that records its messages (parsed) and how it closed. */
function exchangeSocket(url: string) {
  const socket = new WebSocket(url);
  const messages: { type: string; data: unknown }[] = [];
  let wake: (() => void) | null = null;
  socket.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as { type: string; data: unknown });
    wake?.();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return {
    socket,
    messages,
    closed,
    /** Resolves with the messages of `type` once there are `count` of them (waiting for them when they have not come yet). */
    async ofType(type: string, count: number) {
      for (;;) {
        const found = messages.filter((message) => message.type === type);
        if (found.length >= count) return found;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async first(type: string) {
      return (await this.ofType(type, 1))[0];
    },
  };
}

// A Tuesday noon: forex is open.
const clock = Date.parse('2026-01-13T12:00:00Z');
const nowMs = () => clock;
let clientIds = 0;

describe.each(testBackends())('staff customers, configuration and notices on $name', (backend) => {
  let server: TestServer;
  let socketBase = '';
  const script = scriptedSource();
  let admin: { token: string; staffId: number };
  /** The second admin a dual-controlled change waits for. */
  let adminB: { token: string; staffId: number };
  let compliance: { token: string; staffId: number };
  let support: { token: string; staffId: number };
  let finance: { token: string; staffId: number };

  const quote = () =>
    script.push([
      { symbol: 'EURUSD', timeMs: clock, bid: 108500, ask: 108512, volume: 1 },
      { symbol: 'BTCUSDT', timeMs: clock, bid: 6_700_000, ask: 6_700_002, volume: 1 },
    ]);
  const order = () => ({ tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: `s${(clientIds += 1)}` });
  const trader = (deposit = '1000') => fundedTrader(server, deposit, 'staffops');

  /** The audit rows of one action about one target, oldest first. */
  const auditRows = async (action: string, targetId: string | null) => {
    let query = server.database.db.selectFrom('staff_audit').select(['staff_id', 'target_type', 'target_id', 'uid', 'before', 'after']).where('action', '=', action);
    query = targetId === null ? query.where('target_id', 'is', null) : query.where('target_id', '=', targetId);
    const rows = await query.orderBy('id').execute();
    // PGlite and PostgreSQL both answer jsonb as objects; a text column would answer a string.
    return rows.map((row) => ({ ...row, before: typeof row.before === 'string' ? (JSON.parse(row.before) as unknown) : row.before, after: typeof row.after === 'string' ? (JSON.parse(row.after) as unknown) : row.after }));
  };

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { FOREX_MIN_DEPOSIT: '0', STALE_PRICE_MS: '10000', SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' },
      { marketSource: script.source, nowMs },
    );
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    socketBase = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/exchange/ws`;
    quote();
    admin = await createStaffAndSignIn(server, { roles: ['admin'], nowMs });
    adminB = await createStaffAndSignIn(server, { roles: ['admin'], nowMs });
    compliance = await createStaffAndSignIn(server, { roles: ['compliance'], nowMs });
    support = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    finance = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('prohibits trading with a reason: market orders on both books and options answer 405; allowed again they pass; one audit row each', async () => {
    const user = await trader();
    const demo = (await call(server, '/v1/waa/user/switch', {}, user.token)).data as { token: string };
    const optionProducts = (await staffCall(server, '/v1/staff/config/optionProducts', {}, admin.token)).data as { list: { id: number; productCode: string }[] };
    const btcOption = optionProducts.list.find((product) => product.productCode === 'BTCUSDT')!;
    const option = () => ({
      tradePair: 'BTCUSDT', optionsProductId: btcOption.id, price: '67000', timeLong: 30, btime: Math.floor(clock / 1000), rate: '0.8', amount: '100', orderType: 0, clientOrderId: `o${(clientIds += 1)}`,
    });

    const prohibit = await staffCall(server, '/v1/staff/customers/setTradingProhibited', { uid: user.uid, prohibited: true, reason: 'chargeback under review' }, compliance.token);
    expect(prohibit.code, prohibit.msg).toBe(0);
    expect((await call(server, '/exchange/addOrder', order(), user.token)).code).toBe(405);
    expect((await call(server, '/exchange/addOrderMock', order(), demo.token)).code).toBe(405);
    expect((await call(server, '/exchange/addOptionOrder', option(), user.token)).code).toBe(405);
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toEqual({ balanceAmount: '1000.00', lockMargin: '0.00' });
    const detail = (await staffCall(server, '/v1/staff/customers/get', { uid: user.uid }, support.token)).data as { profile: { tradeProhibited: boolean; tradeProhibitedReason: string } };
    expect(detail.profile).toMatchObject({ tradeProhibited: true, tradeProhibitedReason: 'chargeback under review' });

    const allow = await staffCall(server, '/v1/staff/customers/setTradingProhibited', { uid: user.uid, prohibited: false, reason: 'cleared' }, compliance.token);
    expect(allow.code, allow.msg).toBe(0);
    expect((await call(server, '/exchange/addOrder', order(), user.token)).code).toBe(0);
    expect((await call(server, '/exchange/addOrderMock', order(), demo.token)).code).toBe(0);
    const placedOption = await call(server, '/exchange/addOptionOrder', option(), user.token);
    expect(placedOption.code, placedOption.msg).toBe(0);

    expect(await auditRows('customers.setTradingProhibited', String(user.uid))).toEqual([
      { staff_id: compliance.staffId, target_type: 'customer', target_id: String(user.uid), uid: user.uid, before: { tradeProhibited: false, reason: null }, after: { tradeProhibited: true, reason: 'chargeback under review' } },
      { staff_id: compliance.staffId, target_type: 'customer', target_id: String(user.uid), uid: user.uid, before: { tradeProhibited: true, reason: 'chargeback under review' }, after: { tradeProhibited: false, reason: 'cleared' } },
    ]);
    // Support may not prohibit; an unknown customer is 1002 and writes no row.
    expect((await staffCall(server, '/v1/staff/customers/setTradingProhibited', { uid: user.uid, prohibited: true, reason: 'x' }, support.token)).code).toBe(2001);
    expect((await staffCall(server, '/v1/staff/customers/setTradingProhibited', { uid: 999_999, prohibited: true, reason: 'x' }, compliance.token)).code).toBe(1002);
    expect(await auditRows('customers.setTradingProhibited', '999999')).toEqual([]);
  });

  it('ends every session of a customer: the next call answers 23519 and the open exchange socket closes', async () => {
    const user = await trader('0');
    const feed = exchangeSocket(`${socketBase}?token=${encodeURIComponent(user.token)}`);
    await feed.first('account');
    const ended = await staffCall(server, '/v1/staff/customers/endSessions', { uid: user.uid, reason: 'account takeover reported' }, support.token);
    expect(ended.code, ended.msg).toBe(0);
    expect((await call(server, '/v1/waa/user/info', {}, user.token)).code).toBe(23519);
    expect(await feed.closed).toBe(4401);
    expect(await auditRows('customers.endSessions', String(user.uid))).toEqual([
      { staff_id: support.staffId, target_type: 'customer', target_id: String(user.uid), uid: user.uid, before: { liveSessions: 1 }, after: { liveSessions: 0, reason: 'account takeover reported' } },
    ]);
  });

  it('changes a switch: getAllConfigStatusWeb answers it at once; an unknown switch is 1008 and changes nothing', async () => {
    const configStatus = async () => ((await call(server, getAllConfigStatusWeb.path)).data as { items: { name: string; enable: boolean }[] }).items;
    const before = (await configStatus()).find((item) => item.name === 'OptionMock')!;
    const changed = await staffCall(server, '/v1/staff/config/setSwitch', { name: 'OptionMock', enable: !before.enable }, admin.token);
    expect(changed.code, changed.msg).toBe(0);
    expect((await configStatus()).find((item) => item.name === 'OptionMock')).toEqual({ name: 'OptionMock', enable: !before.enable });
    const listed = (await staffCall(server, '/v1/staff/config/switches', {}, admin.token)).data as { items: { name: string; enable: boolean }[] };
    expect(listed.items).toContainEqual({ name: 'OptionMock', enable: !before.enable });
    expect(await auditRows('config.setSwitch', 'OptionMock')).toEqual([
      { staff_id: admin.staffId, target_type: 'switch', target_id: 'OptionMock', uid: null, before: { name: 'OptionMock', enable: before.enable }, after: { name: 'OptionMock', enable: !before.enable } },
    ]);
    const all = await configStatus();
    expect((await staffCall(server, '/v1/staff/config/setSwitch', { name: 'NoSuchSwitch', enable: true }, admin.token)).code).toBe(1008);
    expect(await configStatus()).toEqual(all);
    expect(await auditRows('config.setSwitch', 'NoSuchSwitch')).toEqual([]);
    // Only admins configure.
    expect((await staffCall(server, '/v1/staff/config/setSwitch', { name: 'OptionMock', enable: before.enable }, compliance.token)).code).toBe(2001);
    await staffCall(server, '/v1/staff/config/setSwitch', { name: 'OptionMock', enable: before.enable }, admin.token);
  });

  it('changes a product: trade status 0 refuses the customer\'s order (304); bad terms answer 1016 and change nothing', async () => {
    const user = await trader();
    const productOf = async (code: string) => ((await call(server, productList.path)).data as { list: { productCode: string; tradeStatus: number; spread: string; multiple: number }[] }).list.find((product) => product.productCode === code)!;
    await proposeAndApprove(server, '/v1/staff/config/setProduct', { productCode: 'EURUSD', fields: { tradeStatus: 0 } }, admin.token, adminB.token);
    try {
      expect((await productOf('EURUSD')).tradeStatus).toBe(0);
      expect((await call(server, '/exchange/addOrder', order(), user.token)).code).toBe(304);
    } finally {
      await proposeAndApprove(server, '/v1/staff/config/setProduct', { productCode: 'EURUSD', fields: { tradeStatus: 1 } }, admin.token, adminB.token);
    }
    expect((await call(server, '/exchange/addOrder', order(), user.token)).code).toBe(0);

    const unchanged = await productOf('EURUSD');
    for (const fields of [{ spread: '-0.0001' }, { feeRate: '1' }, { overnightRate: '-1' }, { minCount: '0' }, { minCount: '60', maxCount: '50' }, { minCount: '0.015' }]) {
      const refused = await staffCall(server, '/v1/staff/config/setProduct', { productCode: 'EURUSD', fields }, admin.token);
      expect(refused.code, JSON.stringify(fields)).toBe(1016);
    }
    expect((await staffCall(server, '/v1/staff/config/setProduct', { productCode: 'EURUSD', fields: { multiple: 1001 } }, admin.token)).code).toBe(1001);
    expect(await productOf('EURUSD')).toEqual(unchanged);
    expect((await staffCall(server, '/v1/staff/config/setProduct', { productCode: 'NOPE', fields: { spread: '0' } }, admin.token)).code).toBe(1008);

    const rows = await auditRows('config.setProduct', 'EURUSD');
    expect(rows).toHaveLength(2);
    // Applied by the approving admin (dual control), each with before and after.
    expect(rows[0]).toMatchObject({ staff_id: adminB.staffId, target_type: 'product', before: { productCode: 'EURUSD', tradeStatus: 1 }, after: { productCode: 'EURUSD', tradeStatus: 0 } });
    expect(rows[1]).toMatchObject({ before: { tradeStatus: 0 }, after: { tradeStatus: 1 } });
  });

  it('changes an option product; a malformed timeRatePayload answers 1016 and changes nothing', async () => {
    const list = async () => ((await staffCall(server, '/v1/staff/config/optionProducts', {}, admin.token)).data as { list: { id: number; productCode: string; tradeStatus: number; feeRate: string; timeRatePayload: Record<string, string> }[] }).list;
    const eth = (await list()).find((product) => product.productCode === 'ETHUSDT')!;
    const payload = { '1': '60;85;10|50|100;5000;10;60s' };
    await proposeAndApprove(server, '/v1/staff/config/setOptionProduct', { id: eth.id, tradeStatus: 1, feeRate: '0.02', timeRatePayload: payload }, admin.token, adminB.token);
    const after = (await list()).find((product) => product.id === eth.id)!;
    expect(after).toMatchObject({ tradeStatus: 1, feeRate: '0.02', timeRatePayload: payload });
    // The customer's list answers the change too.
    const customerList = (await call(server, findOptionsProduct.path, { productCode: 'ETHUSDT' })).data as { optionsProducts: { feeRate: string; timeRatePayload: Record<string, string> }[] };
    expect(customerList.optionsProducts[0]).toMatchObject({ feeRate: '0.02', timeRatePayload: payload });

    for (const timeRatePayload of [{ '1': '60;85' }, { '1': '0;85;10;100;10' }, { '1': '60;85;10;100;10', '2': '60;90;10;100;10' }, {}]) {
      const refused = await staffCall(server, '/v1/staff/config/setOptionProduct', { id: eth.id, tradeStatus: 1, feeRate: '0.02', timeRatePayload }, admin.token);
      expect(refused.code, JSON.stringify(timeRatePayload)).toBe(1016);
    }
    expect((await staffCall(server, '/v1/staff/config/setOptionProduct', { id: eth.id, tradeStatus: 1, feeRate: '1.5', timeRatePayload: payload }, admin.token)).code).toBe(1016);
    expect((await list()).find((product) => product.id === eth.id)).toEqual(after);
    expect(await auditRows('config.setOptionProduct', String(eth.id))).toEqual([
      { staff_id: adminB.staffId, target_type: 'optionProduct', target_id: String(eth.id), uid: null, before: eth, after },
    ]);
  });

  it('replaces the banners and the customer-service link; the customer calls answer them; a bad link is 1016', async () => {
    const rows = [
      { bannerUrl: '/banners/b.png', sort: 0, active: true },
      { bannerUrl: '/banners/hidden.png', sort: 1, active: false },
      { bannerUrl: '/banners/a.png', sort: 2, active: true },
    ];
    const beforeBanners = ((await staffCall(server, '/v1/staff/config/banners', {}, admin.token)).data as { rows: unknown[] }).rows;
    expect((await staffCall(server, '/v1/staff/config/setBanners', { rows }, admin.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/config/banners', {}, admin.token)).data).toEqual({ rows });
    expect((await call(server, appBannerList.path)).data).toEqual({ rows: [{ bannerUrl: '/banners/b.png' }, { bannerUrl: '/banners/a.png' }] });
    expect(await auditRows('config.setBanners', null)).toEqual([{ staff_id: admin.staffId, target_type: 'banners', target_id: null, uid: null, before: beforeBanners, after: rows }]);

    const link = '1|["https://chat.example.com/room","https://t.me/brand","","help@example.com"]';
    const beforeLink = ((await staffCall(server, '/v1/staff/config/serviceLink', {}, admin.token)).data as { value: string }).value;
    expect((await staffCall(server, '/v1/staff/config/setServiceLink', { value: link }, admin.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/config/serviceLink', {}, admin.token)).data).toEqual({ value: link });
    expect((await call(server, getCustomerLink.path)).data).toEqual({ url: 'https://chat.example.com/room', telegram: 'https://t.me/brand', whatsapp: '', email: 'help@example.com', mode: 1 });
    for (const value of ['https://chat.example.com', '0|["javascript:alert(1)","","",""]', '3|["","","",""]', '0|["","","","not-an-address"]']) {
      expect((await staffCall(server, '/v1/staff/config/setServiceLink', { value }, admin.token)).code, value).toBe(1016);
    }
    expect((await staffCall(server, '/v1/staff/config/serviceLink', {}, admin.token)).data).toEqual({ value: link });
    expect(await auditRows('config.setServiceLink', null)).toEqual([{ staff_id: admin.staffId, target_type: 'serviceLink', target_id: null, uid: null, before: { value: beforeLink }, after: { value: link } }]);
  });

  it('sends a notice to one customer and to everyone: counts, the list newest first, reading only one\'s own, the socket told the unread count', async () => {
    const reader = await trader('0');
    const other = await trader('0');
    const feed = exchangeSocket(`${socketBase}?token=${encodeURIComponent(reader.token)}`);
    await feed.first('account');

    const one = await staffCall(server, '/v1/staff/notices/send', { uid: reader.uid, title: 'Your documents', content: 'Please upload a clearer photo.' }, support.token);
    expect(one).toMatchObject({ code: 0, data: { count: 1 } });
    expect(await feed.first('notice')).toEqual({ type: 'notice', data: { count: 1 } });
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, reader.token)).data).toEqual({ count: 1 });
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, other.token)).data).toEqual({ count: 0 });

    const customers = Number((await server.database.db.selectFrom('app_user').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow()).count);
    const everyone = await staffCall(server, '/v1/staff/notices/send', { title: 'Maintenance', content: 'Sunday 02:00–03:00 UTC.' }, support.token);
    expect(everyone).toMatchObject({ code: 0, data: { count: customers } });
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, reader.token)).data).toEqual({ count: 2 });
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, other.token)).data).toEqual({ count: 1 });

    const list = (await call(server, '/v1/waa/notice/list', { page: 1 }, reader.token)).data as { list: { id: number; title: string; content: string; readStatus: number; actionType: number; timeStamp: number }[]; pages: number };
    expect(list.pages).toBe(1);
    expect(list.list.map((notice) => [notice.title, notice.readStatus, notice.actionType])).toEqual([['Maintenance', 0, 4], ['Your documents', 0, 4]]);
    const othersNotice = ((await call(server, '/v1/waa/notice/list', { page: 1 }, other.token)).data as { list: { id: number }[] }).list[0]!;

    // Someone else's id changes nothing; one's own is read.
    expect((await call(server, '/v1/waa/notice/read', { ids: [othersNotice.id] }, reader.token)).code).toBe(0);
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, other.token)).data).toEqual({ count: 1 });
    expect((await call(server, '/v1/waa/notice/read', { ids: [list.list[1]!.id] }, reader.token)).code).toBe(0);
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, reader.token)).data).toEqual({ count: 1 });
    // The reader's open tabs heard each count: after each notice, and after the read.
    expect((await feed.ofType('notice', 3)).map((message) => message.data)).toEqual([{ count: 1 }, { count: 2 }, { count: 1 }]);

    expect((await staffCall(server, '/v1/staff/notices/send', { uid: 999_999, title: 'x', content: 'y' }, support.token)).code).toBe(1002);
    expect((await staffCall(server, '/v1/staff/notices/send', { uid: reader.uid, title: 'x', content: 'y' }, finance.token)).code).toBe(2001);
    expect(await auditRows('notices.send', String(reader.uid))).toEqual([
      { staff_id: support.staffId, target_type: 'notice', target_id: String(reader.uid), uid: reader.uid, before: null, after: { to: reader.uid, title: 'Your documents', content: 'Please upload a clearer photo.', recipients: 1 } },
    ]);
    expect(await auditRows('notices.send', 'everyone')).toEqual([
      { staff_id: support.staffId, target_type: 'notice', target_id: 'everyone', uid: null, before: null, after: { to: 'everyone', title: 'Maintenance', content: 'Sunday 02:00–03:00 UTC.', recipients: customers } },
    ]);
    feed.socket.close();
  });

  it('finds customers by uid, e-mail prefix (any case) and phone, and shows a customer\'s balances, open orders and ledger lines', async () => {
    const user = await trader('1000');
    const email = ((await call(server, '/v1/waa/user/info', {}, user.token)).data as { email: string }).email;
    const search = async (query: string) => ((await staffCall(server, '/v1/staff/customers/search', { query }, support.token)).data as { list: { uid: number; email: string | null }[] }).list.map((row) => row.uid);
    expect(await search(String(user.uid))).toContain(user.uid);
    expect(await search(email.slice(0, 12).toUpperCase())).toContain(user.uid);
    expect(await search('nobody-like-this')).toEqual([]);
    await server.database.db.updateTable('app_user').set({ phone: '8613800138000' }).where('uid', '=', user.uid).execute();
    expect(await search('861380013')).toEqual([user.uid]);

    const placed = await call(server, '/exchange/addOrder', order(), user.token);
    expect(placed.code, placed.msg).toBe(0);
    const detail = (await staffCall(server, '/v1/staff/customers/get', { uid: user.uid }, support.token)).data as {
      balances: { real: { balanceAmount: string; lockMargin: string }; demo: { balanceAmount: string; lockMargin: string } };
      wallets: unknown[];
      openOrders: { uid: string; book: string }[];
      openOptions: unknown[];
    };
    // Margin 1.08512 × 0.1 × 100000 / 100 = 108.512; fee × 0.00002 = 0.217024.
    expect(detail.balances.real).toEqual({ balanceAmount: '891.270976', lockMargin: '108.512' });
    // The USDT wallet the funding deposit went through, emptied into the trading account.
    expect(detail.wallets).toEqual([{ currency: 'USDT', balance: '0.00' }]);
    expect(detail.openOrders).toEqual([expect.objectContaining({ uid: placed.data, book: 'real' })]);
    expect(detail.openOptions).toEqual([]);
    expect((await staffCall(server, '/v1/staff/customers/get', { uid: 999_999 }, support.token)).code).toBe(1002);

    expect((await staffCall(server, '/v1/staff/customers/ledger', { uid: user.uid }, support.token)).code).toBe(2001);
    const ledgerPage = (await staffCall(server, '/v1/staff/customers/ledger', { uid: user.uid }, finance.token)).data as { list: { journalKind: string; book: string; accountKind: string; amount: string }[]; pages: number };
    expect(ledgerPage.pages).toBe(1);
    // Newest first: the order's margin and fee, the transfer from the USDT wallet into the trading account, the
    // approved deposit into that wallet, the demo account's funding at the first switch to it.
    expect(ledgerPage.list.map((line) => [line.journalKind, line.book, line.accountKind, line.amount])).toEqual([
      ['order-open', 'real', 'margin', '108.512'],
      ['order-open', 'real', 'cash', '-108.729024'],
      ['transfer-in', 'real', 'wallet', '-1000.00'],
      ['transfer-in', 'real', 'cash', '1000.00'],
      ['wallet-deposit', 'real', 'wallet', '1000.00'],
      ['demo-funding', 'demo', 'cash', '100000.00'],
    ]);

    // A currency wallet shows on the customer's page once it holds money.
    const walletLedger = createLedger(server.database.db);
    await server.database.db.transaction().execute((trx) => walletLedger.creditWalletDeposit(trx, { uid: user.uid, currency: 'BTC', amount: money('0.125'), key: `staff-ops-wallet:${user.uid}` }));
    const withWallet = (await staffCall(server, '/v1/staff/customers/get', { uid: user.uid }, support.token)).data as { wallets: { currency: string; balance: string }[] };
    expect(withWallet.wallets).toEqual([{ currency: 'BTC', balance: '0.125' }, { currency: 'USDT', balance: '0.00' }]);
  });

  it('declares no staff call that sets a price, a fill or an outcome', () => {
    const forbidden = /price|fill|outcome|result/i;
    for (const path of Object.keys(staffRouteAccess)) expect(path).not.toMatch(forbidden);
    const declared = server.app.printRoutes({ commonPrefix: false });
    expect(declared).not.toMatch(/\/v1\/staff\/\S*(price|fill|outcome|result)/i);
    const fieldsOf = (schema: unknown): string[] => {
      const shape = (schema as { shape?: Record<string, unknown> }).shape;
      if (!shape) return [];
      // An optional, nullable or defaulted field: look inside it (zod/mini has no unwrap(); its def holds the inner schema).
      return Object.entries(shape).flatMap(([key, inner]) => [key, ...fieldsOf((inner as { def?: { innerType?: unknown } }).def?.innerType ?? inner)]);
    };
    const requestFields = Object.values(staffContracts).flatMap((value) => {
      const contract = value as { path?: unknown; body?: unknown };
      return typeof contract.path === 'string' && contract.path.startsWith('/v1/staff/') ? fieldsOf(contract.body) : [];
    });
    expect(requestFields.length).toBeGreaterThan(20);
    expect(requestFields.filter((field) => forbidden.test(field))).toEqual([]);
  });
});
