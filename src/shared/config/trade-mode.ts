import type { Switches } from './switches';

export const tradeModes = ['market', 'option'] as const;
export type TradeMode = (typeof tradeModes)[number];

/** A brand's trade-mode settings (config.json), and what a brand that sets none has. */
export interface BrandTradeModes {
  defaultTradeMode: TradeMode;
  tradeTabOrder: readonly TradeMode[];
}
export const brandTradeModeDefaults: BrandTradeModes = { defaultTradeMode: 'market', tradeTabOrder: ['market', 'option'] };

/**
 * The trade modes the brand offers (the specification, "Trade mode": the list is built from
 * the enabled Contract and OptionMock switches; with only one enabled, or none set, the
 * default mode applies). Both on: both, in the brand's tab order. Only one on, or none: the
 * brand's `defaultTradeMode` alone, whichever switch is on. The app shows these and the
 * server refuses an order in any other (304 / 603), so the two always agree.
 */
export function availableTradeModes(switches: Pick<Switches, 'Contract' | 'OptionMock'>, brand: BrandTradeModes): TradeMode[] {
  if (!switches.Contract || !switches.OptionMock) return [brand.defaultTradeMode];
  const ordered = [...brand.tradeTabOrder];
  for (const mode of tradeModes) if (!ordered.includes(mode)) ordered.push(mode);
  return ordered;
}

/** The mode to show: the stored choice when still available, else the first available. */
export function currentTradeMode(available: readonly TradeMode[], stored: TradeMode | undefined): TradeMode {
  if (stored && available.includes(stored)) return stored;
  return available[0] ?? 'market';
}

/** Whether the brand offers a trade mode, as the server checks an order against it: one of {@link availableTradeModes}. */
export function tradeModeOffered(switches: Pick<Switches, 'Contract' | 'OptionMock'>, brand: BrandTradeModes, mode: TradeMode): boolean {
  return availableTradeModes(switches, brand).includes(mode);
}
