import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchMarketHistory, fetchMarketHistoryRange } from '../../../../src/worker/transport/market-history';

const bar = { time: Date.UTC(2026, 11, 4, 9, 0), openPrice: '1.08400', highestPrice: '1.08450', lowestPrice: '1.08390', closePrice: '1.08420', volume: '12', turnover: '13' };

/** The worker's fetch answering one way, with the requests it was asked. */
function answer(reply: () => Promise<Response>) {
  const asked: { url: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    asked.push({ url, body: JSON.parse(String(init.body)) });
    return reply();
  });
  return asked;
}

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the kline history requests', () => {
  it('answer the bars of a successful answer, asking 300 bars of the period', async () => {
    const asked = answer(async () => json({ code: 0, msg: 'ok', data: [bar] }));
    expect(await fetchMarketHistory('https://md.example', 'EURUSD', '1min')).toEqual([bar]);
    expect(asked).toEqual([{ url: 'https://md.example/market/history', body: { symbol: 'EURUSD', period: '1min', limit: 300 } }]);
  });

  it('swallow every failure and answer no bars, so the chart stays empty (a code, an error page, no network)', async () => {
    const failures: (() => Promise<Response>)[] = [
      async () => json({ code: 1000, msg: 'unknown error', data: null }),
      async () => json({ code: 0, msg: 'ok', data: [{ time: 'not a bar' }] }),
      async () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      async () => {
        throw new TypeError('Failed to fetch');
      },
    ];
    for (const failure of failures) {
      answer(failure);
      await expect(fetchMarketHistory('', 'EURUSD', '5min')).resolves.toEqual([]);
      await expect(fetchMarketHistoryRange('', 'EURUSD', '1min', 0, 60_000)).resolves.toEqual([]);
    }
  });
});
