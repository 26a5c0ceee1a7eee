import { readableTones, type SchemeName } from '../theme/contrast';
import type { OptionStatus } from '../options/option-rules';
import type { OrderStatus } from './order-rules';

/**
 * The specification's status colours (account-and-money.md): a market trade's position
 * status 1 grey (pending), 2 yellow (position), 3 blue (deal), 4 red (canceled); an option 0
 * yellow (running), 1 blue (settled). Always shown with the status's words, never alone.
 */
export type StatusTone = 'grey' | 'yellow' | 'blue' | 'red';

export const statusTones: readonly StatusTone[] = ['grey', 'yellow', 'blue', 'red'];

// Keyed by the statuses' numbers, not their objects: the theme sets these colours at the first
// load, which should not carry the trading and option rules.
const tradeTones: Record<(typeof OrderStatus)[keyof typeof OrderStatus], StatusTone> = { 1: 'grey', 2: 'yellow', 3: 'blue', 4: 'red' };

const optionTones: Record<OptionStatus, StatusTone> = { 0: 'yellow', 1: 'blue' };

/** The colour of a market trade's status (1 to 4); grey for a status the app does not know. */
export function tradeStatusTone(status: number): StatusTone {
  return tradeTones[status as keyof typeof tradeTones] ?? 'grey';
}

/** The colour of an option's status (0 running, 1 settled); grey for a status the app does not know. */
export function optionStatusTone(status: number): StatusTone {
  return optionTones[status as OptionStatus] ?? 'grey';
}

/** The hues as a designer picks them; the text tones are derived per scheme so each reads at 4.5:1. */
export const statusHues: Record<StatusTone, string> = {
  grey: '#8a94a6',
  yellow: '#e0a800',
  blue: '#2f7de1',
  red: '#e5484d',
};

/** Each status colour as text on every surface of the scheme (and its hue, for the badge's tint). */
export function statusColours(scheme: SchemeName): Record<StatusTone, { hue: string; text: string }> {
  const colours = {} as Record<StatusTone, { hue: string; text: string }>;
  for (const tone of statusTones) colours[tone] = { hue: statusHues[tone], text: readableTones(statusHues[tone], scheme).text };
  return colours;
}
