import type { Switches } from './switches';

export const tradeModes = ['market', 'option'] as const;
export type TradeMode = (typeof tradeModes)[number];

/**
 * The trade modes a user can switch between: market when the Contract switch is on,
 * option when OptionMock is on, in the brand's tab order. With one or none enabled the
 * brand's default mode is the only one.
 */
export function availableTradeModes(
  switches: Pick<Switches, 'Contract' | 'OptionMock'>,
  brand: { defaultTradeMode: TradeMode; tradeTabOrder: readonly TradeMode[] },
): TradeMode[] {
  const enabled = new Set<TradeMode>();
  if (switches.Contract) enabled.add('market');
  if (switches.OptionMock) enabled.add('option');
  if (enabled.size < 2) return [brand.defaultTradeMode];
  const ordered = brand.tradeTabOrder.filter((mode) => enabled.has(mode));
  for (const mode of tradeModes) if (enabled.has(mode) && !ordered.includes(mode)) ordered.push(mode);
  return ordered;
}

/** The mode to show: the stored choice when still available, else the first available. */
export function currentTradeMode(available: readonly TradeMode[], stored: TradeMode | undefined): TradeMode {
  if (stored && available.includes(stored)) return stored;
  return available[0] ?? 'market';
}
