import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { listedProducts } from '../../../shared/market/product-list';
import { productsSignal, useProducts } from '../../market/products';
import { ProductsPending, useOpenProduct } from '../quotation/quotation-page';
import { QuoteList } from '../quotation/quote-list';

/** The home variant of the quote list: the first three products, and a link to all of them. */
export function HomeQuotes() {
  useSignals();
  useProducts();
  const { t } = useTranslation();
  const openProduct = useOpenProduct();
  const state = productsSignal.value;
  const products = listedProducts(state.list);
  return (
    <section className="home-quotes" aria-labelledby="home-quotes-title">
      <header className="section-header">
        <h2 id="home-quotes-title">{t('market.quotes')}</h2>
        <Link href="/quotation">{t('market.all_quotes')}</Link>
      </header>
      {state.list.length === 0 ? (
        <ProductsPending />
      ) : (
        <QuoteList products={products} limit={3} label={t('market.quotes')} onOpen={openProduct} />
      )}
    </section>
  );
}
