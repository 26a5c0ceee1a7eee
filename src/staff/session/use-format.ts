import { useMemo } from 'react';
import { formatAmount } from '../../shared/format/amount';
import { formatDateTime } from '../../shared/format/date-time';
import { useStaff } from './staff-context';

/** Amounts and times as the brand shows them (grouping, time zone), as the customer app does. */
export function useFormat() {
  const { config } = useStaff();
  const grouping = config.amountCommaGrouping;
  const timeZone = config.timeZone;
  return useMemo(
    () => ({
      amount: (value: string) => formatAmount(value, { grouping }),
      time: (ms: number | null) => (ms === null ? '—' : formatDateTime(ms, timeZone)),
    }),
    [grouping, timeZone],
  );
}
