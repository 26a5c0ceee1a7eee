import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { TradeModeSwitch } from '../../components/trade-mode-switch';
import { useIsDesktop } from '../../layouts/use-viewport';
import { useTradeMode } from '../../market/trade-mode';
import { MarketHistoryGrid } from './history-grid';
import { MarketHistoryList } from './history-list';
import { OptionHistoryGrid, OptionHistoryList } from './option-history';

/** Desktop history of the current trade mode: closed market orders or settled options. */
export function HistoryBoard() {
  useSignals();
  const { mode } = useTradeMode();
  return mode === 'option' ? <OptionHistoryGrid /> : <MarketHistoryGrid />;
}

/**
 * `/history`: in market mode the account's closed market orders with the realized profit
 * and loss, in option mode its settled options with the win/loss; a list on phones and a
 * grid on desktop.
 */
export function HistoryPage() {
  useSignals();
  const { t } = useTranslation();
  const isDesktop = useIsDesktop();
  const { mode } = useTradeMode();
  return (
    <PageFrame back={false} title={t('page.history')} fill>
      {isDesktop ? <HistoryBoard /> : <TradeModeSwitch className="trade-mode-switch" />}
      {isDesktop ? null : mode === 'option' ? <OptionHistoryList /> : <MarketHistoryList />}
    </PageFrame>
  );
}
