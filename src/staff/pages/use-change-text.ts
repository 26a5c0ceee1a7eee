import { useTranslation } from 'react-i18next';
import { changeFieldLabelKey, describeChange, type ChangeLine } from './audit-change';

/** An audit row's or a proposal's change as labelled lines in the console's language. */
export function useChangeText() {
  const { t } = useTranslation();
  const words = { yes: t('staff.common.yes'), no: t('staff.common.no'), role: (code: string) => t(`staff.roles.${code}`, { defaultValue: code }) };
  return {
    describe: (before: unknown, after: unknown): ChangeLine[] => describeChange(before, after, words),
    fieldLabel: (field: string): string => {
      const key = changeFieldLabelKey(field);
      return key ? t(key) : field || t('staff.audit.value');
    },
  };
}
