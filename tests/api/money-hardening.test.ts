import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { baseCurrency, HouseAccountKind, UserAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { encodeField } from '../../src/shared/money/encoded-field';
import { formatMoney, money } from '../../src/shared/money/money';
import { post, scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { newCustomer } from './reviews-support';
import { coinNetworks, creditWallet as credit, keyedCall, moneyCustomer, saveAddress, tronAddress, usdtTrc20Of, type CoinNetwork, type Envelope, type MoneyCustomer as Customer } from './support/money-controls';
import { jpegImage, multipartBody, multipartCall } from './uploads-support';


/**
 * Issue 31's smaller money findings (8), each as a customer would meet it: an Idempotency-Key
 * reused with another body, amounts that overflowed a column into an HTTP 500, a coinId that
 * was not a number, and the first parallel transfers in and out of a new currency.
 */
/** A valid Tron address saved for the customer on USDT TRC-20 (the server pays only to a saved one), encoded for the wire. */
async function savedAddressOn(server: TestServer, who: { token: string; aesKey: string }, coinNetworkId: number) {
  const address = tronAddress();
  const saved = await saveAddress(server, who, coinNetworkId, address);
  expect(saved.code, saved.msg).toBe(0);
  return encodeField(address, who.aesKey);
}

describe.each(testBackends())('money hardening on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let usdtTrc20: CoinNetwork;
  const script = scriptedSource();
  const clock = () => Date.now();

  const savedAddress = (who: { token: string; aesKey: string }) => savedAddressOn(server, who, usdtTrc20.id);
  const customer = (): Promise<Customer> => moneyCustomer(server, 'hardened');
  const keyed = (path: string, body: unknown, token: string, key: string | null = crypto.randomUUID()): Promise<Envelope & { status: number }> => keyedCall(server, path, body, token, key);
  const creditWallet = (uid: number, currency: string, amount: string) => credit(server, ledger, uid, amount, currency);
  const walletOf = async (uid: number, currency = 'USDT') => formatMoney(await ledger.balance({ owner: uid, book: 'real', kind: 'wallet', currency }));
  const cashOf = async (uid: number) => formatMoney(await ledger.balance({ owner: uid, book: 'real', kind: 'cash' }));
  const heldOf = async (uid: number) => formatMoney(await ledger.balance({ owner: uid, book: 'real', kind: UserAccountKind.withdrawalHold, currency: 'USDT' }));
  const books = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];
  const currencyId = async (code: string) => (await server.database.db.selectFrom('currency').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const transformDraft = async (token: string, curr: string, type: 0 | 1, num: string) => {
    const draft = { curr, currId: await currencyId(curr), type, num };
    const quote = await call(server, '/v1/waa/wallet/transformCalculate', draft, token);
    expect(quote.code, quote.msg).toBe(0);
    return { ...draft, ...(quote.data as { fee: string; practical: string }) };
  };
  const deposit = async (who: Customer, meta: Record<string, unknown>, key: string = crypto.randomUUID(), proof?: Buffer) => {
    const body = multipartBody({ metaData: JSON.stringify({ coinId: usdtTrc20.id, said: usdtTrc20.said, locale: 'en', ...meta }) }, [
      { field: 'depositProof', filename: 'transfer.jpg', bytes: proof ?? (await jpegImage()), type: 'image/jpeg' },
    ]);
    return multipartCall(server, '/v1/waa/deposit/submit', body, who.token, key);
  };
  const depositsOf = async (uid: number) => (await server.database.db.selectFrom('deposit').select(['amount']).where('uid', '=', uid).execute()).map((row) => formatMoney(money(row.amount)));

  beforeAll(async () => {
    // Idempotency is the subject here, not the withdrawal rules: no verification needed, no cooling-off after saving a destination.
    server = await startTestServer(backend, { STALE_PRICE_MS: '3600000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', SWITCHES: 'BANK_CARD_WITHDRAW=1', WITHDRAW_MIN_VERIFICATION: 'none', WITHDRAWAL_HOLD_SECONDS: '0' }, { marketSource: script.source });
    ledger = createLedger(server.database.db);
    script.push([{ symbol: 'BTCUSDT', timeMs: clock(), bid: 6_700_000, ask: 6_700_100, volume: 1 }]);
    const probe = await customer();
    usdtTrc20 = await usdtTrc20Of(server, probe.token);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('an Idempotency-Key is bound to its first request (1016 for another body, the first answer for the same)', () => {
    const reused = { code: ErrorCode.INCORRECT_PARAMETER_VALUE, msg: 'This request reference was already used for a different request. (1016)' };

    it('wallet/transform: 100 then 500 under one key moves 100 once', async () => {
      const who = await customer();
      await creditWallet(who.uid, 'USDT', '1000');
      const key = crypto.randomUUID();
      expect((await keyed('/v1/waa/wallet/transform', await transformDraft(who.token, 'USDT', 0, '100'), who.token, key)).code).toBe(0);
      expect(await keyed('/v1/waa/wallet/transform', await transformDraft(who.token, 'USDT', 0, '500'), who.token, key)).toMatchObject(reused);
      // The same body again answers the first result and moves nothing more.
      expect((await keyed('/v1/waa/wallet/transform', await transformDraft(who.token, 'USDT', 0, '100'), who.token, key)).code).toBe(0);
      expect(await walletOf(who.uid)).toBe('900.00');
      expect(await cashOf(who.uid)).toBe('100.00');
      expect(await books()).toEqual([]);
    });

    it('withdraw/submit: a second amount under the first key holds nothing more', async () => {
      const who = await customer();
      await creditWallet(who.uid, 'USDT', '1000');
      const paymentAddress = await savedAddress(who);
      const body = (num: string, practicalNum: string) => ({ num, practicalNum, currencyId: usdtTrc20.currencyId, coinId: usdtTrc20.id, paymentAddress, locale: 'en' });
      const key = crypto.randomUUID();
      expect((await keyed('/v1/waa/withdraw/submit', body('100', '99'), who.token, key)).code).toBe(0);
      expect(await keyed('/v1/waa/withdraw/submit', body('500', '499'), who.token, key)).toMatchObject(reused);
      expect((await keyed('/v1/waa/withdraw/submit', body('100', '99'), who.token, key)).code).toBe(0);
      expect(await heldOf(who.uid)).toBe('100.00');
      expect(await walletOf(who.uid)).toBe('900.00');
    });

    it('withdraw/bankSubmit: a second amount under the first key holds nothing more', async () => {
      const who = await customer();
      await creditWallet(who.uid, 'USDT', '1000');
      const card = { bankName: 'vib', name: encodeField('Linh Tran', who.aesKey), account: encodeField('0123456789', who.aesKey) };
      expect((await keyed('/v1/waa/bankCard/insert', card, who.token)).code).toBe(0);
      const userBankId = ((await call(server, '/v1/waa/bankCard/all', {}, who.token)).data as { list: { id: number }[] }).list[0]!.id;
      const body = (num: string, practicalNum: string) => ({ num, practicalNum, userBankId, withdrawType: 1, locale: 'en' });
      const key = crypto.randomUUID();
      expect((await keyed('/v1/waa/withdraw/bankSubmit', body('200', '198'), who.token, key)).code).toBe(0);
      expect(await keyed('/v1/waa/withdraw/bankSubmit', body('500', '495'), who.token, key)).toMatchObject(reused);
      expect(await heldOf(who.uid)).toBe('200.00');
    });

    it('bankCard/update: the same key and body answers the first result, another account number under it changes nothing', async () => {
      const who = await customer();
      const card = { bankName: 'vib', name: encodeField('Linh Tran', who.aesKey), account: encodeField('0123456789', who.aesKey) };
      expect((await keyed('/v1/waa/bankCard/insert', card, who.token)).code).toBe(0);
      const listed = async () => ((await call(server, '/v1/waa/bankCard/all', {}, who.token)).data as { list: { id: number; bankName: string; accountMasked: string }[] }).list;
      const id = (await listed())[0]!.id;
      const changedAt = async () => (await server.database.db.selectFrom('bank_card').select('updated_at').where('id', '=', id).executeTakeFirstOrThrow()).updated_at;
      const key = crypto.randomUUID();
      const edit = (account: string) => ({ ...card, id, bankName: 'vib hanoi', account: encodeField(account, who.aesKey) });
      // Without a key the change is refused before anything is written, as on the other money calls.
      expect((await keyed('/v1/waa/bankCard/update', edit('5555000011'), who.token, null)).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
      expect((await keyed('/v1/waa/bankCard/update', edit('0123456000'), who.token, key)).code).toBe(0);
      const firstChange = await changedAt();
      expect(await keyed('/v1/waa/bankCard/update', edit('9999999999'), who.token, key)).toMatchObject(reused);
      // The same body again answers the first result and writes nothing (the card's change time, which starts the cooling-off, stays).
      expect(await keyed('/v1/waa/bankCard/update', edit('0123456000'), who.token, key)).toMatchObject({ code: 0, data: null });
      expect(await changedAt()).toEqual(firstChange);
      expect(await listed()).toEqual([{ id, bankName: 'vib hanoi', accountMasked: '****6000' }]);
    });

    it('deposit/submit: another amount or another proof under the first key records nothing more', async () => {
      const who = await customer();
      const key = crypto.randomUUID();
      const proof = await jpegImage();
      expect((await deposit(who, { amt: '1000' }, key, proof)).code).toBe(0);
      expect(await deposit(who, { amt: '5000' }, key, proof)).toMatchObject(reused);
      expect(await deposit(who, { amt: '1000' }, key, await jpegImage(321, 240))).toMatchObject(reused);
      expect((await deposit(who, { amt: '1000' }, key, proof)).code).toBe(0);
      expect(await depositsOf(who.uid)).toEqual(['1000.00']);
    });

    it('the same key on another money call is refused alike', async () => {
      const who = await customer();
      await creditWallet(who.uid, 'USDT', '1000');
      const key = crypto.randomUUID();
      expect((await keyed('/v1/waa/wallet/transform', await transformDraft(who.token, 'USDT', 0, '100'), who.token, key)).code).toBe(0);
      const paymentAddress = await savedAddress(who);
      const withdrawal = { num: '100', practicalNum: '99', currencyId: usdtTrc20.currencyId, coinId: usdtTrc20.id, paymentAddress, locale: 'en' };
      expect(await keyed('/v1/waa/withdraw/submit', withdrawal, who.token, key)).toMatchObject(reused);
      expect(await heldOf(who.uid)).toBe('0.00');
    });
  });

  describe('amounts out of the money rule answer 1001/1016 and change nothing, never HTTP 500', () => {
    it('wallet/transform refuses a fee or practical with more than 8 decimals or 22 integer digits (1001)', async () => {
      const who = await customer();
      await creditWallet(who.uid, 'USDT', '1000');
      const draft = await transformDraft(who.token, 'USDT', 0, '100');
      const tries = [
        { ...draft, fee: '0.000000001' },
        { ...draft, practical: '100.000000001' },
        { ...draft, fee: '12345678901234567890123' },
        { ...draft, practical: '12345678901234567890123.5' },
      ];
      for (const body of tries) {
        const answer = await keyed('/v1/waa/wallet/transform', body, who.token);
        expect({ status: answer.status, code: answer.code }, JSON.stringify(body)).toEqual({ status: 200, code: ErrorCode.INCORRECT_PARAMETER_CONTENT });
      }
      // 22 integer digits keep the rule: a quote that does not match, answered with the live one (1033).
      const widest = await keyed('/v1/waa/wallet/transform', { ...draft, practical: '1234567890123456789012' }, who.token);
      expect({ status: widest.status, code: widest.code }).toEqual({ status: 200, code: ErrorCode.TRY_AGAIN_LATER });
      expect(await walletOf(who.uid)).toBe('1000.00');
      expect(await cashOf(who.uid)).toBe('0.00');
      expect(await books()).toEqual([]);
    });

    it('deposit/submit refuses a 22-digit BTC amount whose USD worth does not fit (1016)', async () => {
      const who = await customer();
      const btc = (await coinNetworks(server, who.token)).find((network) => network.currency === 'BTC')!;
      const answer = await deposit(who, { coinId: btc.id, said: btc.said, amt: '1234567890123456789012' });
      expect({ status: answer.status, code: answer.code, msg: answer.msg }).toEqual({ status: 200, code: ErrorCode.INCORRECT_PARAMETER_VALUE, msg: 'This amount is too large to deposit. (1016)' });
      expect(await depositsOf(who.uid)).toEqual([]);
    });

    it('coinId is only a positive integer: true, [1], "0x1" and "1e0" are refused (1001)', async () => {
      const who = await customer();
      await creditWallet(who.uid, 'USDT', '1000');
      const paymentAddress = await savedAddress(who);
      for (const coinId of [true, [usdtTrc20.id], `0x${usdtTrc20.id.toString(16)}`, `${usdtTrc20.id}e0`, ` ${usdtTrc20.id}`, 1.5, -1, 0]) {
        const submitted = await deposit(who, { coinId, amt: '1000' });
        expect(submitted.code, `deposit coinId ${JSON.stringify(coinId)}`).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
        const withdrawal = { num: '100', practicalNum: '99', currencyId: usdtTrc20.currencyId, coinId, paymentAddress, locale: 'en' };
        expect((await keyed('/v1/waa/withdraw/submit', withdrawal, who.token)).code, `withdraw coinId ${JSON.stringify(coinId)}`).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
      }
      expect(await depositsOf(who.uid)).toEqual([]);
      expect(await heldOf(who.uid)).toBe('0.00');
      // A form part may carry the id as its canonical text.
      expect((await deposit(who, { coinId: String(usdtTrc20.id), amt: '1000' })).code).toBe(0);
      expect(await depositsOf(who.uid)).toEqual(['1000.00']);
    });
  });

});

/**
 * The very first transfers of an install open the house's exchange accounts of the currency
 * and of the USD. A transfer in opened the currency's first and a transfer out the USD's
 * first, so at once each waited for the row the other had opened, and PostgreSQL broke the
 * deadlock by failing one of them (HTTP 500). PostgreSQL only: PGlite has one connection,
 * where transactions never interleave. The interleaving is made certain, not hoped for: an
 * outside transaction holds both rows open until both transfers wait on it, then rolls back,
 * so each transfer opens the row it was waiting for and goes on to the other's.
 */
describe.each(testBackends().filter((backend) => backend.name === 'postgres'))('the first transfers of an install on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();

  beforeAll(async () => {
    server = await startTestServer(backend, { STALE_PRICE_MS: '3600000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source });
    ledger = createLedger(server.database.db);
    script.push([{ symbol: 'ETHUSDT', timeMs: Date.now(), bid: 300_000, ask: 300_100, volume: 1 }]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a transfer in and a transfer out of a currency nobody has moved yet both go through at once', async () => {
    const who = await newCustomer(server, 'first');
    const eth = (await server.database.db.selectFrom('currency').select('id').where('code', '=', 'ETH').executeTakeFirstOrThrow()).id;
    await server.database.db.transaction().execute((trx) => ledger.creditWalletDeposit(trx, { uid: who.uid, currency: 'ETH', amount: money('10'), key: `test-wallet-deposit:${crypto.randomUUID()}` }));
    await ledger.creditDeposit({ uid: who.uid, amount: money('10000'), idempotencyKey: `test-cash:${crypto.randomUUID()}` });
    const drafts: Record<string, unknown>[] = [];
    for (const [type, num] of [[0, '1'], [1, '3000']] as const) {
      const body = { curr: 'ETH', currId: eth, type, num };
      const quote = await call(server, '/v1/waa/wallet/transformCalculate', body, who.token);
      expect(quote.code, quote.msg).toBe(0);
      drafts.push({ ...body, ...(quote.data as { fee: string; practical: string }) });
    }

    let holderPid = 0;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = server.database.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('ledger_account').values(['ETH', baseCurrency].map((currency) => ({ owner_uid: null, book: 'real' as const, kind: HouseAccountKind.exchange, currency }))).execute();
        holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
        holding();
        await released;
        throw new Error('rolled back on purpose');
      })
      .catch(() => undefined);
    await held;
    const answers = Promise.all(drafts.map((body) => post(server.app, '/v1/waa/wallet/transform', body, { authorization: `Bearer ${who.token}`, 'idempotency-key': crypto.randomUUID() })));
    // Both transfers now wait on the holder's rows.
    for (;;) {
      const waiting = await sql<{ count: number }>`select count(*)::integer as count from pg_stat_activity where ${holderPid}::integer = any(pg_blocking_pids(pid))`.execute(server.database.db);
      if (waiting.rows[0]!.count >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    await holder;
    expect((await answers).map((answer) => ({ status: answer.statusCode, code: (answer.json() as Envelope).code }))).toEqual([
      { status: 200, code: 0 },
      { status: 200, code: 0 },
    ]);
    expect([...(await ledger.check()), ...(await reconcileBooks(server.database.db))]).toEqual([]);
  });
});
