import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { TradeModeSwitch } from '../../features/trading/trade-mode-switch';
import { useIsDesktop } from '../../layouts/use-viewport';
import { HistoryBoard } from '../../features/trading/history/history-board';

/**
 * `/history`: in market mode the account's market orders by status tab (closed ones first,
 * with the realized profit and loss), in option mode its settled options with the win/loss;
 * a list on phones and a grid on desktop.
 */
export function HistoryPage() {
  useSignals();
  const { t } = useTranslation();
  const isDesktop = useIsDesktop();
  return (
    <PageFrame back={false} title={t('page.history')} fill>
      {isDesktop ? null : <TradeModeSwitch className="trade-mode-switch" />}
      <HistoryBoard layout={isDesktop ? 'grid' : 'list'} />
    </PageFrame>
  );
}
