import { ProductType } from './product-types';

/**
 * How a symbol is named and pictured, for display only (the API's codes stay as they are):
 * a currency pair or a crypto pair reads "BASE/QUOTE" ("EUR/USD", "BTC/USDT"), anything else
 * its code; a forex pair is pictured by its two currencies' flags, an index by its market's
 * flag, a crypto by its coin's icon, and the rest by a monogram
 * (`scripts/symbol-logos.mjs` draws them into `public/logos/`).
 */

/** The quote currencies a pair's code may end with, longest first ("USDT" before "USD"). */
const quoteCurrencies = ['USDT', 'USDC', 'USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'CNH'] as const;

/** Each currency's flag (flag-icons' country code; the euro has the EU's). */
export const currencyFlags: Readonly<Record<string, string>> = {
  USD: 'us',
  EUR: 'eu',
  GBP: 'gb',
  JPY: 'jp',
  CHF: 'ch',
  CAD: 'ca',
  AUD: 'au',
  NZD: 'nz',
  HKD: 'hk',
  SGD: 'sg',
  CNH: 'cn',
  KRW: 'kr',
  IDR: 'id',
  THB: 'th',
};

export interface SymbolPair {
  base: string;
  quote: string;
}

/** The two currencies of a forex or crypto symbol ("EURUSD" → EUR and USD); null for any other product or a code that is no pair. */
export function symbolPair(code: string, productType: number): SymbolPair | null {
  if (productType !== ProductType.forex && productType !== ProductType.cryptos) return null;
  const upper = code.toUpperCase();
  for (const quote of quoteCurrencies) {
    if (upper.length > quote.length && upper.endsWith(quote)) {
      const base = upper.slice(0, -quote.length);
      // A forex pair is two ISO codes of three letters; a coin's code is letters and digits.
      if (productType === ProductType.forex && (base.length !== 3 || !/^[A-Z]{3}$/.test(base))) return null;
      if (!/^[A-Z0-9]{2,10}$/.test(base)) return null;
      return { base, quote };
    }
  }
  return null;
}

/** The one display name of a symbol: "BASE/QUOTE" for a pair, else the code itself. */
export function displaySymbol(code: string, productType: number): string {
  const pair = symbolPair(code, productType);
  return pair ? `${pair.base}/${pair.quote}` : code;
}

/** The flags a forex pair is pictured by (base first); null when either currency has none. */
export function pairFlags(code: string, productType: number): [string, string] | null {
  if (productType !== ProductType.forex) return null;
  const pair = symbolPair(code, productType);
  const base = pair ? currencyFlags[pair.base] : undefined;
  const quote = pair ? currencyFlags[pair.quote] : undefined;
  return base && quote ? [base, quote] : null;
}
