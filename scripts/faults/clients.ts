// The fault suite's scripted customers and finance staff, through the public API as the app
// and the console call it. Every operation the server answered with success (code 0) is
// written down as acknowledged, so that it can be looked for in the database afterwards.
import crypto from 'node:crypto';
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import sharp from 'sharp';
import { totpCode } from '../../server/auth/totp';
import { runStaffCommand } from '../../server/tools/staff';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { encodeField } from '../../src/shared/money/encoded-field';
import { formatMoney, money } from '../../src/shared/money/money';
import { withdrawalUsdMin } from '../../src/shared/money/withdrawal-quote';
import { readAccessToken } from '../../src/shared/session/token';

interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

/** An operation the server acknowledged: what it was, and the row it names. */
export interface Acknowledged {
  kind: 'order-open' | 'order-close' | 'option' | 'deposit-approved' | 'withdrawal-approved';
  /** The order number, the option's uid, or the review item's id. */
  ref: string;
  fault: string;
}

/** What the clients did, for the report. */
export interface Tally {
  acknowledged: Acknowledged[];
  /** Answers other than success (refused, 5xx, no server) by operation and answer: allowed under a fault, never counted as lost. */
  failed: Map<string, number>;
}

const password = 'faults password 7';

/** The answer as an envelope: a body that is not one (a proxy's 502, an error page) is named by its HTTP status. */
function envelopeOf(status: number, text: string): Envelope {
  try {
    const parsed = JSON.parse(text) as Partial<Envelope>;
    if (typeof parsed.code === 'number') return { code: parsed.code, msg: String(parsed.msg ?? ''), data: parsed.data };
  } catch {
    // not JSON
  }
  return { code: -status, msg: `HTTP ${status}`, data: null };
}

