import { batch, signal, type Signal } from '@preact/signals-react';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import {
  initialMarketSnapshot,
  signedOutSession,
  type MarketSnapshot,
  type PriceRow,
  type EngineBatch,
  type EngineKind,
  type SessionSnapshot,
} from '../../shared/protocol/engine';

/** Live state pushed by the data engine; each view reads only the signals it shows. */
export const sessionSignal = signal<SessionSnapshot>(signedOutSession, { name: 'session' });
export const engineKindSignal = signal<EngineKind | null>(null, { name: 'engineKind' });
export const marketSignal = signal<MarketSnapshot>(initialMarketSnapshot, { name: 'market' });

/** The forming bar of each watched (symbol, period), for the chart to draw once per frame. */
const barSignals = new Map<string, Signal<WireBar | null>>();

export function barSignal(symbol: string, period: KlinePeriod): Signal<WireBar | null> {
  const key = `${symbol}|${period}`;
  let existing = barSignals.get(key);
  if (!existing) {
    existing = signal<WireBar | null>(null, { name: `bar:${key}` });
    barSignals.set(key, existing);
  }
  return existing;
}

/** One signal per symbol, so that a price cell re-renders alone when its row changes. */
const priceSignals = new Map<string, Signal<PriceRow | null>>();

export function priceSignal(symbol: string): Signal<PriceRow | null> {
  let existing = priceSignals.get(symbol);
  if (!existing) {
    existing = signal<PriceRow | null>(null, { name: `price:${symbol}` });
    priceSignals.set(symbol, existing);
  }
  return existing;
}

let lastSeq = 0;

/** Applies one batch in one commit; a batch older than the last applied one is dropped. */
export function applyEngineBatch(engineBatch: EngineBatch) {
  if (engineBatch.seq <= lastSeq) return;
  lastSeq = engineBatch.seq;
  batch(() => {
    for (const event of engineBatch.events) {
      switch (event.type) {
        case 'session':
          if (event.payload.version >= sessionSignal.peek().version) sessionSignal.value = event.payload;
          break;
        case 'market':
          marketSignal.value = event.payload;
          break;
        case 'prices':
          for (const row of event.payload) priceSignal(row[0]).value = row;
          break;
        case 'kline':
          barSignal(event.payload.symbol, event.payload.period).value = event.payload.bar;
          break;
      }
    }
  });
}

/** A new hello (after eviction) restarts the engine's numbering for this tab. */
export function resetBatchSequence() {
  lastSeq = 0;
}
