import * as Comlink from 'comlink';
import type { EngineApi, EngineWelcome } from '../../shared/protocol/engine';
import { applyEngineBatch, engineKindSignal, marketSignal, resetBatchSequence, sessionSignal } from './signals';
import { createWatchRegistry, type WatchRegistry } from './watch-registry';

export type EngineRemote = Comlink.Remote<EngineApi>;

function createWorkerEndpoint(): Comlink.Endpoint {
  if (typeof SharedWorker !== 'undefined') {
    try {
      const worker = new SharedWorker(new URL('../../worker/hub/shared-worker.ts', import.meta.url), {
        type: 'module',
        name: 'tradeweb-engine',
      });
      worker.port.start();
      return worker.port;
    } catch {
      // Some browsers expose SharedWorker but refuse module workers; use the fallback.
    }
  }
  const worker = new Worker(new URL('../../worker/hub/dedicated-worker.ts', import.meta.url), {
    type: 'module',
    name: 'tradeweb-engine',
  });
  return worker;
}

function newClientId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Connects this tab to the data engine: the ready handshake, the heartbeat that keeps
 * the tab registered, and a goodbye when the page goes away.
 */
export async function connectEngine(): Promise<{ remote: EngineRemote; welcome: EngineWelcome; watches: WatchRegistry }> {
  const remote = Comlink.wrap<EngineApi>(createWorkerEndpoint());
  const clientId = newClientId();
  const listener = Comlink.proxy(applyEngineBatch);

  async function hello(): Promise<EngineWelcome> {
    resetBatchSequence();
    const welcome = await remote.hello(clientId, listener);
    engineKindSignal.value = welcome.kind;
    marketSignal.value = welcome.market;
    if (welcome.session.version >= sessionSignal.peek().version) sessionSignal.value = welcome.session;
    return welcome;
  }

  // What this tab shows, sent as one set; re-sent after a new hello (eviction, bfcache).
  const watches = createWatchRegistry((symbols) => void remote.watchPrices(clientId, symbols));
  const welcome = await hello();

  const heartbeat = setInterval(() => {
    remote
      .heartbeat(clientId)
      .then((known) => (known ? undefined : hello().then(() => watches.resend())))
      .catch(() => undefined);
  }, welcome.heartbeatIntervalMs);

  window.addEventListener('pagehide', (event) => {
    // A page kept in the back/forward cache comes back; it says hello again on pageshow.
    void remote.goodbye(clientId);
    if (!event.persisted) {
      clearInterval(heartbeat);
      remote[Comlink.releaseProxy]();
    }
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void hello().then(() => watches.resend());
  });

  return { remote, welcome, watches };
}
