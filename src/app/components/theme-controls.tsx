import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../app-context';
import { Icon } from './icons';
import { savePreferences } from '../preferences/preferences';
import { applyBrandColours, applyColourScheme, type ColourScheme } from '../theme/theme';

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

export function SchemeToggle() {
  useSignals();
  const { t } = useTranslation();
  const next: ColourScheme = colourSchemeSignal.value === 'light' ? 'dark' : 'light';
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t(`theme.${next}`)}
      title={t(`theme.${next}`)}
      onClick={() => chooseColourScheme(next)}
    >
      <Icon name={next === 'dark' ? 'moon' : 'sun'} />
    </button>
  );
}

function Swatches() {
  useSignals();
  const { t } = useTranslation();
  const { config } = useApp();
  return (
    <div className="swatches" role="radiogroup" aria-label={t('theme.colour')}>
      {config.themeColors.map((colour) => (
        <button
          key={colour}
          type="button"
          role="radio"
          aria-checked={themeColourSignal.value === colour}
          aria-label={t('theme.colour_named', { colour })}
          className="swatch"
          style={{ background: colour }}
          onClick={() => chooseThemeColour(config, colour)}
        />
      ))}
    </div>
  );
}

/** Theme colour swatches, or (`folded`) a "Theme" button that shows them. The desktop top bar moves them into its "More" menu when it runs out of room. */
export function ThemeColourControl(props: { folded: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!props.folded) return <Swatches />;
  return (
    <div className="menu">
      <button type="button" className="menu-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('theme.title')}
      </button>
      {open ? (
        <div className="menu-list">
          <Swatches />
        </div>
      ) : null}
    </div>
  );
}
