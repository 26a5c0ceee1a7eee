import { batch } from '@preact/signals-react';
import type { AccountBalance } from '../../../src/shared/api/account';
import type { PositionsSummary } from '../../../src/shared/api/trading';
import { signedOutSession, type PriceRow } from '../../../src/shared/protocol/engine';
import type { Book } from '../../../src/shared/session/token';
import { balanceSignal, positionsSignal, priceSignal, sessionSignal } from '../../../src/app/engine/signals';
import { productsSignal } from '../../../src/app/features/catalogue/products';
import type { Product } from '../../../src/shared/api/market';

/** The session's `aesKey`: encoded fields travel under it (src/shared/money/encoded-field.ts). */
export const testAesKey = 'k3Y5e55i0nAesKey';

/** An access token shaped as the server signs one (the app reads its payload, never its signature). */
function accessToken(book: Book): string {
  const part = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const payload = { uid: 7, virtualStatus: book === 'real' ? 0 : 1, aesKey: testAesKey, exp: Math.floor(Date.now() / 1000) + 3600 };
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.signature`;
}

/**
 * What the data engine would have pushed into the tab's signals: a signed-in session, a
 * price row, the balance, the positions feed. The views read these exactly as in the app.
 */
export function signIn(book: Book = 'real') {
  sessionSignal.value = { ...signedOutSession, signedIn: true, token: accessToken(book), refreshToken: 'test-refresh', uid: 7, book, expiresAtMs: Date.now() + 3_600_000, version: sessionSignal.peek().version + 1 };
}

/** The symbols a test priced, to clear after it. */
const pricedSymbols = new Set<string>();

/** A live price for a symbol: bid and ask as the engine sends them (the row's last price is the bid). */
export function pushPrice(symbol: string, bid: string, ask: string) {
  const row: PriceRow = [symbol, bid, bid, ask, '0.00', bid, ask, '0', Date.now()];
  priceSignal(symbol).value = row;
  pricedSymbols.add(symbol);
}

export function pushBalance(balanceAmount: string) {
  const balance: AccountBalance = { balanceAmount, lockMargin: '0.00' };
  balanceSignal.value = balance;
}

export function pushPositions(holt: PositionsSummary | null, pending: PositionsSummary | null = null) {
  positionsSignal.value = { holt, pending, connectionFailed: false };
}

/** The catalogue the engine's product list would hold (for a price's precision). */
export function loadCatalogue(list: Product[]) {
  productsSignal.value = { status: 'ready', list };
}

/** After each test: signed out, no prices, no balance, no positions; the next test starts from nothing. */
export function resetEngineSignals() {
  batch(() => {
    sessionSignal.value = { ...signedOutSession, version: sessionSignal.peek().version + 1 };
    balanceSignal.value = null;
    positionsSignal.value = { holt: null, pending: null, connectionFailed: false };
    productsSignal.value = { status: 'loading', list: [] };
    for (const symbol of pricedSymbols) priceSignal(symbol).value = null;
  });
}
