import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { parseSingleTrade } from '../../../shared/market/product-list';
import { useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { QuotationBoard } from '../../features/catalogue/quotation-board';
import { TradeModeSwitch } from '../../features/trading/trade-mode-switch';
import { useOpenProduct } from '../../features/catalogue/use-open-product';
import { useIsDesktop } from '../../layouts/use-viewport';
import { Icon } from '../../components/icons';

/** `/quotation` (optional `?singleTrade=<type>` with the single-trade template). */
export function QuotationPage() {
  const { t } = useTranslation();
  const { config } = useApp();
  const isDesktop = useIsDesktop();
  const openProduct = useOpenProduct();
  const search = new URLSearchParams(useSearch());
  const singleTrade = config.singleTradeTemplate ? parseSingleTrade(search.get('singleTrade')) : null;
  return (
    <PageFrame
      title={t('page.quotation')}
      actions={
        isDesktop ? null : (
          <Link href="/search" className="icon-button" aria-label={t('common.search')}>
            <Icon name="search" />
          </Link>
        )
      }
      fill
    >
      {/* On desktop the top bar has it. */}
      {isDesktop ? null : <TradeModeSwitch className="trade-mode-switch" />}
      <QuotationBoard onOpen={openProduct} singleTrade={singleTrade} />
    </PageFrame>
  );
}
