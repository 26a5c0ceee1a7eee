import type { TradeModeContext } from '../../../shared/market/tradability';
import { useTradeMode } from '../trading/trade-mode';
import { optionProductsSignal, useOptionProducts } from './option-products';

/**
 * What lists and trade buttons need to tell whether a product is tradable in the current
 * trade mode; the option products are loaded only while option mode is on. `pending`:
 * option mode, with the option products not yet known. Reads signals: call under `useSignals()`.
 */
export function useTradeModeContext(): { context: TradeModeContext; pending: boolean } {
  const { mode } = useTradeMode();
  useOptionProducts(mode === 'option');
  const optionProducts = optionProductsSignal.value;
  return { context: { mode, optionProducts: optionProducts.byCode }, pending: mode === 'option' && optionProducts.status === 'loading' };
}
