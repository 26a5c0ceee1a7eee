import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { listedProducts } from '../../../shared/market/product-list';
import { productsSignal, useProducts } from '../../features/catalogue/products';
import { ProductsPending } from '../../features/catalogue/products-pending';
import { ShortQuoteList } from '../../features/catalogue/quote-row';
import { useTradeModeContext } from '../../features/catalogue/trade-mode-context';
import { useOpenProduct } from '../../features/catalogue/use-open-product';

/** The home variant of the quote list: the first three products, and a link to all of them. */
export function HomeQuotes() {
  useSignals();
  useProducts();
  const { t } = useTranslation();
  const openProduct = useOpenProduct();
  const state = productsSignal.value;
  const { context, pending } = useTradeModeContext();
  const products = listedProducts(state.list, undefined, context);
  return (
    <section className="home-quotes" aria-labelledby="home-quotes-title">
      <header className="section-header">
        <h2 id="home-quotes-title">{t('market.quotes')}</h2>
        <Link href="/quotation">{t('market.all_quotes')}</Link>
      </header>
      {state.list.length === 0 || pending ? (
        <ProductsPending />
      ) : (
        <ShortQuoteList products={products} limit={3} label={t('market.quotes')} onOpen={openProduct} />
      )}
    </section>
  );
}
