import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { useIsDesktop } from '../../layouts/use-viewport';
import { useTradeMode } from '../../features/trading/trade-mode';
import { TradeModeSwitch } from '../../features/trading/trade-mode-switch';
import { OptionPositionList } from '../../features/trading/options/option-positions';
import { ResetDemoButton } from '../../features/trading/positions/position-parts';
import { PositionList } from '../../features/trading/positions/position-list';
import { PositionsBoard } from '../../features/trading/positions/positions-grid';

/**
 * `/position`: open positions and pending orders of the signed-in account, live from the
 * engine's positions feed (profit and loss as prices move), with the summary, a details
 * drawer to close or cancel, and the demo reset; in option mode the running options with
 * their countdowns. Desktop shows the grid. Phones switch the trade mode at the top of
 * the page (the desktop top bar has the switch).
 */
export function PositionPage() {
  useSignals();
  const { t } = useTranslation();
  const isDesktop = useIsDesktop();
  const { mode } = useTradeMode();
  if (isDesktop) {
    return (
      <PageFrame back={false} title={t('page.position')}>
        <PositionsBoard />
      </PageFrame>
    );
  }
  return (
    <PageFrame back={false} title={t('page.position')} actions={<ResetDemoButton />}>
      {/* Under the header: beside the title and the demo reset it would squeeze the title away. */}
      <TradeModeSwitch className="trade-mode-switch" />
      {mode === 'option' ? <OptionPositionList /> : <PositionList />}
    </PageFrame>
  );
}
