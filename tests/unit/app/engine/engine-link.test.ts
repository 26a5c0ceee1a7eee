import { describe, expect, it } from 'vitest';
import { initialMarketSnapshot, signedOutSession, type EngineKind, type EngineListener, type EngineWelcome } from '../../../../src/shared/protocol/engine';
import { createEngineLink, engineHelloTimeoutMs, type EngineCalls, type EngineEndpoint } from '../../../../src/app/engine/engine-link';
import { createFakeClock, settle } from '../../support/fake-clock';

const welcomeOf = (kind: EngineKind): EngineWelcome => ({ kind, session: signedOutSession, market: initialMarketSnapshot, heartbeatIntervalMs: 10_000 });

/** An engine the test plays: answers hello and heartbeats unless told to be silent, and records the calls it got. */
function fakeEngine(kind: EngineKind) {
  const said: string[] = [];
  let silent = false;
  let known = true;
  const failures: (() => void)[] = [];
  const never = new Promise<never>(() => undefined);
  const listeners: EngineListener[] = [];
  const calls = {
    hello: async (_id: string, listener: EngineListener) => {
      listeners.push(listener);
      said.push('hello');
      if (silent) return never;
      return welcomeOf(kind);
    },
    heartbeat: async () => {
      said.push('heartbeat');
      if (silent) return never;
      return known;
    },
    configureMarket: async () => {
      said.push('configureMarket');
      return initialMarketSnapshot;
    },
    configureSession: async () => void said.push('configureSession'),
    watchPrices: async (_id: string, symbols: string[]) => void said.push(`watchPrices ${symbols.join(',')}`),
  } as unknown as EngineCalls;
  const endpoint: EngineEndpoint = { calls, onFailure: (handler) => void failures.push(handler), close: () => void said.push('closed') };
  return {
    endpoint,
    said,
    /** A batch pushed to every listener this engine was given. */
    push: (seq: number) => listeners.forEach((listener) => listener({ seq, events: [] })),
    silence: () => void (silent = true),
    forgetTab: () => void (known = false),
    fail: () => failures.forEach((handler) => handler()),
  };
}

function setup(options: { sharedAvailable?: boolean } = {}) {
  const time = createFakeClock();
  const shared = fakeEngine('shared');
  const dedicated: ReturnType<typeof fakeEngine>[] = [];
  const welcomes: EngineKind[] = [];
  const heard: number[] = [];
  let replaced = 0;
  const link = createEngineLink({
    open: (kind) => {
      if (kind === 'shared') return options.sharedAvailable === false ? null : shared.endpoint;
      const next = fakeEngine('dedicated');
      dedicated.push(next);
      return next.endpoint;
    },
    clientId: 'tab',
    listener: (batch) => void heard.push(batch.seq),
    timers: time.timers,
    onWelcome: (welcome) => void welcomes.push(welcome.kind),
    onReplaced: () => {
      replaced += 1;
      void link.calls.watchPrices('tab', ['BTCUSDT']);
    },
  });
  return { time, link, shared, dedicated, welcomes, heard, replaced: () => replaced };
}

describe('the tab’s link to its engine', () => {
  it('uses the shared worker when it answers the first hello', async () => {
    const { link, dedicated, welcomes } = setup();
    expect((await link.start()).kind).toBe('shared');
    expect(link.kind).toBe('shared');
    expect(dedicated).toHaveLength(0);
    expect(welcomes).toEqual(['shared']);
  });

  it('starts a dedicated worker when the shared one does not answer the first hello in time', async () => {
    const { time, link, shared, dedicated } = setup();
    shared.silence();
    const started = link.start();
    await settle();
    time.advance(engineHelloTimeoutMs - 1);
    await settle();
    expect(dedicated).toHaveLength(0);
    time.advance(1);
    await settle();
    expect((await started).kind).toBe('dedicated');
    expect(shared.said).toContain('closed');
    expect(link.kind).toBe('dedicated');
  });

  it('hears only the engine of the moment: a shared worker given up on that pushes after all is not mixed in', async () => {
    const { time, link, shared, dedicated, heard } = setup();
    shared.silence();
    const started = link.start();
    await settle();
    time.advance(engineHelloTimeoutMs);
    await started;
    shared.push(1);
    dedicated[0]?.push(2);
    expect(heard).toEqual([2]);
  });

  it('starts a dedicated worker where there is no shared one', async () => {
    const { link } = setup({ sharedAvailable: false });
    expect((await link.start()).kind).toBe('dedicated');
  });

  it('moves to a dedicated worker when the shared one dies later, telling it the settings and what the tab shows', async () => {
    const { link, shared, dedicated, replaced } = setup();
    await link.start();
    await link.calls.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    await link.calls.configureMarket({ socketUrl: 'ws://x/market/stomp', marketRoot: '', batchWindowMs: 100 });
    shared.fail();
    await settle();
    expect(link.kind).toBe('dedicated');
    expect(dedicated[0]?.said).toEqual(['hello', 'configureSession', 'configureMarket', 'watchPrices BTCUSDT']);
    expect(replaced()).toBe(1);
    // The views' handle is the same and now reaches the new engine.
    await link.calls.watchPrices('tab', ['ETHUSDT']);
    expect(dedicated[0]?.said.at(-1)).toBe('watchPrices ETHUSDT');
    expect(shared.said.filter((call) => call.startsWith('watchPrices'))).toEqual([]);
  });

  it('moves to a dedicated worker after two heartbeats in a row get no answer, not after one', async () => {
    const { time, link, shared, dedicated } = setup();
    await link.start();
    shared.silence();
    const first = link.heartbeat(10_000);
    time.advance(10_000);
    await first;
    expect(dedicated).toHaveLength(0);
    const second = link.heartbeat(10_000);
    time.advance(10_000);
    await second;
    expect(link.kind).toBe('dedicated');
    expect(dedicated[0]?.said[0]).toBe('hello');
  });

  it('says hello again to an engine that had forgotten the tab, and sends what it shows', async () => {
    const { link, shared, dedicated, replaced } = setup();
    await link.start();
    shared.forgetTab();
    await link.heartbeat(10_000);
    expect(shared.said.filter((call) => call === 'hello')).toHaveLength(2);
    expect(replaced()).toBe(1);
    expect(dedicated).toHaveLength(0);
  });
});
