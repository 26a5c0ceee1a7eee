import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { listedProducts } from '../../../shared/market/product-list';
import { useApp } from '../../app-context';
import { marketSignal, sessionSignal } from '../../engine/signals';
import { useViewport } from '../../layouts/use-viewport';
import { productsSignal, useProducts } from '../catalogue/products';
import { ProductsPending } from '../catalogue/products-pending';
import { QuotationBoard } from '../catalogue/quotation-board';
import { SearchBoard } from '../catalogue/search-board';
import { useTradeModeContext } from '../catalogue/trade-mode-context';
import { ChartQuote, ProductChart, ProductSelect } from '../chart/product-chart';
import { HistoryBoard } from '../trading/history/history-board';
import { OptionPlaceBody } from '../trading/options/option-place-body';
import { PlaceForm } from '../trading/place-form';
import { PositionsBoard } from '../trading/positions/positions-grid';
import { TradeButtons } from '../trading/trade-buttons';
import { useTradeMode } from '../trading/trade-mode';
import { useMarketStatus } from '../trading/use-market-status';
import {
  defaultDesktopSymbol,
  orderListSignal,
  placeDirectionSignal,
  placePanelOpenSignal,
  quoteListDefaultMinHeightPx,
  quotePanelOpenSignal,
  searchPanelOpenSignal,
  selectedSymbolSignal,
} from './selection';
import { Icon } from '../../components/icons';
import { BoardSeparator, useChartShare } from './board-separator';

/** The chart's product select is 180 px wide above this window width, else 120 px. */
export const wideChartSelectMinWidthPx = 1030;

function ChartPanel() {
  useSignals();
  const { t } = useTranslation();
  const { width } = useViewport();
  const state = productsSignal.value;
  const { context: modeContext } = useTradeModeContext();
  const symbol = selectedSymbolSignal.value;
  const product = symbol ? state.list.find((item) => item.productCode === symbol) : undefined;
  const status = useMarketStatus(product);
  if (!product) {
    return (
      <section className="panel chart-panel" aria-label={t('page.chart')}>
        {state.list.length === 0 || !symbol ? <ProductsPending /> : <p className="list-state">{t('chart.product_not_found', { symbol })}</p>}
      </section>
    );
  }
  return (
    <section className="panel chart-panel" aria-labelledby="chart-panel-title">
      <header className="panel-header">
        <h2 id="chart-panel-title">{product.productName}</h2>
        <ProductSelect
          products={listedProducts(state.list, undefined, modeContext)}
          current={product.productCode}
          widthPx={width > wideChartSelectMinWidthPx ? 180 : 120}
          onChange={(next) => (selectedSymbolSignal.value = next)}
        />
      </header>
      <div className="panel-body">
        <ChartQuote product={product} />
        <ProductChart product={product} status={status} withControls={false} />
        <TradeButtons
          product={product}
          status={status}
          onTrade={(direction) => {
            placeDirectionSignal.value = direction;
            placePanelOpenSignal.value = true;
          }}
        />
      </div>
    </section>
  );
}

function SearchPanel() {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  return (
    <section className="panel side-panel" aria-labelledby="search-panel-title">
      <header className="panel-header">
        <h2 id="search-panel-title">{t('page.search')}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={() => (searchPanelOpenSignal.value = false)}>
          <Icon name="close" />
        </button>
      </header>
      <div className="panel-body">
        <SearchBoard query={query} onQuery={setQuery} onOpen={(symbol) => (selectedSymbolSignal.value = symbol)} />
      </div>
    </section>
  );
}

function QuotationPanel() {
  const { t } = useTranslation();
  return (
    <section className="panel side-panel" aria-labelledby="quote-panel-title">
      <header className="panel-header">
        <h2 id="quote-panel-title">{t('page.quotation')}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={() => (quotePanelOpenSignal.value = false)}>
          <Icon name="close" />
        </button>
      </header>
      <div className="panel-body">
        <QuotationBoard onOpen={(symbol) => (selectedSymbolSignal.value = symbol)} />
      </div>
    </section>
  );
}

