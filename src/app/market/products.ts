import { signal } from '@preact/signals-react';
import { useEffect } from 'react';
import { productList, type Product } from '../../shared/api/market';
import type { HttpClient } from '../api/http-client';
import { useApp } from '../app-context';

/** The specification's product refresh: every 60 s while a view shows products. */
export const productRefreshMs = 60_000;

export type ProductsState =
  | { status: 'loading'; list: readonly Product[] }
  | { status: 'ready'; list: readonly Product[] }
  | { status: 'failed'; list: readonly Product[] };

/** The product catalogue of this tab, shared by the quote lists, search and the chart. */
export const productsSignal = signal<ProductsState>({ status: 'loading', list: [] }, { name: 'products' });

let inFlight: Promise<void> | null = null;
let loadedAtMs = 0;
let users = 0;

export function loadProducts(http: HttpClient): Promise<void> {
  inFlight ??= http
    .call(productList, {}, { silent: productsSignal.peek().status === 'ready' })
    .then(({ list }) => {
      loadedAtMs = Date.now();
      productsSignal.value = { status: 'ready', list };
    })
    .catch(() => {
      // Keep what we had; a failed first load shows the retry state.
      productsSignal.value = { status: productsSignal.peek().list.length > 0 ? 'ready' : 'failed', list: productsSignal.peek().list };
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

let refreshTimer: ReturnType<typeof setInterval> | null = null;

/** Loads the catalogue when a view needs it and refreshes it (one timer) while any such view is shown. */
export function useProducts(): void {
  const { http } = useApp();
  useEffect(() => {
    users += 1;
    if (Date.now() - loadedAtMs >= productRefreshMs || productsSignal.peek().status !== 'ready') void loadProducts(http);
    refreshTimer ??= setInterval(() => void loadProducts(http), productRefreshMs);
    return () => {
      users -= 1;
      if (users === 0 && refreshTimer) {
        clearInterval(refreshTimer);
        refreshTimer = null;
      }
    };
  }, [http]);
}
