import crypto from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { expect } from 'vitest';
import { encodeField } from '../../../src/shared/money/encoded-field';
import { post, type TestServer } from '../harness';
import { decided } from '../reviews-support';

/**
 * Set-up for the money controls of issue 31: customers meet them as a real customer would
 * (verified through compliance's queue, an address saved through the API and checked on
 * its network), never by writing their rows.
 */

const base58check = createBase58check(sha256);

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
