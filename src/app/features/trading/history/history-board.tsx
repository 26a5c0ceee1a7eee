import { useSignals } from '@preact/signals-react/runtime';
import { useTradeMode } from '../trade-mode';
import { MarketHistoryGrid } from './market-history';
import { OptionHistoryGrid } from './option-history';

/** Desktop history of the current trade mode: closed market orders or settled options. */
export function HistoryBoard() {
  useSignals();
  const { mode } = useTradeMode();
  return mode === 'option' ? <OptionHistoryGrid /> : <MarketHistoryGrid />;
}
