import type { EngineApi, EngineKind, EngineListener, EngineWelcome, MarketSettings, SessionSettings } from '../../shared/protocol/engine';

/**
 * A tab's first hello that gets no answer in this long means the shared worker will not
 * answer: long enough for its script to arrive over a slow phone network.
 */
export const engineHelloTimeoutMs = 10_000;
/** Heartbeats unanswered in a row, each for a whole interval, before the engine counts as dead. */
export const engineHeartbeatsMissedMax = 2;

/** The API as a tab calls it: every call a promise (Comlink's remote, or a plain object in tests). */
export type EngineCalls = { [K in keyof EngineApi]: (...args: Parameters<EngineApi[K]>) => Promise<Awaited<ReturnType<EngineApi[K]>>> };

/** One engine a tab can talk to: its calls, and how it says it failed (a worker's error event). */
export interface EngineEndpoint {
  calls: EngineCalls;
  onFailure(handler: () => void): void;
  close(): void;
}

export interface EngineLinkTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The tab's link to its engine: the shared worker when it answers, else the dedicated-worker
 * fallback. The shared worker may not answer the first hello (a browser that refuses it
 * without throwing), or die later (its error event, heartbeats that get no answer): the tab
 * then starts its own dedicated worker and tells it again what the tab had told the last
 * engine (the brand's market and session settings, then `onReplaced`: what it shows).
 * `calls` stays the same object across the change, so the views never hold a dead engine.
 */
export function createEngineLink(options: {
  /** Opens an engine of that kind; null when the browser has none (no SharedWorker). */
  open: (kind: EngineKind) => EngineEndpoint | null;
  clientId: string;
  listener: EngineListener;
  /** Makes a listener callable from the worker (Comlink.proxy in the app). */
  exposeListener?: (listener: EngineListener) => EngineListener;
  timers: EngineLinkTimers;
  helloTimeoutMs?: number;
  /** Every hello's answer, the first and after a change of engine. */
  onWelcome: (welcome: EngineWelcome) => void;
  /** A new engine answered: what the tab shows is sent to it again. */
  onReplaced: () => void;
  log?: (message: string) => void;
}) {
  const helloTimeoutMs = options.helloTimeoutMs ?? engineHelloTimeoutMs;
  let endpoint: EngineEndpoint | null = null;
  let kind: EngineKind = 'shared';
  let replacing: Promise<void> | null = null;
  let missedHeartbeats = 0;
  /** What the tab configured, told again to a replacement engine. */
  let marketSettings: MarketSettings | null = null;
  let sessionSettings: SessionSettings | null = null;

  function current(): EngineCalls {
    if (!endpoint) throw new Error('the engine link has not started');
    return endpoint.calls;
  }

  /** Resolves with the answer, or null when it took longer than `ms`. */
  function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
    return new Promise((resolve, reject) => {
      const timer = options.timers.setTimeout(() => resolve(null), ms);
      promise.then(
        (value) => {
          options.timers.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          options.timers.clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  function attach(next: EngineEndpoint, nextKind: EngineKind) {
    endpoint = next;
    kind = nextKind;
    missedHeartbeats = 0;
    next.onFailure(() => {
      if (endpoint !== next) return;
      options.log?.(`engine: the ${nextKind} worker failed; starting a dedicated one`);
      void replace();
    });
  }

  function openDedicated(): EngineEndpoint {
    const dedicated = options.open('dedicated');
    if (!dedicated) throw new Error('no dedicated worker');
    return dedicated;
  }

  async function hello(timeoutMs: number | null): Promise<EngineWelcome | null> {
    // Only the engine of the moment is heard: one given up on (a late answer, a worker that
    // comes back) must not mix its batches into the new engine's.
    const heard = endpoint;
    const listener: EngineListener = (batch) => (endpoint === heard ? options.listener(batch) : undefined);
    const asked = current().hello(options.clientId, options.exposeListener ? options.exposeListener(listener) : listener);
    const welcome = timeoutMs === null ? await asked : await within(asked, timeoutMs);
    if (welcome) options.onWelcome(welcome);
    return welcome;
  }

  /** The engine is gone or silent: a dedicated worker of this tab's own takes over. */
  function replace(): Promise<void> {
    replacing ??= (async () => {
      endpoint?.close();
      attach(openDedicated(), 'dedicated');
      await hello(null);
      if (sessionSettings) await current().configureSession(sessionSettings);
      if (marketSettings) await current().configureMarket(marketSettings);
      options.onReplaced();
    })().finally(() => {
      replacing = null;
    });
    return replacing;
  }

  /** Forwards every call to the engine of the moment, keeping the settings a replacement needs. */
  const calls = new Proxy({} as EngineCalls, {
    get(_target, key: string | symbol) {
      if (key === 'configureMarket')
        return (settings: MarketSettings) => {
          marketSettings = settings;
          return current().configureMarket(settings);
        };
      if (key === 'configureSession')
        return (settings: SessionSettings) => {
          sessionSettings = settings;
          return current().configureSession(settings);
        };
      return (current() as unknown as Record<string | symbol, unknown>)[key];
    },
  });

  return {
    calls,
    get kind(): EngineKind {
      return kind;
    },
    /** The first hello: the shared worker's answer, or the dedicated worker's when it has none in time. */
    async start(): Promise<EngineWelcome> {
      const shared = options.open('shared');
      if (shared) {
        attach(shared, 'shared');
        const welcome = await hello(helloTimeoutMs).catch(() => null);
        if (welcome) return welcome;
        options.log?.('engine: the shared worker did not answer; starting a dedicated one');
        shared.close();
      }
      attach(openDedicated(), 'dedicated');
      const welcome = await hello(null);
      if (!welcome) throw new Error('the dedicated worker did not answer');
      return welcome;
    },
    /**
     * One heartbeat, answered within `timeoutMs` (the heartbeat interval): false from the
     * engine means it had evicted this tab (say hello again, `onReplaced` too); several
     * unanswered in a row mean it is dead, and a dedicated worker takes over.
     */
    async heartbeat(timeoutMs: number): Promise<void> {
      if (replacing) return;
      const known = await within(current().heartbeat(options.clientId), timeoutMs).catch(() => null);
      if (known === null) {
        missedHeartbeats += 1;
        if (missedHeartbeats >= engineHeartbeatsMissedMax) {
          options.log?.(`engine: ${missedHeartbeats} heartbeats unanswered; starting a dedicated worker`);
          await replace();
        }
        return;
      }
      missedHeartbeats = 0;
      if (!known) {
        await hello(null);
        options.onReplaced();
      }
    },
  };
}

export type EngineLink = ReturnType<typeof createEngineLink>;
