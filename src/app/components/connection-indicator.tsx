import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { connectionShown } from '../engine/connection-shown';
import { marketSignal, positionsSignal } from '../engine/signals';

/**
 * A small mark of the live connection (a dot and a word) for the terminal's top bar: whether
 * the prices shown are live, delayed, being reconnected or cut off. The notice and the
 * alert speak; this only shows (an image with its name, not a second live region). `compact`:
 * the dot alone, where the top bar runs out of room.
 */
export function ConnectionIndicator(props: { compact?: boolean }) {
  useSignals();
  const { t } = useTranslation();
  const shown = connectionShown(marketSignal.value, positionsSignal.value.connectionFailed);
  const word = t(`market.link_${shown}`);
  return (
    <span className="connection-indicator" data-connection={shown} role="img" aria-label={t('market.link_label', { state: word })} title={t('market.link_label', { state: word })}>
      <span className="connection-dot" aria-hidden="true" />
      {props.compact ? null : <span aria-hidden="true">{word}</span>}
    </span>
  );
}
