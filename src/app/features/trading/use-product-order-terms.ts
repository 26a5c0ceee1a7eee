import { useEffect, useState } from 'react';
import { productOrderInfo, type Product } from '../../../shared/api/market';
import { useApp } from '../../app-context';
import { productRefreshMs } from '../catalogue/products';

/**
 * The order form's terms for a product: the signed-in `product/orderInfo` answer (volume
 * bounds, step, leverage, rates) over the catalogue's product, refreshed with the product
 * info (every 60 s). `loading` until the first answer: the form does not submit meanwhile;
 * if the call fails the catalogue's terms stand (the server checks every order anyway).
 */
export function useProductOrderTerms(product: Product, signedIn: boolean): { terms: Product; loading: boolean } {
  const { http } = useApp();
  const symbol = product.productCode;
  const [answer, setAnswer] = useState<{ symbol: string; info: Partial<Product> } | null>(null);
  useEffect(() => {
    if (!signedIn) return;
    let cancelled = false;
    const load = () =>
      http
        .call(productOrderInfo, { productCode: symbol }, { silent: true })
        .then(({ leverages: _leverages, ...info }) => info)
        .catch(() => ({}))
        .then((info) => {
          if (!cancelled) setAnswer({ symbol, info });
        });
    void load();
    const timer = setInterval(() => void load(), productRefreshMs);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [http, symbol, signedIn]);
  const current = answer?.symbol === symbol ? answer.info : null;
  return { terms: current ? { ...product, ...current } : product, loading: signedIn && current === null };
}
