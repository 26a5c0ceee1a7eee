import { useMemo } from 'react';
import { formatAmount, formatPrice } from '../../shared/format/amount';
import { formatDateTime } from '../../shared/format/date-time';
import { formatMoney, type Units } from '../../shared/money/money';
import { useApp } from '../app-context';

export interface BrandFormat {
  /** A money amount at the account currency's 2 decimals, with the brand's grouping ("12,345.60"). */
  amount(value: string): string;
  /** Exact money units the same way. */
  units(value: Units): string;
  /**
   * A price at its product's precision ("66886.04"); a dash when missing, and as it came
   * while the product's precision is not known yet.
   */
  price(value: string | null | undefined, precision: number | undefined): string;
  /** A time in the brand's time zone ("2026-11-23 16:16:49"); a dash when missing. */
  time(ms: number | null): string;
}

/** Amounts, prices and times as this brand shows them (grouping, time zone); stable while the config is. */
export function useBrandFormat(): BrandFormat {
  const { config } = useApp();
  const grouping = config.amountCommaGrouping;
  const timeZone = config.timeZone;
  return useMemo(
    () => ({
      amount: (value) => formatAmount(value, { grouping }),
      units: (value) => formatAmount(formatMoney(value), { grouping }),
      price: (value, precision) => (value === null || value === undefined || value === '' ? '—' : precision === undefined ? value : formatPrice(value, precision)),
      time: (ms) => (ms === null ? '—' : formatDateTime(ms, timeZone)),
    }),
    [grouping, timeZone],
  );
}
