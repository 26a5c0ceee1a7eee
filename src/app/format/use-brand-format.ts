import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatQuantity } from '../../shared/format/amount';
import { formatDateTime, formatPriceTime } from '../../shared/format/date-time';
import { formatMoney, type Units } from '../../shared/money/money';
import { useApp } from '../app-context';
import { priceFormat } from './use-price-format';

export interface BrandFormat {
  /**
   * A money amount at the account currency's 2 decimals (or `decimals`), with the brand's
   * grouping in the reader's marks ("12,345.60", "12.345,60"), and its unit when given.
   */
  amount(value: string, unit?: string, decimals?: number): string;
  /** A coin amount at its own digits (2 to 8) with its unit ("0.0005 BTC", "1,500.00 USDT"). */
  quantity(value: string, unit: string): string;
  /** Exact money units the same way. */
  units(value: Units, unit?: string, decimals?: number): string;
  /**
   * A price at its product's precision, grouped as the amounts ("66,886.04"); a dash when
   * missing, and as it came while the product's precision is not known yet.
   */
  price(value: string | null | undefined, precision: number | undefined): string;
  /** A percentage at 2 decimals ("80.00%"), signed when asked ("+1.25%"). */
  percent(value: string, signed?: boolean): string;
  /** A time in the brand's time zone ("2026-11-23 16:16:49"); a dash when missing. */
  time(ms: number | null): string;
  /** A time in a records list, as the spec dates list rows ("11-23 16:16:49"); a dash when missing. */
  listTime(ms: number | null): string;
}

/** Amounts, prices and times as this brand shows them to this reader (grouping, marks, time zone). */
export function useBrandFormat(): BrandFormat {
  const { config } = useApp();
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const grouping = config.amountCommaGrouping;
  const timeZone = config.timeZone;
  return useMemo(() => brandFormat({ grouping, language, timeZone }), [grouping, language, timeZone]);
}

/** The formatter of a brand's grouping and time zone for one language (also outside React: the quote rows' painter). */
export function brandFormat(options: { grouping: boolean; language: string; timeZone: Parameters<typeof formatDateTime>[1] }): BrandFormat {
  const { grouping, language, timeZone } = options;
  const numbers = { grouping, language };
  const prices = priceFormat(numbers);
  return {
    amount: (value, unit, decimals) => formatAmount(value, { ...numbers, unit, decimals }),
    quantity: (value, unit) => formatQuantity(value, { ...numbers, unit }),
    units: (value, unit, decimals) => formatAmount(formatMoney(value), { ...numbers, unit, decimals }),
    price: prices.price,
    percent: prices.percent,
    time: (ms) => (ms === null ? '—' : formatDateTime(ms, timeZone)),
    listTime: (ms) => (ms === null ? '—' : formatPriceTime(ms, timeZone)),
  };
}
