import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/date-time';
import { useStaff } from '../session/staff-context';
import { changeFieldLabelParts, describeChange, type ChangeLine, type ChangeWords } from './audit-change';
import { amountText } from './review-facts';

/** Where under `staff.` a coded value's words are, by its field: review statuses, then proposals' (voided, proposed). */
const wordKeys = {
  status: ['statuses', 'proposals.statuses'],
  kind: ['kinds', 'proposals.kinds'],
  decision: ['decisions'],
  via: ['audit.vias'],
} as const;

/** An audit row's or a proposal's change as labelled lines in the console's language, its values formatted. */
export function useChangeText() {
  const { t, i18n } = useTranslation();
  const { config } = useStaff();
  const words: ChangeWords = {
    yes: t('staff.common.yes'),
    no: t('staff.common.no'),
    role: (code: string) => t(`staff.roles.${code}`, { defaultValue: code }),
    amount: (value: string) => amountText(value, config.amountCommaGrouping),
    time: (ms: number) => formatDateTime(ms, config.timeZone),
    word: (field, code) => {
      const key = wordKeys[field].map((base) => `staff.${base}.${code}`).find((candidate) => i18n.exists(candidate));
      return key ? t(key) : null;
    },
  };
  return {
    describe: (before: unknown, after: unknown): ChangeLine[] => describeChange(before, after, words),
    fieldLabel: (field: string): string => {
      const parts = changeFieldLabelParts(field);
      if (parts.length === 0) return t('staff.audit.value');
      return parts.map((part) => ('key' in part ? t(part.key, part.params) : part.text)).join(' › ');
    },
  };
}
