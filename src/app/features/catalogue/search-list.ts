import { signal } from '@preact/signals-react';
import { productSearchList } from '../../../shared/api/market';
import { productRefreshMs, type ProductsState } from './products';
import { createSharedRefresh } from './shared-refresh';

/**
 * The signed-in search list (`product/searchList`, the account's tradable products): what
 * search offers a signed-in trader; visitors search the anonymous catalogue.
 */
export const searchListSignal = signal<ProductsState>({ status: 'loading', list: [] }, { name: 'searchList' });

const searchList = createSharedRefresh(
  (http) =>
    http
      .call(productSearchList, {}, { silent: searchListSignal.peek().status === 'ready' })
      .then(({ forexProductList }) => {
        searchListSignal.value = { status: 'ready', list: forexProductList };
        return true;
      })
      .catch(() => {
        // Keep what we had; a failed first load shows the retry state.
        const previous = searchListSignal.peek();
        searchListSignal.value = { status: previous.list.length > 0 ? 'ready' : 'failed', list: previous.list };
        return false;
      }),
  { refreshMs: productRefreshMs, isReady: () => searchListSignal.peek().status === 'ready' },
);

/** Loads the search list while a signed-in view searches (`enabled` false for a visitor) and refreshes it with the product info. */
export const useSearchList: (enabled?: boolean) => void = searchList.useRefreshed;
