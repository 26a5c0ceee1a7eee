import { signal } from '@preact/signals-react';
import { availableTradeModes, currentTradeMode, type TradeMode } from '../../../shared/config/trade-mode';
import { switchesSignal, useApp } from '../../app-context';
import { preferences, savePreferences } from '../../preferences/preferences';

/** The user's chosen trade mode (market or option); what is shown also depends on the switches. */
const chosenTradeModeSignal = signal<TradeMode | undefined>(undefined, { name: 'chosenTradeMode' });

/** The trade mode in force and the modes to offer; reads signals, so call it under `useSignals()`. */
export function useTradeMode(): { mode: TradeMode; modes: TradeMode[]; choose: (mode: TradeMode) => void } {
  const { config } = useApp();
  const modes = availableTradeModes(switchesSignal.value, config);
  const mode = currentTradeMode(modes, chosenTradeModeSignal.value ?? preferences().tradeMode);
  return {
    mode,
    modes,
    choose(next) {
      chosenTradeModeSignal.value = next;
      void savePreferences({ tradeMode: next });
    },
  };
}
