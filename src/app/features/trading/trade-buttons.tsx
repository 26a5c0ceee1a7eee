import { useSignals } from '@preact/signals-react/runtime';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Product } from '../../../shared/api/market';
import type { MarketStatus } from '../../../shared/market/market-hours';
import { isTradable, isTradableInMode, tradeBlock } from '../../../shared/market/tradability';
import { formatMoney, parseMoney } from '../../../shared/money/money';
import { Direction, spreadOf } from '../../../shared/trading/order-rules';
import { priceSignal, sessionSignal } from '../../engine/signals';
import { useWatchedPrices } from '../../engine/use-watched-prices';
import { usePriceFormat } from '../../format/use-price-format';
import { useTradeModeContext } from '../catalogue/trade-mode-context';
import { OneClickLots, OneClickSwitch, useOneClick, type OneClick } from './one-click';

/** The live bid, ask and spread of a product at its precision; dashes before the first price. */
export function useQuoteLine(product: Product): { bid: string; ask: string; spread: string } {
  useWatchedPrices([product.productCode]);
  const row = priceSignal(product.productCode).value;
  const bid = row ? parseMoney(row[2]) : null;
  const ask = row ? parseMoney(row[3]) : null;
  const format = usePriceFormat();
  const precision = product.pricePrecision;
  if (bid === null || ask === null) return { bid: '—', ask: '—', spread: '—' };
  // Grouped in the reader's language, as every other price of the screen is.
  const shown = (units: bigint) => format.price(formatMoney(units, precision), precision);
  return { bid: shown(bid), ask: shown(ask), spread: shown(spreadOf({ bid, ask })) };
}

/** The spread between the two buttons, as terminals show it. */
function Spread(props: { value: string }) {
  const { t } = useTranslation();
  return (
    <span className="trade-spread numeric" aria-label={`${t('trade.spread')} ${props.value}`} data-testid="trade-spread">
      {props.value}
    </span>
  );
}

/**
 * A button's label over its price: a sell at the bid, a buy at the ask. The label names the
 * button and the price describes it, so its name stays "Buy" while the price moves.
 */
export function Face(props: { id: string; label: string; price: string; testId: string }) {
  return (
    <>
      <span className="trade-button-label" id={`${props.id}-label`}>
        {props.label}
      </span>
      <span className="trade-button-price numeric" id={`${props.id}-price`} data-testid={props.testId}>
        {props.price}
      </span>
    </>
  );
}

/** The naming of a button with a `Face`. */
export const faceAria = (id: string) => ({ 'aria-labelledby': `${id}-label`, 'aria-describedby': `${id}-price` });

/** Sell at the bid and buy at the ask with the spread between them, or why the product cannot be traded now (in the current trade mode). */
export function TradeButtons(props: { product: Product; status: MarketStatus; onTrade?: (direction: Direction) => void }) {
  useSignals();
  const { t } = useTranslation();
  const { context, pending } = useTradeModeContext();
  const { mode } = context;
  const quote = useQuoteLine(props.product);
  const id = useId();
  const sellId = `${id}sell`;
  const buyId = `${id}buy`;
  if (pending) return <div className="trade-buttons" />;
  // Switched on, but not in this mode (e.g. no options on it): say so rather than offer a form that refuses.
  if (isTradable(props.product) && !isTradableInMode(props.product, context)) {
    return (
      <div className="trade-buttons">
        <p className="trade-closed" role="status">
          {t(`chart.not_trade_${mode}`)}
        </p>
      </div>
    );
  }
  const blocked = tradeBlock([props.product], props.status);
  if (blocked) {
    return (
      <div className="trade-buttons">
        <p className="trade-closed" role="status">
          {t(blocked === 'closed' ? 'chart.closed' : 'chart.market_closed')}
        </p>
      </div>
    );
  }
  const target = mode === 'option' ? 'placeOption' : 'place';
  // In option mode the same two buttons buy up or buy down.
  const sellLabel = t(mode === 'option' ? 'option.buy_down' : 'market.sell');
  const buyLabel = t(mode === 'option' ? 'option.buy_up' : 'market.buy');
  const sell = <Face id={sellId} label={sellLabel} price={quote.bid} testId="trade-sell-price" />;
  const buy = <Face id={buyId} label={buyLabel} price={quote.ask} testId="trade-buy-price" />;
  const symbol = props.product.productCode;
  if (mode === 'market' && sessionSignal.value.signedIn) return <OneClickCapableButtons product={props.product} sell={sell} buy={buy} sellId={sellId} buyId={buyId} spread={quote.spread} onTrade={props.onTrade} />;
  const { onTrade } = props;
  if (onTrade) {
    return (
      <div className="trade-buttons with-prices">
        <button type="button" className="button sell" {...faceAria(sellId)} onClick={() => onTrade(Direction.sell)}>
          {sell}
        </button>
        <Spread value={quote.spread} />
        <button type="button" className="button buy" {...faceAria(buyId)} onClick={() => onTrade(Direction.buy)}>
          {buy}
        </button>
      </div>
    );
  }
  return (
    <div className="trade-buttons with-prices">
      <Link href={`/${symbol}/${target}?direction=${Direction.sell}`} className="button sell" {...faceAria(sellId)}>
        {sell}
      </Link>
      <Spread value={quote.spread} />
      <Link href={`/${symbol}/${target}?direction=${Direction.buy}`} className="button buy" {...faceAria(buyId)}>
        {buy}
      </Link>
    </div>
  );
}

/**
 * A signed-in trader's market buttons: as the ticket's way in (the workspace's panel, or the
 * place page), or, with one-click trading on, placing a market order of the lots between them.
 */
function OneClickCapableButtons(props: {
  product: Product;
  sell: ReactNode;
  buy: ReactNode;
  sellId: string;
  buyId: string;
  spread: string;
  onTrade: ((direction: Direction) => void) | undefined;
}) {
  const oneClick: OneClick = useOneClick(props.product);
  const symbol = props.product.productCode;
  const { onTrade } = props;
  const button = (direction: Direction) => {
    const side = direction === Direction.buy ? 'buy' : 'sell';
    const id = direction === Direction.buy ? props.buyId : props.sellId;
    const face = direction === Direction.buy ? props.buy : props.sell;
    if (oneClick.on) {
      return (
        <button type="button" className={`button ${side}`} {...faceAria(id)} disabled={oneClick.submitting} onClick={() => void oneClick.trade(direction)}>
          {face}
        </button>
      );
    }
    if (onTrade) {
      return (
        <button type="button" className={`button ${side}`} {...faceAria(id)} onClick={() => onTrade(direction)}>
          {face}
        </button>
      );
    }
    return (
      <Link href={`/${symbol}/place?direction=${direction}`} className={`button ${side}`} {...faceAria(id)}>
        {face}
      </Link>
    );
  };
  return (
    <div className={`trade-buttons with-prices${oneClick.on ? ' one-click' : ''}`}>
      {button(Direction.sell)}
      {/* Between the buttons, so that the row is no taller than they are (the workspace's grid keeps its rows). */}
      <div className="trade-middle">
        <OneClickSwitch oneClick={oneClick} />
        {oneClick.on ? <OneClickLots oneClick={oneClick} /> : <Spread value={props.spread} />}
      </div>
      {button(Direction.buy)}
    </div>
  );
}
