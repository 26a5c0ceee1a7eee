import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../app-context';
import { Icon } from './icons';
import type { ColourScheme } from '../theme/theme';
import { chooseColourScheme, chooseThemeColour, colourSchemeSignal, themeColourSignal } from '../theme/theme-choice';

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
