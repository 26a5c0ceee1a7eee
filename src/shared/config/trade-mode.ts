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

/**
 * Whether the brand offers a trade mode, as the server checks an order against it: the
 * mode's switch is on (Contract for market, OptionMock for option). With neither on, the
 * brand's default mode applies (see `availableTradeModes`), which the server does not
 * know, so then neither is refused.
 */
export function tradeModeOffered(switches: Pick<Switches, 'Contract' | 'OptionMock'>, mode: TradeMode): boolean {
  if (!switches.Contract && !switches.OptionMock) return true;
  return mode === 'market' ? switches.Contract : switches.OptionMock;
}
