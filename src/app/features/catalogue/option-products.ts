import { signal } from '@preact/signals-react';
import type { OptionProduct } from '../../../shared/api/options';
import type { OptionTimeRate } from '../../../shared/options/option-rules';
import type { HttpClient } from '../../api/http-client';
import { createSharedRefresh } from './shared-refresh';
import { productRefreshMs } from './products';

/** An option product with its delivery-time entries parsed once (malformed entries left out). */
export interface LoadedOptionProduct extends OptionProduct {
  entries: readonly OptionTimeRate[];
}

export interface OptionProductsState {
  status: 'loading' | 'ready' | 'failed';
  /** By productCode (the pair's symbol). */
  byCode: ReadonlyMap<string, LoadedOptionProduct>;
}

/** The option products of this tab, shared by the option forms. */
export const optionProductsSignal = signal<OptionProductsState>({ status: 'loading', byCode: new Map() }, { name: 'optionProducts' });

/** The contract's largest page; a brand with more products is read page by page. */
const pageLimit = 100;
/** A bound on the pages read (10,000 products), so a misbehaving server cannot loop us. */
const pagesMax = 100;

async function fetchAll(http: HttpClient, silent: boolean): Promise<Map<string, LoadedOptionProduct>> {
  // The contract and the option rules come with the first call: the first load holds neither.
  const [{ findOptionsProduct }, { parseTimeRatePayload }] = await Promise.all([import('../../../shared/api/options'), import('../../../shared/options/option-rules')]);
  const byCode = new Map<string, LoadedOptionProduct>();
  for (let page = 1; page <= pagesMax; page += 1) {
    const { optionsProducts } = await http.call(findOptionsProduct, { limit: pageLimit, page }, { silent });
    for (const product of optionsProducts) byCode.set(product.productCode, { ...product, entries: parseTimeRatePayload(product.timeRatePayload).entries });
    if (optionsProducts.length < pageLimit) break;
  }
  return byCode;
}

const optionCatalogue = createSharedRefresh(
  (http) =>
    fetchAll(http, optionProductsSignal.peek().status === 'ready')
      .then((byCode) => {
        optionProductsSignal.value = { status: 'ready', byCode };
        return true;
      })
      .catch(() => {
        // Keep what we had: a refresh failing must not take the form away.
        const previous = optionProductsSignal.peek();
        optionProductsSignal.value = { status: previous.byCode.size > 0 ? 'ready' : 'failed', byCode: previous.byCode };
        return false;
      }),
  { refreshMs: productRefreshMs, isReady: () => optionProductsSignal.peek().status === 'ready' },
);

/** Loads the option products now (anonymous call; concurrent callers share one request). */
export const loadOptionProducts: (http: HttpClient) => Promise<void> = optionCatalogue.refresh;

/** Loads the option products when a view needs them and refreshes them every 60 s (one timer) while any such view is shown. */
export const useOptionProducts: (enabled?: boolean) => void = optionCatalogue.useRefreshed;
