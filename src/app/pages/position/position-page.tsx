import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OptionStatus } from '../../../shared/options/option-rules';
import { PageFrame } from '../../components/page-frame';
import { useIsDesktop } from '../../layouts/use-viewport';
import { useTradeMode } from '../../features/trading/trade-mode';
import { TradeModeSwitch } from '../../features/trading/trade-mode-switch';
import { OptionHistoryList } from '../../features/trading/history/option-history';
import { OptionPositionList } from '../../features/trading/options/option-positions';
import { OptionStatusTabs, type OptionStatusTab } from '../../features/trading/options/option-status-tabs';
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
  const [optionTab, setOptionTab] = useState<OptionStatusTab>(OptionStatus.running);
  if (isDesktop) {
    return (
      <PageFrame back={false} title={t('page.position')} fill>
        <PositionsBoard />
      </PageFrame>
    );
  }
  return (
    <PageFrame back={false} title={t('page.position')} actions={<ResetDemoButton />} fill>
      {/* Under the header: beside the title and the demo reset it would squeeze the title away. */}
      <TradeModeSwitch className="trade-mode-switch" />
      {mode !== 'option' ? (
        <PositionList />
      ) : (
        <>
          <OptionStatusTabs selected={optionTab} onSelect={setOptionTab} />
          {optionTab === OptionStatus.running ? <OptionPositionList /> : <OptionHistoryList />}
        </>
      )}
    </PageFrame>
  );
}
