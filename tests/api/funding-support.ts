import crypto from 'node:crypto';
import { expect } from 'vitest';
import { formatMoney, money } from '../../src/shared/money/money';
import { minimumDepositUsd } from '../../src/shared/money/deposit-rules';
import { post, type TestServer } from './harness';
import { call, loginByEmail, registerByEmail } from './identity-support';
import { createStaffAndSignIn } from './support/staff';
import { multipartBody, multipartCall, pngImage } from './uploads-support';

type Server = Pick<TestServer, 'app' | 'delivery' | 'nowMs'>;

/** The language the funding deposits are submitted in: its minimum deposit (30 USD) is the lowest. */
const depositLocale = 'de';
/** The largest single deposit of an unverified customer (the seeded `withdrawal_limit` row of level `none`): larger funding goes in several deposits. */
const unverifiedDepositCapUsd = money('10000');

/**
 * Two finance staff members per test server approve the funding deposits (signing in once
 * keeps helpers fast): the second only where four-eyes asks it (FOUR_EYES_USD or more in 24 hours).
 */
const financeByServer = new WeakMap<Server['app'], Promise<[{ token: string }, { token: string }]>>();

function financeOf(server: Server) {
  let finance = financeByServer.get(server.app);
  if (!finance) {
    finance = Promise.all([createStaffAndSignIn(server, { roles: ['finance'], nowMs: server.nowMs }), createStaffAndSignIn(server, { roles: ['finance'], nowMs: server.nowMs })]);
    financeByServer.set(server.app, finance);
  }
  return finance;
}

async function usdtTrc20(server: Server, token: string) {
  const answer = await call(server as TestServer, '/v1/waa/wallet/coinNetworks', {}, token);
  expect(answer.code, answer.msg).toBe(0);
  const coin = (answer.data as { dtoList: { id: number; currencyId: number; currency: string; protocol: string; said: string }[] }).dtoList.find(
    (item) => item.currency === 'USDT' && item.protocol === 'TRC20',
  );
  expect(coin, 'the seeded USDT TRC20 network').toBeDefined();
  return coin!;
}

/** One deposit of `deposit` USDT, approved by finance (two members where four-eyes asks). */
async function depositApproved(server: Server, customer: { uid: number; token: string }, coin: Awaited<ReturnType<typeof usdtTrc20>>, deposit: string) {
  const body = multipartBody({ metaData: JSON.stringify({ coinId: coin.id, said: coin.said, locale: depositLocale, amt: deposit }) }, [
    { field: 'depositProof', filename: 'transfer.png', bytes: await pngImage(16, 16), type: 'image/png' },
  ]);
  const submitted = await multipartCall(server, '/v1/waa/deposit/submit', body, customer.token, crypto.randomUUID());
  expect(submitted.code, submitted.msg).toBe(0);
  const [finance, secondFinance] = await financeOf(server);
  const queue = await call(server as TestServer, '/v1/staff/reviews/list', { kind: 'deposit', status: 'pending', page: 1, limit: 50 }, finance.token);
  expect(queue.code, queue.msg).toBe(0);
  const item = (queue.data as { list: { id: number; uid: number }[] }).list.find((entry) => entry.uid === customer.uid);
  expect(item, 'the funding deposit waits in the finance queue').toBeDefined();
  const approved = await call(server as TestServer, '/v1/staff/reviews/decide', { kind: 'deposit', id: item!.id, decision: 'approve', requestId: crypto.randomUUID() }, finance.token);
  expect(approved.code, approved.msg).toBe(0);
  if ((approved.data as { status: string }).status === 'awaiting_second') {
    const second = await call(server as TestServer, '/v1/staff/reviews/decide', { kind: 'deposit', id: item!.id, decision: 'approve', requestId: crypto.randomUUID() }, secondFinance.token);
    expect(second.data, second.msg).toEqual({ status: 'approved' });
  }
}

/**
 * Funds a customer's real trading account with exactly `amount` USD the way the product does:
 * a USDT deposit with a proof image, approved by finance staff (the 'deposit' review credits
 * the USDT wallet), then a transfer of `amount` USDT from the wallet into the trading account
 * (USDT is pegged to the USD and its transfer carries no fee, which the quote confirms). A
 * deposit below the minimum is raised to it; the rest stays in the USDT wallet. More than an
 * unverified customer's largest deposit goes in as several deposits.
 */
export async function fundTradingAccount(server: Server, customer: { uid: number; token: string }, amount: string) {
  const wanted = money(amount);
  const minimum = money(minimumDepositUsd(depositLocale));
  const coin = await usdtTrc20(server, customer.token);
  for (let left = wanted > minimum ? wanted : minimum; left > 0n; ) {
    const part = left > unverifiedDepositCapUsd ? unverifiedDepositCapUsd : left;
    await depositApproved(server, customer, coin, formatMoney(part < minimum ? minimum : part));
    left -= part;
  }

  const draft = { curr: 'USDT', currId: coin.currencyId, type: 0, num: amount };
  const quote = await call(server as TestServer, '/v1/waa/wallet/transformCalculate', draft, customer.token);
  expect(quote.code, quote.msg).toBe(0);
  const { fee, practical } = quote.data as { fee: string; practical: string };
  expect(money(practical), 'USDT moves into the trading account one to one').toBe(wanted);
  const moved = await post(server.app, '/v1/waa/wallet/transform', { ...draft, fee, practical }, { authorization: `Bearer ${customer.token}`, 'idempotency-key': crypto.randomUUID() });
  const answer = moved.json() as { code: number; msg: string };
  expect(answer.code, answer.msg).toBe(0);
}

let traders = 0;

/** A signed-in user whose real trading account holds exactly `deposit` USD, funded by {@link fundTradingAccount}. */
export async function fundedTrader(server: Server, deposit = '1000', prefix = 'trader') {
  const email = `${prefix}${Date.now().toString(36)}${(traders += 1)}@example.com`;
  await registerByEmail(server as TestServer, email);
  const session = await loginByEmail(server as TestServer, email);
  const info = (await call(server as TestServer, '/v1/waa/user/info', {}, session.token)).data as { uid: number };
  if (money(deposit) > 0n) await fundTradingAccount(server, { uid: info.uid, token: session.token }, deposit);
  return { ...session, uid: info.uid, email };
}
