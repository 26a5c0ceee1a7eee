import { vi } from 'vitest';
import type { EngineBatch, EngineEventMap } from '../../../src/shared/protocol/engine';
import { memoryStore } from '../../../src/worker/engine/ports';
import { createEngineHost, type EngineHostOptions, type PeerChannel } from '../../../src/worker/hub/engine-host';
import type { FakeClock } from './fake-clock';
import { fakeMarket, fakeSessionApi, type FakeMarket } from './fake-ports';

/** An engine host on the test's clock, with fakes for every edge the test does not give. */
export function createTestHost(options: {
  time: FakeClock;
  store?: EngineHostOptions['store'];
  kind?: EngineHostOptions['kind'];
  peers?: PeerChannel | null;
  market?: FakeMarket;
  fetchHistory?: EngineHostOptions['fetchHistory'];
  fetchHistoryRange?: EngineHostOptions['fetchHistoryRange'];
  sessionApi?: ReturnType<typeof fakeSessionApi>['api'];
  connectPositions?: EngineHostOptions['connectPositions'];
  fetchRunningOptions?: EngineHostOptions['fetchRunningOptions'];
}) {
  const sessionApi = options.sessionApi ?? fakeSessionApi().api;
  return createEngineHost({
    kind: options.kind ?? 'shared',
    clock: options.time.clock,
    timers: options.time.timers,
    store: options.store ?? memoryStore(),
    peers: options.peers ?? null,
    connectMarket: (options.market ?? fakeMarket()).connect,
    fetchHistory: options.fetchHistory ?? (async () => []),
    fetchHistoryRange: options.fetchHistoryRange,
    sessionApi: () => sessionApi,
    connectPositions: options.connectPositions,
    fetchRunningOptions: options.fetchRunningOptions,
    // No jitter: each reconnection waits exactly 500 ms × the attempt (up to the cap).
    random: () => 0.5,
  });
}

/** A tab's listener that keeps every batch the engine pushes to it. */
export function fakeTab() {
  const batches: EngineBatch[] = [];
  const listener = vi.fn((batch: EngineBatch) => void batches.push(batch));
  /** The payloads of one event type, oldest first. */
  const events = <Type extends keyof EngineEventMap>(type: Type): EngineEventMap[Type][] =>
    batches.flatMap((batch) => batch.events.flatMap((event) => (event.type === type ? [event.payload as EngineEventMap[Type]] : [])));
  return { listener, batches, events, sessions: () => events('session') };
}

export type FakeTab = ReturnType<typeof fakeTab>;
