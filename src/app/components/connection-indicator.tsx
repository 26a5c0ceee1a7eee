import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { reconnectCountdownSeconds } from '../../shared/time/reconnect-countdown';
import { connectionShown } from '../engine/connection-shown';
import { marketSignal, positionsSignal } from '../engine/signals';
import { useSecondTick } from './use-second-tick';

/**
 * A small mark of the live connection (a dot and a word) for the terminal's top bar and the
 * account strip: whether the prices shown are live, delayed, being reconnected (with the
 * seconds to the next try) or cut off. The notice and the alert speak; this only shows (an
 * image with its name, not a second live region). `compact`: the dot alone, where the top
 * bar runs out of room.
 */
export function ConnectionIndicator(props: { compact?: boolean }) {
  useSignals();
  const { t } = useTranslation();
  const market = marketSignal.value;
  const shown = connectionShown(market, positionsSignal.value.connectionFailed);
  // The countdown while connecting; once the reload alert is up it reads Offline (the engine still tries).
  const waiting = shown === 'connecting' && market.retryAtMs !== null;
  const nowMs = useSecondTick(waiting);
  const seconds = waiting ? reconnectCountdownSeconds(market.retryAtMs, nowMs) : null;
  const word = seconds !== null && seconds > 0 ? t('market.link_retry_in', { seconds }) : t(`market.link_${shown}`);
  return (
    <span className="connection-indicator" data-connection={shown} role="img" aria-label={t('market.link_label', { state: word })} title={t('market.link_label', { state: word })}>
      <span className="connection-dot" aria-hidden="true" />
      {props.compact ? null : <span aria-hidden="true">{word}</span>}
    </span>
  );
}
