import type { Product } from '../../../shared/api/market';
import { useApp } from '../../app-context';
import { VirtualList } from '../../components/virtual-list';
import { QuoteListHeader, QuoteRow, quoteListClass, quoteRowHeight } from './quote-row';

/**
 * Products with live quotes. Long lists are virtualized: only the rows in view (and a
 * few beyond) exist, so only those are watched and re-rendered while ticks flow.
 */
export function QuoteList(props: { products: readonly Product[]; onOpen: (symbol: string) => void; label: string }) {
  const { config } = useApp();
  return (
    <div className={`${quoteListClass(config.showProductLogo)} fill`}>
      <QuoteListHeader />
      <VirtualList
        label={props.label}
        items={props.products}
        itemKey={(product) => product.productCode}
        sizing={{ fixedPx: quoteRowHeight }}
        scrollerClassName="quote-scroller"
        listClassName="quote-rows"
        renderRow={(row) => <QuoteRow key={row.key} product={row.item} onOpen={props.onOpen} row={row.props} />}
      />
    </div>
  );
}
