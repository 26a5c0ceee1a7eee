import crypto from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { expect } from 'vitest';
import type { Ledger } from '../../../server/modules/ledger/ledger';
import { encodeField } from '../../../src/shared/money/encoded-field';
import { money } from '../../../src/shared/money/money';
import { readAccessToken } from '../../../src/shared/session/token';
import { post, type TestServer } from '../harness';
import { call } from '../identity-support';
import { decided, newCustomer } from '../reviews-support';

/**
 * Set-up for the money controls of issue 31: customers meet them as a real customer would
 * (verified through compliance's queue, an address saved through the API and checked on
 * its network), never by writing their rows.
 */

const base58check = createBase58check(sha256);

/** Every answer's envelope. */
export interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

/** A coin network as `wallet/coinNetworks` lists it. */
export interface CoinNetwork {
  id: number;
  currencyId: number;
  currency: string;
  protocol: string;
  said: string;
}

/** A signed-in customer with the session's `aesKey` (addresses and card fields go encoded under it). */
export type MoneyCustomer = Awaited<ReturnType<typeof newCustomer>> & { aesKey: string };

export async function moneyCustomer(server: TestServer, prefix = 'money'): Promise<MoneyCustomer> {
  const session = await newCustomer(server, prefix);
  return { ...session, aesKey: readAccessToken(session.token)!.aesKey };
}

/** The coin networks the customer is offered. */
export async function coinNetworks(server: TestServer, token: string): Promise<CoinNetwork[]> {
  const answer = await call(server, '/v1/waa/wallet/coinNetworks', {}, token);
  expect(answer.code, answer.msg).toBe(0);
  return (answer.data as { dtoList: CoinNetwork[] }).dtoList;
}

/** The seeded USDT network on Tron (TRC-20), where the money tests deposit and withdraw. */
export async function usdtTrc20Of(server: TestServer, token: string): Promise<CoinNetwork> {
  const network = (await coinNetworks(server, token)).find((each) => each.currency === 'USDT' && each.protocol === 'TRC20');
  expect(network, 'the seeded USDT TRC20 network').toBeDefined();
  return network!;
}

/** A money call with an Idempotency-Key (a fresh one unless given; null sends none): the envelope and the HTTP status. */
export async function keyedCall(server: TestServer, path: string, body: unknown, token: string, key: string | null = crypto.randomUUID()): Promise<Envelope & { status: number }> {
  const response = await post(server.app, path, body, { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) });
  return { status: response.statusCode, ...(response.json() as Envelope) };
}

/** Credits a customer's wallet through the ledger's deposit verb, as an approved deposit would (the subject of these tests is what comes after). */
export function creditWallet(server: TestServer, ledger: Ledger, uid: number, amount: string, currency = 'USDT') {
  return server.database.db.transaction().execute((trx) => ledger.creditWalletDeposit(trx, { uid, currency, amount: money(amount), key: `test-wallet-deposit:${crypto.randomUUID()}` }));
}

/** A fresh Tron (TRC-20) address: 0x41 and 20 random bytes, base58check-encoded (its checksum holds). */
export function tronAddress(): string {
  return base58check.encode(Uint8Array.from([0x41, ...crypto.randomBytes(20)]));
}

/** A customer's junior verification, submitted by them and approved by a compliance member. */
export async function verifyJunior(server: TestServer, customer: { uid: number; token: string }, complianceToken: string) {
  const response = await post(
    server.app,
    '/v1/waa/user/firstAuth/submit',
    { locale: 'en', realName: 'Mina Park', idCard: `J-${crypto.randomInt(10_000_000, 99_999_999)}-${customer.uid}` },
    { authorization: `Bearer ${customer.token}`, 'idempotency-key': crypto.randomUUID() },
  );
  const answer = (await response.json()) as { code: number; msg: string };
  expect(answer.code, answer.msg).toBe(0);
  const item = await server.database.db
    .selectFrom('review_item')
    .select('id')
    .where('kind', '=', 'juniorIdentity')
    .where('uid', '=', customer.uid)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  await decided(server, complianceToken, { kind: 'juniorIdentity', id: item.id, decision: 'approve' }, 'approved');
}

/** Saves an address for a coin network through `wallet/crypto/insert`; answers the envelope. */
export async function saveAddress(
  server: TestServer,
  customer: { token: string; aesKey: string },
  coinNetworkId: number,
  address: string,
  extra: { totpCode?: string } = {},
): Promise<{ code: number; msg: string; data: unknown }> {
  const response = await post(
    server.app,
    '/v1/waa/wallet/crypto/insert',
    { currencyId: coinNetworkId, cryptocurrencyAddress: encodeField(address, customer.aesKey), ...extra },
    { authorization: `Bearer ${customer.token}`, 'idempotency-key': crypto.randomUUID() },
  );
  return (await response.json()) as { code: number; msg: string; data: unknown };
}
