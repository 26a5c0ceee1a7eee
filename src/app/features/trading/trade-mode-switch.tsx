import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useTradeMode } from './trade-mode';

/**
 * The market/option switch: in the desktop top bar, and on phones above the positions
 * and history lists. Nothing when the brand offers one mode.
 */
export function TradeModeSwitch(props: { className?: string; withoutOption?: boolean }) {
  useSignals();
  const { t } = useTranslation();
  const trade = useTradeMode();
  const { mode, choose } = trade;
  // Home leaves option mode out when the brand lists no option product.
  const modes = props.withoutOption ? trade.modes.filter((candidate) => candidate !== 'option') : trade.modes;
  if (modes.length < 2) return null;
  return (
    <div className={`segmented ${props.className ?? ''}`} role="group" aria-label={t('mode.trade_mode')}>
      {modes.map((candidate) => (
        <button key={candidate} type="button" aria-pressed={candidate === mode} onClick={() => choose(candidate)}>
          {t(`mode.${candidate}`)}
        </button>
      ))}
    </div>
  );
}
