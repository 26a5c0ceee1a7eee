import { useTranslation } from 'react-i18next';
import { OptionStatus } from '../../../../shared/options/option-rules';

/** The option statuses a positions screen offers as tabs: running (unsettled) and settled. */
export type OptionStatusTab = typeof OptionStatus.running | typeof OptionStatus.settled;

/** The specification's option tabs: unsettled (status 0, running) and settled (status 1); phones and the desktop board. */
export function OptionStatusTabs(props: { selected: OptionStatusTab; onSelect: (status: OptionStatusTab) => void }) {
  const { t } = useTranslation();
  return (
    <div className="type-tabs history-status-tabs" role="tablist" aria-label={t('option.status_tabs')}>
      {([OptionStatus.running, OptionStatus.settled] as const).map((status) => (
        <button key={status} type="button" role="tab" aria-selected={status === props.selected} className="type-tab" onClick={() => props.onSelect(status)}>
          {t(status === OptionStatus.running ? 'option.unsettled' : 'option.settled')}
        </button>
      ))}
    </div>
  );
}
