import { batch, signal, type Signal } from '@preact/signals-react';
import type { AccountBalance } from '../../shared/api/account';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import {
  initialMarketSnapshot,
  sessionAccount,
  signedOutSession,
  type MarketSnapshot,
  type OptionsState,
  type PositionsState,
  type PriceRow,
  type EngineBatch,
  type EngineKind,
  type SessionSnapshot,
} from '../../shared/protocol/engine';

/** Live state pushed by the data engine; each view reads only the signals it shows. */
export const sessionSignal = signal<SessionSnapshot>(signedOutSession, { name: 'session' });
export const engineKindSignal = signal<EngineKind | null>(null, { name: 'engineKind' });
export const marketSignal = signal<MarketSnapshot>(initialMarketSnapshot, { name: 'market' });
/** The signed-in account's open positions and pending orders, live from the engine's feed. */
export const positionsSignal = signal<PositionsState>({ holt: null, pending: null, connectionFailed: false }, { name: 'positions' });

/** The signed-in account's running options with their countdowns (about every 200 ms), and recent settlements. */
export const optionsSignal = signal<OptionsState>({ loaded: false, running: [], settled: [] }, { name: 'options' });

/**
 * The signed-in account's balance, pushed by the engine from the exchange socket (read it
 * through `useAccountBalance`); null until it speaks for this account.
 */
export const balanceSignal = signal<AccountBalance | null>(null, { name: 'balance' });

/**
 * The signed-in user's notices: the unread count (null until known for this session) and
 * how many times the exchange socket announced a new notice since the app started (each one a toast).
 */
export const noticesSignal = signal<{ unreadCount: number | null; arrivals: number }>({ unreadCount: null, arrivals: 0 }, { name: 'notices' });

/**
 * Takes a session snapshot unless a newer one is already here (a batch and a call's
 * answer may arrive in either order). Another account (sign-out, switch) drops the
 * balance at once rather than show the previous account's money until the engine's
 * next push.
 */
/**
 * Whether the person logged out in this tab (set just before the engine ends the session,
 * cleared by the next sign-in). This tab goes to plain sign-in; other tabs, whose page the
 * person did not leave, go to sign-in with their page as the way back.
 */
export const loggedOutHereSignal = signal(false, { name: 'loggedOutHere' });

/**
 * A changed password ends every session of the account on the server at once, and a socket or
 * request of this tab notices within a moment; the specification shows the success first and
 * signs out after 1 second. While this is set, this tab's routes treat the ended session as
 * still here and go nowhere, so no "please sign in" replaces the success message.
 */
export const sessionEndHeldSignal = signal(false, { name: 'sessionEndHeld' });

export function adoptSession(snapshot: SessionSnapshot) {
  const previous = sessionSignal.peek();
  if (snapshot.version < previous.version) return;
  batch(() => {
    if (sessionAccount(snapshot) !== sessionAccount(previous)) balanceSignal.value = null;
    // Notices are the person's, not the account's: only another user (or none) forgets the count.
    if (snapshot.uid !== previous.uid || snapshot.signedIn !== previous.signedIn) noticesSignal.value = { ...noticesSignal.peek(), unreadCount: null };
    sessionSignal.value = snapshot;
  });
}

/** Signals made on first use and kept by key, each named for debugging. */
function keyedSignals<T>(prefix: string) {
  const signals = new Map<string, Signal<T | null>>();
  return (key: string): Signal<T | null> => {
    let existing = signals.get(key);
    if (!existing) {
      existing = signal<T | null>(null, { name: `${prefix}:${key}` });
      signals.set(key, existing);
    }
    return existing;
  };
}

/** One signal per symbol, so that a price cell re-renders alone when its row changes. */
export const priceSignal = keyedSignals<PriceRow>('price');

const barSignals = keyedSignals<WireBar>('bar');

/** The forming bar of each watched (symbol, period), for the chart to draw once per frame. */
export function barSignal(symbol: string, period: KlinePeriod): Signal<WireBar | null> {
  return barSignals(`${symbol}|${period}`);
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
          adoptSession(event.payload);
          break;
        case 'market':
          marketSignal.value = event.payload;
          break;
        case 'prices':
          for (const row of event.payload) priceSignal(row[0]).value = row;
          break;
        case 'pricesExpired':
          // No longer followed: its last price would be shown as current on return, so show it as unknown.
          for (const symbol of event.payload) priceSignal(symbol).value = null;
          break;
        case 'positions':
          positionsSignal.value = event.payload;
          break;
        case 'options':
          optionsSignal.value = event.payload;
          break;
        case 'balance':
          balanceSignal.value = event.payload;
          break;
        case 'notice': {
          // The socket also says the count after notices were read (in this or another tab): only a rise is a new notice.
          const { unreadCount, arrivals } = noticesSignal.peek();
          const arrived = unreadCount === null || event.payload.unreadCount > unreadCount;
          noticesSignal.value = { unreadCount: event.payload.unreadCount, arrivals: arrived ? arrivals + 1 : arrivals };
          break;
        }
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
