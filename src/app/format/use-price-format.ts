import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent, formatPrice } from '../../shared/format/amount';
import { useApp } from '../app-context';

/**
 * Prices and percentages only, as `useBrandFormat` shows them (the same formatter): what the
 * first screen's quote rows and hot cards need, without the amounts' and times' modules.
 */
export interface PriceFormat {
  /** A price at its product's precision, grouped ("66,886.04"); a dash when missing, as it came while the precision is unknown. */
  price(value: string | null | undefined, precision: number | undefined): string;
  /** A percentage at 2 decimals ("80.00%"), signed when asked ("+1.25%"). */
  percent(value: string, signed?: boolean): string;
}

/** The price formatter of a brand's grouping for one language. */
export function priceFormat(options: { grouping: boolean; language: string }): PriceFormat {
  return {
    price: (value, precision) => (value === null || value === undefined || value === '' ? '—' : precision === undefined ? value : formatPrice(value, precision, options)),
    percent: (value, signed) => formatPercent(value, { ...options, signed }),
  };
}

/** Prices and percentages as this brand shows them to this reader. */
export function usePriceFormat(): PriceFormat {
  const { config } = useApp();
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const grouping = config.amountCommaGrouping;
  return useMemo(() => priceFormat({ grouping, language }), [grouping, language]);
}
