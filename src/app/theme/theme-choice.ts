import { signal } from '@preact/signals-react';
import { savePreferences } from '../preferences/preferences';
import { applyBrandColours, applyColourScheme, type ColourScheme } from './theme';

/**
 * The colour scheme and brand colour shown, and choosing them (remembered). Apart from their
 * controls (components/theme-controls.tsx): the start sets them, the controls come with the
 * screens that show them.
 */

export const colourSchemeSignal = signal<ColourScheme>('light', { name: 'colourScheme' });
export const themeColourSignal = signal<string>('#2f6bff', { name: 'themeColour' });

/** Light ⇄ dark, remembered: the toggle's and the top bar's "More" menu's one action. */
export function chooseColourScheme(scheme: ColourScheme): void {
  colourSchemeSignal.value = scheme;
  void applyColourScheme(scheme);
  void savePreferences({ colourScheme: scheme });
}

/** The brand colour the theme is drawn in, remembered. */
export function chooseThemeColour(config: Parameters<typeof applyBrandColours>[0], colour: string): void {
  themeColourSignal.value = colour;
  applyBrandColours(config, colour);
  void savePreferences({ themeColour: colour });
}
