import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { OrderStatus } from '../../../../shared/trading/order-rules';
import { useTradeMode } from '../trade-mode';
import { HistoryStatusTabs, MarketHistoryGrid, MarketHistoryList, type HistoryChoice } from './market-history';
import { OptionHistoryGrid, OptionHistoryList } from './option-history';

/**
 * The history of the current trade mode: settled options, or market orders by status tab or
 * filter (closed ones first); a grid on desktop, a list on phones.
 */
export function HistoryBoard(props: { layout?: 'grid' | 'list' }) {
  useSignals();
  const { mode } = useTradeMode();
  const [choice, setChoice] = useState<HistoryChoice>({ status: OrderStatus.deal });
  const asList = props.layout === 'list';
  if (mode === 'option') return asList ? <OptionHistoryList /> : <OptionHistoryGrid />;
  return (
    <>
      <HistoryStatusTabs selected={choice} onSelect={setChoice} />
      {asList ? <MarketHistoryList choice={choice} /> : <MarketHistoryGrid choice={choice} />}
    </>
  );
}