export function createApi(base: string) {
  async function call(path: string, body: unknown, token?: string, idempotent = false): Promise<Envelope> {
    try {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(idempotent ? { 'idempotency-key': crypto.randomUUID() } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      return envelopeOf(response.status, await response.text());
    } catch (error) {
      return { code: -1, msg: String(error), data: null };
    }
  }
  async function upload(path: string, fields: Record<string, string>, file: { field: string; name: string; bytes: Buffer; type: string }, token: string): Promise<Envelope> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    try {
      const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() }, body: form, signal: AbortSignal.timeout(15_000) });
      return envelopeOf(response.status, await response.text());
    } catch (error) {
      return { code: -1, msg: String(error), data: null };
    }
  }
  async function outboxCode(to: string): Promise<string> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      try {
        const messages = (await (await fetch(`${base}/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { code?: string }[];
        const code = messages.filter((message) => message.code).at(-1)?.code;
        if (code) return code;
      } catch {
        // not up yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no code reached the outbox for ${to}`);
  }
  return { call, upload, outboxCode };
}

export type Api = ReturnType<typeof createApi>;

/** An operation's end: the row it made or changed, or the server's answer refusing it. */
export type Outcome = { ref: string } | { refused: Envelope };

function must(answer: Envelope, what: string): unknown {
  if (answer.code !== 0) throw new Error(`${what}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

/** A Tron address (base58check of 0x41 and 20 bytes), as a customer would paste one. */
function tronAddress(): string {
  return createBase58check(sha256).encode(Uint8Array.from([0x41, ...crypto.randomBytes(20)]));
}

/** A finance member made as an operator would (`npm run staff -- create`), signed in through the staff API: their token. */
async function financeMember(api: Api, environment: NodeJS.ProcessEnv, label: string): Promise<string> {
  const email = `finance-${label}-${Date.now().toString(36)}@faults.example`;
  const created = await runStaffCommand(['create', '--email', email, '--role', 'finance', '--document', `FAULTS-${email}`], environment);
  const secret = new URL(created.otpauthUrl).searchParams.get('secret') ?? '';
  const login = must(await api.call('/v1/staff/login', { email, password: created.oneTimePassword, code: totpCode(secret, Date.now()) }), 'staff login') as { token: string };
  must(await api.call('/v1/staff/password', { oldPassword: created.oneTimePassword, newPassword: `faults finance ${label} horse 7` }, login.token), 'staff password');
  return login.token;
}

/**
 * Finance as the money controls want it (../shared/API.md, reviews): two independent members.
 * A deposit or a withdrawal that needs two approvals (four-eyes, or the first member's solo
 * approvals over 24 hours at SOLO_APPROVALS_USD) moves to `awaiting_second` at the first
 * approval, a first signature and not the decision, and the second member approves it.
 */
export async function financeStaff(api: Api, environment: NodeJS.ProcessEnv) {
  const first = await financeMember(api, environment, 'first');
  const second = await financeMember(api, environment, 'second');
  let firstSignatures = 0;
  const decide = (token: string, kind: 'deposit' | 'withdrawal', id: number) =>
    api.call('/v1/staff/reviews/decide', { kind, id, decision: 'approve', requestId: crypto.randomUUID() }, token);
  /**
   * Approves the customer's open item of `kind` (one submitted now, or one left open by an
   * approval refused under a fault): the first member signs a pending one, the second one
   * awaiting a second approval. Answers the review item's id once the server said approved.
   */
  async function approve(kind: 'deposit' | 'withdrawal', uid: number): Promise<Outcome> {
    const queue = await api.call('/v1/staff/reviews/list', { kind, status: 'open', page: 1, limit: 50 }, first);
    if (queue.code !== 0) return { refused: queue };
    const item = (queue.data as { list: { id: number; uid: number; status: string }[] }).list.find((entry) => entry.uid === uid);
    if (!item) return { refused: { code: -2, msg: 'not in the queue', data: null } };
    let status = item.status;
    if (status === 'pending') {
      const decided = await decide(first, kind, item.id);
      if (decided.code !== 0) return { refused: decided };
      status = (decided.data as { status: string }).status;
      if (status === 'awaiting_second') firstSignatures += 1;
    }
    if (status === 'awaiting_second') {
      const decided = await decide(second, kind, item.id);
      if (decided.code !== 0) return { refused: decided };
      status = (decided.data as { status: string }).status;
    }
    return status === 'approved' ? { ref: String(item.id) } : { refused: { code: -3, msg: `answered status ${status}`, data: null } };
  }
  return { approve, firstSignatures: () => firstSignatures };
}

export type Finance = Awaited<ReturnType<typeof financeStaff>>;

/** A customer signed up by e-mail with a saved USDT (TRC20) address, funded by an approved deposit moved into trading. */
export async function customer(api: Api, finance: Finance, name: string) {
  const email = `${name}-${Date.now().toString(36)}@faults.example`;
  must(await api.call('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' }), 'sendMail');
  must(await api.call('/v1/wa-na/register', { username: email, password, type: 'E', code: await api.outboxCode(email), locale: 'en' }), 'register');
  const session = must(await api.call('/v1/wa-na/login', { username: email, password, type: 'E' }), 'login') as { token: string };
  const token = session.token;
  const aesKey = readAccessToken(token)?.aesKey ?? '';
  const uid = (must(await api.call('/v1/waa/user/info', {}, token), 'user/info') as { uid: number }).uid;
  const networks = (must(await api.call('/v1/waa/wallet/coinNetworks', {}, token), 'coinNetworks') as { dtoList: { id: number; currencyId: number; currency: string; protocol: string; said: string; minWithdrawAmount: string }[] }).dtoList;
  const coin = networks.find((network) => network.currency === 'USDT' && network.protocol === 'TRC20');
  if (!coin) throw new Error('no USDT TRC20 network');
  // The smallest withdrawal the server takes: the network's minimum, never under the specification's 50 USD (withdrawalUsdMin; USDT is pegged 1:1).
  const networkMinimum = money(coin.minWithdrawAmount);
  const smallestWithdrawal = formatMoney(networkMinimum > withdrawalUsdMin ? networkMinimum : withdrawalUsdMin);
  const address = tronAddress();
  must(await api.call('/v1/waa/wallet/crypto/insert', { currencyId: coin.id, cryptocurrencyAddress: encodeField(address, aesKey) }, token, true), 'crypto/insert');
  const products = (must(await api.call('/v1/wa-na/option/findOptionsProduct', { productCode: 'BTCUSDT' }), 'options products') as { optionsProducts: { id: number }[] }).optionsProducts;
  const proof = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer();
  let serial = 0;

  const deposit = (amount: string) =>
    api.upload('/v1/waa/deposit/submit', { metaData: JSON.stringify({ coinId: coin.id, said: coin.said, locale: 'de', amt: amount }) }, { field: 'depositProof', name: 'transfer.png', bytes: proof, type: 'image/png' }, token);

  /** A deposit submitted and approved by finance: the review item's id once approved; else the answer. */
  async function depositApproved(amount: string): Promise<Outcome> {
    const submitted = await deposit(amount);
    if (submitted.code !== 0) return { refused: submitted };
    return finance.approve('deposit', uid);
  }
  async function moveIntoTrading(amount: string) {
    const draft = { curr: 'USDT', currId: coin!.currencyId, type: 0, num: amount };
    const quote = must(await api.call('/v1/waa/wallet/transformCalculate', draft, token), 'transformCalculate') as { fee: string; practical: string };
    must(await api.call('/v1/waa/wallet/transform', { ...draft, ...quote }, token, true), 'transform');
  }
  /** A withdrawal to the saved address, approved by finance: the review item's id once approved; else the answer. */
  async function withdrawalApproved(amount: string): Promise<Outcome> {
    const quote = await api.call('/v1/waa/withdraw/walletCalculate', { currencyId: coin!.currencyId, coinId: coin!.id, num: amount }, token);
    if (quote.code !== 0) return { refused: quote };
    const submitted = await api.call(
      '/v1/waa/withdraw/submit',
      { num: amount, practicalNum: (quote.data as { practical: string }).practical, currencyId: coin!.currencyId, coinId: coin!.id, paymentAddress: encodeField(address, aesKey), locale: 'en' },
      token,
      true,
    );
    // One awaiting review already (its approval was refused under a fault): finance decides that one now.
    if (submitted.code === ErrorCode.WITHDRAWAL_UNDER_REVIEW) return finance.approve('withdrawal', uid);
    if (submitted.code !== 0) return { refused: submitted };
    return finance.approve('withdrawal', uid);
  }
  /** The order number once placed; else the answer. */
  async function openOrder(): Promise<Outcome> {
    const placed = await api.call('/exchange/addOrder', { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: `${name}-${(serial += 1)}-${crypto.randomUUID()}` }, token);
    return placed.code === 0 ? { ref: placed.data as string } : { refused: placed };
  }
  async function closeOrder(orderNo: string): Promise<Outcome> {
    const closed = await api.call('/exchange/closeOrder', { orderId: orderNo }, token);
    return closed.code === 0 ? { ref: orderNo } : { refused: closed };
  }
  async function option(): Promise<Outcome> {
    const placed = await api.call('/exchange/addOptionOrder', { tradePair: 'BTCUSDT', optionsProductId: products[0]?.id, price: '0', timeLong: 30, btime: 0, rate: '0.8', amount: '10', orderType: 0, clientOrderId: `${name}-o${(serial += 1)}-${crypto.randomUUID()}` }, token);
    return placed.code === 0 ? { ref: (placed.data as { uid: string }).uid } : { refused: placed };
  }

  return { uid, token, smallestWithdrawal, deposit, depositApproved, moveIntoTrading, withdrawalApproved, openOrder, closeOrder, option };
}

export type Customer = Awaited<ReturnType<typeof customer>>;

/**
 * One customer's loop until `stop()` says so: a market order opened and closed, an option,
 * every third round a deposit, and under each fault a withdrawal (the smallest one allowed,
 * at least 50 USDT) until one went through: the daily withdrawal limit of an unverified
 * customer (1000 USD) must last the whole run. Deposits and withdrawals are approved by
 * finance; every success is written down under the fault running at the time.
 */
export async function trade(who: Customer, tally: Tally, currentFault: () => string, stop: () => boolean) {
  const note = (kind: Acknowledged['kind'], outcome: Outcome) => {
    if ('ref' in outcome) tally.acknowledged.push({ kind, ref: outcome.ref, fault: currentFault() });
    else {
      const key = `${kind} ${outcome.refused.code} ${String(outcome.refused.msg ?? '').slice(0, 60)}`;
      tally.failed.set(key, (tally.failed.get(key) ?? 0) + 1);
    }
    return outcome;
  };
  const open: string[] = [];
  const withdrawnUnder = new Set<string>();
  for (let round = 0; !stop(); round += 1) {
    const placed = note('order-open', await who.openOrder());
    if ('ref' in placed) open.push(placed.ref);
    // Closes what is open (a close refused under a fault is tried again next round; one already closed, 410, is done).
    for (const each of [...open]) {
      const closed = note('order-close', await who.closeOrder(each));
      if ('ref' in closed || closed.refused.code === 410) open.splice(open.indexOf(each), 1);
    }
    note('option', await who.option());
    if (round % 3 === 0) {
      note('deposit-approved', await who.depositApproved('30'));
      const fault = currentFault();
      if (!withdrawnUnder.has(fault) && 'ref' in note('withdrawal-approved', await who.withdrawalApproved(who.smallestWithdrawal))) withdrawnUnder.add(fault);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
