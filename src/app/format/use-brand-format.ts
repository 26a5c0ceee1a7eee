import { useMemo } from 'react';
import { formatAmount } from '../../shared/format/amount';
import { formatDateTime } from '../../shared/format/date-time';
import { formatMoney, type Units } from '../../shared/money/money';
import { useApp } from '../app-context';

export interface BrandFormat {
  /** A decimal amount with the brand's grouping, 2 decimals ("12,345.60"). */
  amount(value: string): string;
  /** Exact money units the same way. */
  units(value: Units): string;
  /** A time in the brand's time zone ("2026-11-23 16:16:49"); a dash when missing. */
  time(ms: number | null): string;
}

/** Amounts and times as this brand shows them (grouping, time zone); stable while the config is. */
export function useBrandFormat(): BrandFormat {
  const { config } = useApp();
  const grouping = config.amountCommaGrouping;
  const timeZone = config.timeZone;
  return useMemo(
    () => ({
      amount: (value) => formatAmount(value, { grouping }),
      units: (value) => formatAmount(formatMoney(value), { grouping }),
      time: (ms) => (ms === null ? '—' : formatDateTime(ms, timeZone)),
    }),
    [grouping, timeZone],
  );
}
