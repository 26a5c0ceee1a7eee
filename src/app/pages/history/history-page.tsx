import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { TradeModeSwitch } from '../../features/trading/trade-mode-switch';
import { useIsDesktop } from '../../layouts/use-viewport';
import { useTradeMode } from '../../features/trading/trade-mode';
import { MarketHistoryList } from '../../features/trading/history/market-history';
import { HistoryBoard } from '../../features/trading/history/history-board';
import { OptionHistoryList } from '../../features/trading/history/option-history';

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
