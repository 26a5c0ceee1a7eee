import { signal } from '@preact/signals-react';
import type { Product } from '../../../shared/api/market';
import type { HttpClient } from '../../api/http-client';
import { createSharedRefresh } from './shared-refresh';

/** The specification's product refresh: every 60 s while a view shows products. */
export const productRefreshMs = 60_000;

export type ProductsState =
  | { status: 'loading'; list: readonly Product[] }
  | { status: 'ready'; list: readonly Product[] }
  | { status: 'failed'; list: readonly Product[] };

/** The product catalogue of this tab, shared by the quote lists, search and the chart. */
export const productsSignal = signal<ProductsState>({ status: 'loading', list: [] }, { name: 'products' });

const catalogue = createSharedRefresh(
  (http) =>
    // The contract comes with the first call: home's quote list is in the first load, which holds no schema.
    import('../../../shared/api/market')
      .then(({ productList }) => http.call(productList, {}, { silent: productsSignal.peek().status === 'ready' }))
      .then(({ list }) => {
        productsSignal.value = { status: 'ready', list };
        return true;
      })
      .catch(() => {
        // Keep what we had; a failed first load shows the retry state.
        productsSignal.value = { status: productsSignal.peek().list.length > 0 ? 'ready' : 'failed', list: productsSignal.peek().list };
        return false;
      }),
  { refreshMs: productRefreshMs, isReady: () => productsSignal.peek().status === 'ready' },
);

/** Loads the catalogue now (concurrent callers share one request). */
export const loadProducts: (http: HttpClient) => Promise<void> = catalogue.refresh;

/** Loads the catalogue when a view needs it and refreshes it (one timer) while any such view is shown. */
export const useProducts: () => void = catalogue.useRefreshed;

/** The price precision of a listed product, for showing its prices; undefined until the catalogue has it. */
export function pricePrecisionOf(symbol: string): number | undefined {
  return productsSignal.value.list.find((product) => product.productCode === symbol)?.pricePrecision;
}
