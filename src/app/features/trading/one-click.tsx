import { signal, type Signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../shared/api/market';
import { addOrder, addOrderMock } from '../../../shared/api/trading';
import { isDemoSession } from '../../../shared/protocol/engine';
import { sanitizeDecimalInput } from '../../../shared/trading/form-rules';
import { oneClickLotsOf, oneClickOrder } from '../../../shared/trading/one-click';
import { Direction } from '../../../shared/trading/order-rules';
import { useApp } from '../../app-context';
import { confirmDialog } from '../../components/confirm';
import { showToast } from '../../components/toasts';
import { sessionSignal } from '../../engine/signals';
import { preferences, savePreferences } from '../../preferences/preferences';
import { useOrderSubmission } from './order-submission';
import { useProductOrderTerms } from './use-product-order-terms';

/**
 * Whether one-click trading is on (every chart and workspace of the tab; remembered). Made at
 * the first render, not when the module loads: the desktop fetches and runs this chunk ahead,
 * possibly before the stored preferences are read.
 */
let oneClickOn: Signal<boolean> | null = null;
const oneClickOnSignal = () => (oneClickOn ??= signal(preferences().oneClickTrading === true, { name: 'oneClickTrading' }));

export interface OneClick {
  on: boolean;
  /** Off at once; on only after the trader has read what it does and agreed. */
  toggle: () => Promise<void>;
  lots: string;
  setLots: (typed: string) => void;
  /**
   * The typed lots checked on leaving the field: good ones are remembered for the symbol; bad
   * ones are only said, not rewritten (leaving the field may be the press of Buy, and a value
   * nobody typed must not be sent unseen: the press then sets the bound and sends nothing).
   */
  settleLots: () => void;
  trade: (direction: Direction) => Promise<void>;
  submitting: boolean;
}

/**
 * One-click trading on a product's Buy and Sell buttons, for a signed-in trader in market
 * mode: off by default; turned on after a confirmation, which is remembered; then each tap
 * places a market order of the lots between the buttons (`shared/trading/one-click.ts`),
 * through the ticket's submission (one order a second, one client order id per order meant).
 */
export function useOneClick(product: Product): OneClick {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const session = sessionSignal.value;
  const { terms } = useProductOrderTerms(product, session.signedIn);
  const [lots, setLots] = useState(() => oneClickLotsOf(preferences().oneClickLots, product));
  const { submitting, submit } = useOrderSubmission();

  function remember(value: string) {
    void savePreferences({ oneClickLots: { ...preferences().oneClickLots, [product.productCode]: value } });
  }

  return {
    on: oneClickOnSignal().value,
    async toggle() {
      if (oneClickOnSignal().peek()) {
        oneClickOnSignal().value = false;
        void savePreferences({ oneClickTrading: false });
        return;
      }
      const agreed = await confirmDialog({ title: t('trade.one_click_confirm_title'), message: t('trade.one_click_confirm'), confirmLabel: t('trade.one_click_turn_on') });
      if (!agreed) return;
      oneClickOnSignal().value = true;
      void savePreferences({ oneClickTrading: true });
    },
    lots,
    setLots: (typed) => setLots(sanitizeDecimalInput(typed, terms.countNum)),
    settleLots() {
      const checked = oneClickOrder(terms, lots, Direction.buy);
      if (!checked.ok) {
        showToast('error', t(checked.messageKey, checked.params ?? {}));
        return;
      }
      setLots(checked.lots);
      remember(checked.lots);
    },
    async trade(direction) {
      const order = oneClickOrder(terms, lots, direction);
      setLots(order.lots);
      if (!order.ok) {
        showToast('error', t(order.messageKey, order.params ?? {}));
        return;
      }
      remember(order.lots);
      const contract = isDemoSession(sessionSignal.peek()) ? addOrderMock : addOrder;
      const placed = await submit((clientOrderId, requestOptions) => http.call(contract, { ...order.body, clientOrderId }, requestOptions));
      if (placed === null) return;
      const side = t(direction === Direction.buy ? 'market.buy' : 'market.sell');
      showToast('success', t('trade.one_click_placed', { side, volume: order.lots, product: product.productName }));
    },
    submitting,
  };
}

/** The switch above the buttons: a chip, pressed while one-click trading is on. */
export function OneClickSwitch(props: { oneClick: OneClick }) {
  const { t } = useTranslation();
  return (
    <button type="button" role="switch" aria-checked={props.oneClick.on} className="chip one-click-switch" onClick={() => void props.oneClick.toggle()}>
      {t('trade.one_click')}
    </button>
  );
}

/** The lots between Sell and Buy while one-click trading is on. */
export function OneClickLots(props: { oneClick: OneClick }) {
  const { t } = useTranslation();
  const { oneClick } = props;
  return (
    <input
      className="one-click-lots numeric"
      inputMode="decimal"
      autoComplete="off"
      aria-label={t('trade.one_click_lots')}
      value={oneClick.lots}
      onChange={(event) => oneClick.setLots(event.target.value)}
      onBlur={oneClick.settleLots}
    />
  );
}