/** The order placement panel: the market or option form (by trade mode) for the selected product, with its direction tab. */
function PlacePanel() {
  useSignals();
  const { t } = useTranslation();
  const { mode } = useTradeMode();
  const state = productsSignal.value;
  const symbol = selectedSymbolSignal.value;
  const product = symbol ? state.list.find((item) => item.productCode === symbol) : undefined;
  const status = useMarketStatus(product);
  const titleKey = mode === 'option' ? 'page.place_option' : 'page.place';
  return (
    <section className="panel place-panel" aria-labelledby="place-panel-title">
      <header className="panel-header">
        <h2 id="place-panel-title">{product ? `${t(titleKey)} · ${product.productName}` : t(titleKey)}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={() => (placePanelOpenSignal.value = false)}>
          <Icon name="close" />
        </button>
      </header>
      <div className="panel-body scroll-body">
        {product && mode === 'option' ? (
          <OptionPlaceBody
            key={product.productCode}
            product={product}
            status={status}
            direction={placeDirectionSignal.value}
            onDirection={(direction) => (placeDirectionSignal.value = direction)}
          />
        ) : product ? (
          <PlaceForm
            key={product.productCode}
            product={product}
            status={status}
            direction={placeDirectionSignal.value}
            onDirection={(direction) => (placeDirectionSignal.value = direction)}
            onViewPosition={() => (orderListSignal.value = 'positions')}
          />
        ) : (
          <ProductsPending />
        )}
      </div>
    </section>
  );
}

/** The order list panel: the account's positions (live) or history, as the side buttons choose. */
function OrderListPanel(props: { kind: 'positions' | 'history' }) {
  useSignals();
  const { t } = useTranslation();
  const signedIn = sessionSignal.value.signedIn;
  const titleKey = props.kind === 'positions' ? 'desktop.side_positions' : 'desktop.side_history';
  return (
    <section className="panel order-list-panel" aria-labelledby="order-list-title">
      <header className="panel-header">
        <h2 id="order-list-title">{t(titleKey)}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={() => (orderListSignal.value = null)}>
          <Icon name="close" />
        </button>
      </header>
      <div className="panel-body">
        {!signedIn ? (
          <p className="list-state">
            <Link href="/login">{t('desktop.sign_in_for_orders')}</Link>
          </p>
        ) : props.kind === 'positions' ? (
          <PositionsBoard />
        ) : (
          <HistoryBoard />
        )}
      </div>
    </section>
  );
}

/**
 * The desktop start page: the selected product's chart above the order list (positions or
 * history), the order placement panel, the quotation list (shown by default on windows
 * taller than 790 px) and the search panel. BTCUSDT is selected once prices arrive when
 * nothing is.
 */
export function Workspace() {
  useSignals();
  useProducts();
  const { config } = useApp();
  const { height } = useViewport();
  const ready = marketSignal.value.ready;
  useEffect(() => {
    if (ready && selectedSymbolSignal.peek() === null) selectedSymbolSignal.value = defaultDesktopSymbol;
  }, [ready]);
  const quotesOpen = quotePanelOpenSignal.value ?? height > quoteListDefaultMinHeightPx;
  const searchOpen = searchPanelOpenSignal.value;
  const orderList = orderListSignal.value;
  const column = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  // Once the trader moves the separator, the chart keeps that share; the board takes the rest.
  const chartShare = useChartShare();
  const split = orderList !== null && chartShare !== null;
  return (
    <div className="workspace">
      <h1 className="visually-hidden">{config.siteName}</h1>
      <div className={split ? 'workspace-main split-chosen' : 'workspace-main'} ref={column}>
        <div className="workspace-top" ref={top} style={split ? { flexBasis: `${chartShare}%` } : undefined}>
          <ChartPanel />
          {placePanelOpenSignal.value ? <PlacePanel /> : null}
        </div>
        {orderList ? (
          <>
            <BoardSeparator column={column} chart={top} />
            <OrderListPanel kind={orderList} />
          </>
        ) : null}
      </div>
      {quotesOpen || searchOpen ? (
        <div className="workspace-side">
          {searchOpen ? <SearchPanel /> : null}
          {quotesOpen ? <QuotationPanel /> : null}
        </div>
      ) : null}
    </div>
  );
}
