import { signal } from '@preact/signals-react';
import type { HttpClient } from '../../api/http-client';

/**
 * Whether the brand lists any option product, as home asks it: one product, first page
 * (signed in `option/productList`, a visitor `option/findOptionsProduct`). null until known.
 * Home offers option mode only when there is one; the option forms load the full list.
 */
export const optionsOfferedSignal = signal<boolean | null>(null, { name: 'optionsOffered' });

export async function loadOptionsOffered(http: HttpClient, signedIn: boolean): Promise<void> {
  try {
    // The contracts come with the call: home asks it, and the first load holds no schema.
    const { findOptionsProduct, optionProductList } = await import('../../../shared/api/options');
    const { optionsProducts } = await http.call(signedIn ? optionProductList : findOptionsProduct, { limit: 1, page: 1 }, { silent: true });
    optionsOfferedSignal.value = optionsProducts.length > 0;
  } catch {
    // Unknown again rather than "none": a failed call must not take option mode away.
    optionsOfferedSignal.value = null;
  }
}
