import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, ProductOrderInfo } from '../../src/shared/api/market';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { fundedTrader } from './funding-support';

const now = Date.parse('2026-01-13T12:00:00Z');

describe.each(testBackends())('signed-in product calls on $name', (backend) => {
  let server: TestServer;
  let token: string;
  const script = scriptedSource();
  beforeAll(async () => {
    server = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => now });
    token = (await fundedTrader(server, '0')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the search list: the tradable products, in list order', async () => {
    const answer = await call(server, '/v1/waa/product/searchList', {}, token);
    expect(answer.code).toBe(0);
    const list = (answer.data as { forexProductList: Product[] }).forexProductList;
    const all = ((await call(server, '/v1/wa-na/forex/product/list')).data as { list: Product[] }).list;
    expect(list.map((product) => product.productCode)).toEqual(all.filter((product) => product.tradeStatus === 1).map((product) => product.productCode));
    expect(list.find((product) => product.productCode === 'BTCUSDT')).toMatchObject({ productName: expect.any(String), tradeStatus: 1 });
  });

  it('answers one product\'s trading info: volume bounds and step, leverage choices, fee and overnight rates, contract size', async () => {
    const answer = await call(server, '/v1/waa/product/orderInfo', { productCode: ' BTCUSDT ' }, token);
    expect(answer.code).toBe(0);
    expect(answer.data).toMatchObject({ productCode: 'BTCUSDT', tradeStatus: 1, pricePrecision: 2, multiple: 20, leverages: [1, 2, 5, 10, 20], contractSize: '1' });
    const info = answer.data as ProductOrderInfo;
    for (const field of ['pip', 'minCount', 'maxCount', 'feeRate', 'overnightRate', 'spread'] as const) expect(info[field], field).toMatch(/^\d+(\.\d+)?$/);
    expect(info.marketStartTime).toHaveLength(7);
  });

  it('answers every product\'s trading info keyed by product code, the same as one by one', async () => {
    const answer = await call(server, '/v1/waa/product/orderInfoAll', {}, token);
    expect(answer.code).toBe(0);
    const byCode = answer.data as Record<string, ProductOrderInfo>;
    const all = ((await call(server, '/v1/wa-na/forex/product/list')).data as { list: Product[] }).list;
    expect(Object.keys(byCode).sort()).toEqual(all.map((product) => product.productCode).sort());
    expect(byCode.EURUSD).toEqual((await call(server, '/v1/waa/product/orderInfo', { productCode: 'EURUSD' }, token)).data);
  });

  it('refuses an unknown product (303) and a bad body (1001), and answers 401 when signed out', async () => {
    expect((await call(server, '/v1/waa/product/orderInfo', { productCode: 'NOPE' }, token)).code).toBe(303);
    expect((await call(server, '/v1/waa/product/orderInfo', {}, token)).code).toBe(1001);
    expect((await call(server, '/v1/waa/product/orderInfo', { productCode: 'BTCUSDT', extra: 1 }, token)).code).toBe(1001);
    for (const path of ['/v1/waa/product/searchList', '/v1/waa/product/orderInfoAll', '/v1/waa/product/orderInfo']) {
      expect((await call(server, path, { productCode: 'BTCUSDT' })).status, path).toBe(401);
    }
  });
});
