import type { MarketConnectionFactory } from '../../../src/worker/engine/market-feed';
import { noPrices, type PriceSelection } from '../../../src/worker/engine/price-subscriptions';
import type { PositionsConnector } from '../../../src/worker/engine/positions-channel';
import type { SessionApi } from '../../../src/worker/engine/session-clock';

/** A market socket the test drives: it hands over prices and connection states. */
export function fakeMarket() {
  const handlers: Partial<Parameters<MarketConnectionFactory>[0]> = {};
  const urls: string[] = [];
  /** The kline topics the engine follows now, as `symbol|period`. */
  const klineTopics = new Set<string>();
  /** Every price selection the engine asked the socket to follow, in order. */
  const selections: PriceSelection[] = [];
  /** How many times the engine asked a waiting socket to try now. */
  let retriesNow = 0;
  const connect = (url: string): MarketConnectionFactory => (given) => {
    urls.push(url);
    Object.assign(handlers, given);
    return {
      start: () => given.onState({ status: 'connecting', failedAttempts: 0, connectionFailed: false, retryAtMs: null }),
      restart: () => undefined,
      tryNowIfWaiting: () => void (retriesNow += 1),
      stop: async () => undefined,
      watchKline: (symbol, period) => void klineTopics.add(`${symbol}|${period}`),
      unwatchKline: (symbol, period) => void klineTopics.delete(`${symbol}|${period}`),
      followPrices: (selection) => void selections.push(selection),
    };
  };
  return {
    connect,
    handlers,
    urls,
    klineTopics,
    selections,
    get retriesNow() {
      return retriesNow;
    },
    /** What the socket follows now. */
    get following(): PriceSelection {
      return selections.at(-1) ?? noPrices;
    },
  };
}

export type FakeMarket = ReturnType<typeof fakeMarket>;

type RefreshAnswer = Awaited<ReturnType<SessionApi['refresh']>>;

/**
 * The session calls of the server: `checkToken` answers `check` (changed with
 * `answerChecksWith`), each refresh the next of `refresh`, then unreachable.
 */
export function fakeSessionApi(options: { check?: 'valid' | 'invalid' | 'unreachable'; refresh?: RefreshAnswer[] } = {}) {
  let verdict = options.check ?? 'valid';
  const checks: string[] = [];
  const refreshes: string[] = [];
  const answers = [...(options.refresh ?? [])];
  const api: SessionApi = {
    checkToken: async (token) => {
      checks.push(token);
      return verdict;
    },
    refresh: async (tokens) => {
      refreshes.push(tokens.refreshToken);
      return answers.shift() ?? { kind: 'unreachable' };
    },
  };
  return {
    api,
    checks,
    refreshes,
    answerChecksWith(next: typeof verdict) {
      verdict = next;
    },
  };
}

/** The `/exchange/ws` sockets the engine opens: their URLs, their handlers, and whether the engine closed them. */
export function fakePositionsServer() {
  const opened: string[] = [];
  const live: { handlers: Parameters<PositionsConnector>[1]; closed: boolean; said: string[] }[] = [];
  const connect: PositionsConnector = (url, handlers) => {
    opened.push(url);
    const entry = { handlers, closed: false, said: [] as string[] };
    live.push(entry);
    return { close: () => void (entry.closed = true), send: (text) => void entry.said.push(text) };
  };
  return { connect, opened, live };
}
