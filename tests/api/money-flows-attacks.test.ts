import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { encodeField } from '../../src/shared/money/encoded-field';
import { formatMoney } from '../../src/shared/money/money';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, setSwitch } from './identity-support';
import { creditWallet, keyedCall, moneyCustomer, saveAddress, tronAddress, usdtTrc20Of, type CoinNetwork, type MoneyCustomer } from './support/money-controls';
import { jpegImage, multipartBody, multipartCall } from './uploads-support';

type Customer = MoneyCustomer & { address: string };

/**
 * Issue 31's adversarial pass, as a customer: amounts no rule allows, other customers' ids,
 * a demo session reaching for real money, and parallel calls spending one balance twice.
 * Each refusal is a translated answer (never success, never a 500), and the books show that
 * nothing moved. (Verification and the cooling-off are not the subject: relaxed here.)
 */
describe.each(testBackends())('money flows attacked on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let usdt: CoinNetwork;

  beforeAll(async () => {
    server = await startTestServer(backend, {
      FOUR_EYES_USD: '1000',
      CODES_SENT_PER_10_MIN: '500',
      CODE_CHECKS_PER_10_MIN: '500',
      WITHDRAW_MIN_VERIFICATION: 'none',
      WITHDRAWAL_HOLD_SECONDS: '0',
    });
    ledger = createLedger(server.database.db);
    usdt = await usdtTrc20Of(server, (await moneyCustomer(server, 'probe')).token);
    await setSwitch(server, 'user/loan', true);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A customer whose wallet holds `funds` USDT, with an address saved. */
  const customer = async (funds = '1000'): Promise<Customer> => {
    const who = { ...(await moneyCustomer(server, 'attacker')), address: tronAddress() };
    const saved = await saveAddress(server, who, usdt.id, who.address);
    expect(saved.code, saved.msg).toBe(0);
    await creditWallet(server, ledger, who.uid, funds);
    return who;
  };
  const withdraw = (who: Customer, num: unknown, practicalNum: unknown, token = who.token) =>
    keyedCall(server, '/v1/waa/withdraw/submit', { num, practicalNum, currencyId: usdt.currencyId, coinId: usdt.id, paymentAddress: encodeField(who.address, who.aesKey), locale: 'en' }, token);
  const transform = (who: Customer, body: Record<string, unknown>, token = who.token) =>
    keyedCall(server, '/v1/waa/wallet/transform', { curr: 'USDT', currId: usdt.currencyId, type: 0, num: '10', fee: '0', practical: '10', ...body }, token);
  const deposit = async (who: Customer, amt: unknown, token = who.token) => {
    const body = multipartBody({ metaData: JSON.stringify({ coinId: usdt.id, said: usdt.said, locale: 'en', amt }) }, [{ field: 'depositProof', filename: 't.jpg', bytes: await jpegImage(), type: 'image/jpeg' }]);
    return multipartCall(server, '/v1/waa/deposit/submit', body, token, crypto.randomUUID());
  };
  const loan = (who: Customer, amount: unknown, days: unknown, guarantor: unknown, token = who.token) =>
    keyedCall(server, '/v1/waa/loan/insert', { amount, days, guarantor, remark: '' }, token);
  /** What the customer holds and has asked for: it must not change under a refused call. */
  const footprint = async (uid: number) => {
    const db = server.database.db;
    const count = async (table: 'withdrawal' | 'deposit' | 'loan') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('uid', '=', uid).executeTakeFirstOrThrow()).n);
    const balances = [...(await ledger.walletBalances(uid)).entries()].map(([currency, units]) => `${currency} ${formatMoney(units)}`);
    const cash = formatMoney(await ledger.balance({ owner: uid, book: 'real', kind: 'cash' }));
    return { balances, cash, withdrawals: await count('withdrawal'), deposits: await count('deposit'), loans: await count('loan') };
  };
  const books = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];
  const refused = (answer: { code: number; msg: string; status: number }, what = '') => {
    expect(answer.status, `${what}: ${answer.msg}`).toBeLessThan(500);
    expect(answer.code, `${what}: ${answer.msg}`).not.toBe(0);
    expect(answer.msg.length, 'a message the customer can read').toBeGreaterThan(0);
  };

  const badAmounts: unknown[] = ['-100', '0', '-0.01', '1e3', 'NaN', 'Infinity', '0x64', ' 1 00', '100.123456789', '１００', '99999999999999999999999', 100, -5, null, true, [100], { amount: 100 }, ''];

  it('refuses malformed, negative, zero and huge amounts on withdraw/submit, wallet/transform, deposit/submit and loan/insert, moving nothing', async () => {
    const who = await customer();
    const guarantor = await customer('0');
    const before = await footprint(who.uid);
    for (const amount of badAmounts) {
      const shown = JSON.stringify(amount);
      refused(await withdraw(who, amount, amount), `withdraw ${shown}`);
      refused(await withdraw(who, '100', amount), `withdraw practical ${shown}`);
      refused(await transform(who, { num: amount, practical: amount }), `transfer in ${shown}`);
      // (A fee of "0" is USDT's own: the one value of the list that is right there.)
      if (amount !== '0') refused(await transform(who, { fee: amount }), `transfer fee ${shown}`);
      refused(await transform(who, { type: 1, num: amount, practical: amount }), `transfer out ${shown}`);
      refused(await deposit(who, amount), `deposit ${shown}`);
      refused(await loan(who, amount, 7, guarantor.uid), `loan ${shown}`);
      refused(await loan(who, 1000, amount, guarantor.uid), `loan days ${shown}`);
    }
    // A transfer type that does not exist, another currency's id under USDT's code, and a practical above the quote.
    refused(await transform(who, { type: 2 }));
    refused(await transform(who, { currId: usdt.currencyId + 1 }));
    refused(await transform(who, { practical: '11' }));
    // The customer as their own guarantor, and a guarantor who does not exist.
    refused(await loan(who, 1000, 7, who.uid));
    refused(await loan(who, 1000, 7, 999_999_999));
    expect(await footprint(who.uid)).toEqual(before);
    expect(await books()).toEqual([]);
  });

  it("reaches no other customer's money or destinations through their ids", async () => {
    const [owner, intruder] = [await customer(), await customer()];
    const placed = await withdraw(owner, '100', '99');
    expect(placed.code, placed.msg).toBe(0);
    const ownerWithdrawal = await server.database.db.selectFrom('withdrawal').select(['id', 'status']).where('uid', '=', owner.uid).executeTakeFirstOrThrow();
    const ownerAddress = await server.database.db.selectFrom('saved_crypto_address').select('id').where('uid', '=', owner.uid).executeTakeFirstOrThrow();
    const ownerBefore = await footprint(owner.uid);
    refused(await call(server, '/v1/waa/withdraw/cancel', { id: ownerWithdrawal.id }, intruder.token));
    refused(await call(server, '/v1/waa/wallet/crypto/delete', { walletId: ownerAddress.id }, intruder.token));
    // The owner's saved address, sent by the intruder, is not one the intruder saved.
    refused(await withdraw({ ...intruder, address: owner.address }, '100', '99'));
    // A uid in a body is not the caller.
    refused(await keyedCall(server, '/v1/waa/wallet/transform', { curr: 'USDT', currId: usdt.currencyId, type: 0, num: '10', fee: '0', practical: '10', uid: owner.uid }, intruder.token));
    expect(await footprint(owner.uid)).toEqual(ownerBefore);
    expect((await server.database.db.selectFrom('withdrawal').select('status').where('id', '=', ownerWithdrawal.id).executeTakeFirstOrThrow()).status).toBe('pending');
    expect(await server.database.db.selectFrom('saved_crypto_address').select('id').where('id', '=', ownerAddress.id).executeTakeFirst()).toBeDefined();
    expect(await books()).toEqual([]);
  });

  it('a demo session moves no real money: withdrawals, transfers, deposits and loans are refused on it', async () => {
    const who = await customer();
    const switched = await call(server, '/v1/waa/user/switch', {}, who.token);
    expect(switched.code, switched.msg).toBe(0);
    const demo = (switched.data as { token: string }).token;
    const before = await footprint(who.uid);
    refused(await withdraw(who, '100', '99', demo));
    refused(await transform(who, {}, demo));
    refused(await transform(who, { type: 1 }, demo));
    refused(await deposit(who, '100', demo));
    refused(await loan(who, 1000, 7, (await customer('0')).uid, demo));
    expect(await footprint(who.uid)).toEqual(before);
    expect(await books()).toEqual([]);
  });

  it('spends one balance once: a withdrawal and transfers of the same money at once leave the wallet at zero at least', async () => {
    const who = await customer('500');
    const answers = await Promise.all([
      withdraw(who, '400', '399'),
      transform(who, { num: '400', practical: '400' }),
      transform(who, { num: '400', practical: '400' }),
    ]);
    expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    const wallet = (await ledger.walletBalances(who.uid)).get('USDT') ?? 0n;
    expect(wallet).toBeGreaterThanOrEqual(0n);
    expect(formatMoney(wallet)).toBe('100.00');
    expect(await books()).toEqual([]);
  });
});
