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
      onClick={() => {
        colourSchemeSignal.value = next;
        void applyColourScheme(next);
        void savePreferences({ colourScheme: next });
      }}
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
          onClick={() => {
            themeColourSignal.value = colour;
            applyBrandColours(config, colour);
            void savePreferences({ themeColour: colour });
          }}
        />
      ))}
    </div>
  );
}

/** Theme colour swatches in the top bar above 1600 px wide, else folded into a menu. */
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
