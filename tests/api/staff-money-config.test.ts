import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import type { StaffCurrency } from '../../src/shared/api/staff';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { money } from '../../src/shared/money/money';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { newCustomer } from './reviews-support';
import { createStaffAndSignIn, proposeAndApprove, staffCall } from './support/staff';
import { jpegImage, multipartBody, multipartCall } from './uploads-support';

type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;
type CoinOption = { id: number; currency: string; protocol: string; said: string; minWithdrawAmount: string };

// A Tuesday noon: every market is open.
const clock = Date.parse('2026-01-13T12:00:00Z');
const nowMs = () => clock;

describe.each(testBackends())('the operator lists the coins and blocks deposits on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let admin: Staff;
  /** The second admin a dual-controlled change waits for. */
  let adminB: Staff;
  let finance: Staff;
  let support: Staff;
  const script = scriptedSource();

  beforeAll(async () => {
    server = await startTestServer(backend, { STALE_PRICE_MS: '10000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs });
    ledger = createLedger(server.database.db);
    script.push([
      { symbol: 'BTCUSDT', timeMs: clock, bid: 6_700_000, ask: 6_700_002, volume: 1 },
      { symbol: 'ETHUSDT', timeMs: clock, bid: 350_000, ask: 350_002, volume: 1 },
      { symbol: 'SOLUSDT', timeMs: clock, bid: 15_000, ask: 15_001, volume: 1 },
    ]);
    [admin, adminB, finance, support] = await Promise.all([
      createStaffAndSignIn(server, { roles: ['admin'], nowMs }),
      createStaffAndSignIn(server, { roles: ['admin'], nowMs }),
      createStaffAndSignIn(server, { roles: ['finance'], nowMs }),
      createStaffAndSignIn(server, { roles: ['support'], nowMs }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const auditRows = async (action: string, targetId: string) => {
    const rows = await server.database.db
      .selectFrom('staff_audit')
      .select(['staff_id', 'target_type', 'uid', 'before', 'after'])
      .where('action', '=', action)
      .where('target_id', '=', targetId)
      .orderBy('id')
      .execute();
    const parsed = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
    return rows.map((row) => ({ ...row, before: parsed(row.before), after: parsed(row.after) }));
  };
  const auditCount = async () => Number((await server.database.db.selectFrom('staff_audit').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow()).count);
  const currencies = async () => {
    const answer = await staffCall(server, '/v1/staff/config/currencies', {}, admin.token);
    expect(answer.code, answer.msg).toBe(0);
    return (answer.data as { list: StaffCurrency[] }).list;
  };
  const currency = async (code: string) => (await currencies()).find((item) => item.code === code)!;
  const coins = async (token: string) => {
    const answer = await call(server, '/v1/waa/wallet/coinNetworks', {}, token);
    expect(answer.code, answer.msg).toBe(0);
    return (answer.data as { dtoList: CoinOption[] }).dtoList;
  };
  const walletList = async (token: string) => {
    const answer = await call(server, '/v1/waa/wallet/balance', {}, token);
    expect(answer.code, answer.msg).toBe(0);
    return (answer.data as { list: { currency: string; balance: string }[] }).list;
  };
  const depositSubmit = async (token: string, coin: { id: number; said: string }) =>
    multipartCall(
      server,
      '/v1/waa/deposit/submit',
      multipartBody({ metaData: JSON.stringify({ coinId: coin.id, said: coin.said, amt: '100', locale: 'en' }) }, [{ field: 'depositProof', filename: 'proof.jpg', bytes: await jpegImage(), type: 'image/jpeg' }]),
      token,
      crypto.randomUUID(),
    );
  const currencyRows = () => server.database.db.selectFrom('currency').selectAll().orderBy('id').execute();
  const networkRows = () => server.database.db.selectFrom('coin_network').selectAll().orderBy('id').execute();

  it('lists the seeded currencies with their networks to an admin only', async () => {
    const list = await currencies();
    expect(list.map((item) => [item.code, item.valuedByProduct, item.transferFeeRate, item.networks.map((network) => network.network)])).toEqual([
      ['USDT', null, '0', ['TRC20', 'ERC20']],
      ['BTC', 'BTCUSDT', '0.001', ['Bitcoin']],
      ['ETH', 'ETHUSDT', '0.001', ['ERC20']],
    ]);
    expect(list[1]!.networks[0]).toMatchObject({ minWithdraw: '0.001', maxWithdraw: '200', withdrawFeeType: 'PERCENTAGE', withdrawFee: '0.5', enabled: true });
    for (const path of ['/v1/staff/config/currencies', '/v1/staff/config/setCurrency', '/v1/staff/config/setCoinNetwork']) {
      const refused = await staffCall(server, path, {}, finance.token);
      expect(refused.code, path).toBe(2001);
      expect(refused.status, path).toBe(403);
    }
  });

  it('adds a coin priced by a market product with a network: customers see it and can deposit in it; one audit row each', async () => {
    const customer = await newCustomer(server, 'newcoin');
    // A valuation source is dual-controlled: one admin proposes, another approves.
    await proposeAndApprove(
      server,
      '/v1/staff/config/setCurrency',
      { code: 'SOL', name: 'Solana', decimals: 8, icon: '/icons/coins/sol.svg', valuedByProduct: 'SOLUSDT', transferFeeRate: '0.002', enabled: true, sort: 4 },
      admin.token,
      adminB.token,
    );
    const { id: currencyId } = await currency('SOL');
    // So is a network: its deposit address is where customers' money goes.
    await proposeAndApprove(
      server,
      '/v1/staff/config/setCoinNetwork',
      { currencyId, network: 'ERC20', depositAddress: '  0x71C7656EC7ab88b098defB751B7401B5f6d8976F ', minWithdraw: '0.05', maxWithdraw: '100', withdrawFeeType: 'FIX_AMOUNT', withdrawFee: '0.001', enabled: true },
      admin.token,
      adminB.token,
    );
    const networkId = (await currency('SOL')).networks.find((each) => each.network === 'ERC20')!.id;

    const offered = (await coins(customer.token)).find((coin) => coin.id === networkId);
    expect(offered).toMatchObject({ currency: 'SOL', protocol: 'ERC20', said: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F' });
    expect((await walletList(customer.token)).map((line) => line.currency)).toEqual(['USDT', 'BTC', 'ETH', 'SOL']);
    const deposit = await depositSubmit(customer.token, offered!);
    expect(deposit.code, deposit.msg).toBe(0);

    expect(await auditRows('config.setCurrency', String(currencyId))).toEqual([
      {
        staff_id: adminB.staffId,
        target_type: 'currency',
        uid: null,
        before: null,
        after: { id: currencyId, code: 'SOL', name: 'Solana', decimals: 8, icon: '/icons/coins/sol.svg', valuedByProduct: 'SOLUSDT', transferFeeRate: '0.002', enabled: true, sort: 4 },
      },
    ]);
    expect(await auditRows('config.setCoinNetwork', String(networkId))).toEqual([
      {
        staff_id: adminB.staffId,
        target_type: 'coinNetwork',
        uid: null,
        before: null,
        after: { id: networkId, currencyId, network: 'ERC20', depositAddress: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F', minWithdraw: '0.05', maxWithdraw: '100', withdrawFeeType: 'FIX_AMOUNT', withdrawFee: '0.001', enabled: true },
      },
    ]);
  });

  it('turning a currency off hides it and its networks and refuses deposits and transfers in it, while a held balance stays visible; on again it all returns', async () => {
    const customer = await newCustomer(server, 'ethoff');
    await server.database.db.transaction().execute((trx) => ledger.creditWalletDeposit(trx, { uid: customer.uid, currency: 'ETH', amount: money('0.5'), key: `test:eth:${customer.uid}` }));
    const eth = await currency('ETH');
    const ethCoin = (await coins(customer.token)).find((coin) => coin.currency === 'ETH')!;
    const { networks: _networks, ...terms } = eth;
    await proposeAndApprove(server, '/v1/staff/config/setCurrency', { ...terms, enabled: false }, admin.token, adminB.token);

    expect((await coins(customer.token)).some((coin) => coin.currency === 'ETH')).toBe(false);
    expect((await walletList(customer.token)).find((line) => line.currency === 'ETH')?.balance).toBe('0.50');
    expect((await depositSubmit(customer.token, ethCoin)).code).toBe(ErrorCode.CURRENCY_NOT_FOUND);
    const transfer = await call(server, '/v1/waa/wallet/transformCalculate', { curr: 'ETH', currId: eth.id, type: 0, num: '0.1' }, customer.token);
    expect(transfer.code).toBe(ErrorCode.CURRENCY_NOT_FOUND);
    // Someone holding none of it no longer sees it at all.
    const other = await newCustomer(server, 'ethnone');
    expect((await walletList(other.token)).some((line) => line.currency === 'ETH')).toBe(false);
    expect(await ledger.balance({ owner: customer.uid, book: 'real', kind: 'wallet', currency: 'ETH' })).toBe(money('0.5'));

    await proposeAndApprove(server, '/v1/staff/config/setCurrency', { ...terms, enabled: true }, admin.token, adminB.token);
    expect((await coins(customer.token)).some((coin) => coin.currency === 'ETH')).toBe(true);
    const again = await call(server, '/v1/waa/wallet/transformCalculate', { curr: 'ETH', currId: eth.id, type: 0, num: '0.1' }, customer.token);
    expect(again.code, again.msg).toBe(0);
    const rows = await auditRows('config.setCurrency', String(eth.id));
    expect(rows.map((row) => [(row.before as { enabled: boolean }).enabled, (row.after as { enabled: boolean }).enabled])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('turning one network off hides only that network and refuses deposits on it', async () => {
    const customer = await newCustomer(server, 'netoff');
    const usdt = await currency('USDT');
    const erc20 = usdt.networks.find((network) => network.network === 'ERC20')!;
    const offered = (await coins(customer.token)).find((coin) => coin.id === erc20.id)!;
    const { id, ...terms } = erc20;
    await proposeAndApprove(server, '/v1/staff/config/setCoinNetwork', { id, ...terms, enabled: false }, admin.token, adminB.token);
    expect((await coins(customer.token)).filter((coin) => coin.currency === 'USDT').map((coin) => coin.protocol)).toEqual(['TRC20']);
    expect((await depositSubmit(customer.token, offered)).code).toBe(ErrorCode.CURRENCY_NOT_FOUND);
    await proposeAndApprove(server, '/v1/staff/config/setCoinNetwork', { id, ...terms, withdrawFee: '4', enabled: true }, admin.token, adminB.token);
    expect((await coins(customer.token)).filter((coin) => coin.currency === 'USDT').map((coin) => coin.protocol)).toEqual(['TRC20', 'ERC20']);
    const rows = await auditRows('config.setCoinNetwork', String(id));
    expect(rows.at(-1)).toMatchObject({ before: { withdrawFee: '5', enabled: false }, after: { withdrawFee: '4', enabled: true } });
  });

  it('refuses bad terms with 1016 (unknown ones with 1008) and changes nothing, writing no audit row', async () => {
    const btc = await currency('BTC');
    const { networks, ...terms } = btc;
    const { id: networkId, ...networkTerms } = networks[0]!;
    const [currenciesBefore, networksBefore, auditBefore] = [await currencyRows(), await networkRows(), await auditCount()];
    const badCurrencies: [Record<string, unknown>, number][] = [
      [{ ...terms, valuedByProduct: 'NOPEUSDT' }, 1016],
      [{ ...terms, transferFeeRate: '1' }, 1016],
      [{ ...terms, transferFeeRate: '-0.1' }, 1016],
      [{ ...terms, decimals: 9 }, 1016],
      [{ ...terms, code: 'XBT' }, 1016],
      [{ ...terms, id: undefined, code: 'ETH' }, 1016],
      [{ ...terms, id: undefined, code: 'bad code' }, 1016],
      [{ ...terms, id: 99999 }, 1008],
    ];
    for (const [body, code] of badCurrencies) {
      expect((await staffCall(server, '/v1/staff/config/setCurrency', body, admin.token)).code, JSON.stringify(body)).toBe(code);
    }
    const badNetworks: [Record<string, unknown>, number][] = [
      [{ ...networkTerms, id: networkId, depositAddress: '   ' }, 1016],
      [{ ...networkTerms, id: networkId, depositAddress: 'bc1q <script>' }, 1016],
      [{ ...networkTerms, id: networkId, minWithdraw: '300', maxWithdraw: '200' }, 1016],
      [{ ...networkTerms, id: networkId, withdrawFeeType: 'FLAT' }, 1016],
      [{ ...networkTerms, id: networkId, withdrawFee: '-1' }, 1016],
      [{ ...networkTerms, id: networkId, currencyId: (await currency('ETH')).id }, 1016],
      [{ ...networkTerms }, 1016],
      [{ ...networkTerms, currencyId: 99999, network: 'Lightning' }, 1008],
      [{ ...networkTerms, id: 99999 }, 1008],
    ];
    for (const [body, code] of badNetworks) {
      expect((await staffCall(server, '/v1/staff/config/setCoinNetwork', body, admin.token)).code, JSON.stringify(body)).toBe(code);
    }
    expect(await currencyRows()).toEqual(currenciesBefore);
    expect(await networkRows()).toEqual(networksBefore);
    expect(await auditCount()).toBe(auditBefore);
  });

  it('blocks and unblocks a customer\'s deposits (finance, with a reason): deposit/status answers at once, the console shows it, one audit row each', async () => {
    const customer = await newCustomer(server, 'block');
    const usdtTrc20 = (await coins(customer.token)).find((coin) => coin.currency === 'USDT' && coin.protocol === 'TRC20')!;
    const status = async () => (await call(server, '/v1/waa/deposit/status', {}, customer.token)).data;
    const detail = async () => ((await staffCall(server, '/v1/staff/customers/get', { uid: customer.uid }, support.token)).data as { profile: { depositBlocked: boolean; depositBlockReason: string | null } }).profile;
    expect(await status()).toEqual({ enabled: true });
    expect(await detail()).toMatchObject({ depositBlocked: false, depositBlockReason: null });

    const refusedRole = await staffCall(server, '/v1/staff/customers/setDepositBlocked', { uid: customer.uid, blocked: true, reason: 'x' }, support.token);
    expect(refusedRole.code).toBe(2001);
    expect((await staffCall(server, '/v1/staff/customers/setDepositBlocked', { uid: customer.uid, blocked: true, reason: '  ' }, finance.token)).code).toBe(1001);
    expect((await staffCall(server, '/v1/staff/customers/setDepositBlocked', { uid: 99_999_999, blocked: true, reason: 'who' }, finance.token)).code).toBe(ErrorCode.USER_NOT_FOUND);
    expect(await status()).toEqual({ enabled: true });

    const block = await staffCall(server, '/v1/staff/customers/setDepositBlocked', { uid: customer.uid, blocked: true, reason: 'chargeback' }, finance.token);
    expect(block.code, block.msg).toBe(0);
    expect(await status()).toEqual({ enabled: false });
    expect(await detail()).toMatchObject({ depositBlocked: true, depositBlockReason: 'chargeback' });
    expect((await depositSubmit(customer.token, usdtTrc20)).code).toBe(ErrorCode.WALLET_DEPOSIT_ERROR);

    const unblock = await staffCall(server, '/v1/staff/customers/setDepositBlocked', { uid: customer.uid, blocked: false, reason: 'cleared' }, finance.token);
    expect(unblock.code, unblock.msg).toBe(0);
    expect(await status()).toEqual({ enabled: true });
    expect(await detail()).toMatchObject({ depositBlocked: false, depositBlockReason: null });

    expect(await auditRows('customers.setDepositBlocked', String(customer.uid))).toEqual([
      { staff_id: finance.staffId, target_type: 'customer', uid: customer.uid, before: { blocked: false, reason: null }, after: { blocked: true, reason: 'chargeback' } },
      { staff_id: finance.staffId, target_type: 'customer', uid: customer.uid, before: { blocked: true, reason: 'chargeback' }, after: { blocked: false, reason: 'cleared' } },
    ]);
  });
});
