import { useSignals } from '@preact/signals-react/runtime';
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { enabledLanguages, languages } from '../../shared/i18n/languages';
import { useApp } from '../app-context';
import { flagUrls } from '../components/flags';
import { Icon } from '../components/icons';
import { chooseLanguage } from '../i18n/choose-language';
import { chooseColourScheme, chooseThemeColour, colourSchemeSignal, themeColourSignal } from '../theme/theme-choice';
import { IndicatorDialog } from '../features/chart/chart-tools';
import type { FoldableTopBarItem } from './top-bar-folding';
import { choosePhoneView } from './use-viewport';
import { useWorkspaceToggles } from './workspace-toggles';

const menuItemSelector = '[role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"]';

/** A labelled run of items inside the menu (the theme colours, the languages). */
function MenuGroup(props: { label: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={props.label} className="more-menu-group">
      <div className="more-menu-group-title" aria-hidden="true">
        {props.label}
      </div>
      {props.children}
    </div>
  );
}

/**
 * The top bar's "More" button: the controls that gave way (see `top-bar-folding.ts`) as a
 * menu, in the bar's own order. Arrow keys, Home and End move between items, Escape closes
 * and returns to the button; choosing an item does what the control did and closes the menu.
 */
export function TopBarMoreMenu(props: { folded: ReadonlySet<FoldableTopBarItem>; showsChart: boolean }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const { config } = useApp();
  const [open, setOpen] = useState(false);
  const [indicatorsOpen, setIndicatorsOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const workspaceToggles = useWorkspaceToggles();

  // Before paint: the first item has focus as the menu appears (a key pressed at once goes to it).
  useLayoutEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>(menuItemSelector)?.focus();
    const closeOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOutside);
    return () => document.removeEventListener('mousedown', closeOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const choose = (action: () => void) => {
    action();
    close();
  };

  const onMenuKey = (event: ReactKeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>(menuItemSelector) ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focus = (index: number) => items[(index + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown') focus(at + 1);
    else if (event.key === 'ArrowUp') focus(at - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(items.length - 1);
    else if (event.key === 'Escape') close();
    else if (event.key === 'Tab') setOpen(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  const folded = props.folded;
  const nextScheme = colourSchemeSignal.value === 'light' ? 'dark' : 'light';
  const current = languages.find((language) => language.code === i18n.language) ?? languages[0];

  return (
    <div className="menu more-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        {t('desktop.more')}
      </button>
      {open ? (
        <div ref={menu} id={menuId} className="menu-list more-menu-list" role="menu" aria-label={t('desktop.more')} onKeyDown={onMenuKey}>
          {workspaceToggles
            .filter((toggle) => folded.has(toggle.key))
            .map((toggle) => (
                <button key={toggle.key} type="button" role="menuitemcheckbox" aria-checked={toggle.shown} tabIndex={-1} onClick={() => choose(toggle.toggle)}>
                  <span className="more-menu-check" aria-hidden="true" />
                  {toggle.label}
                </button>
              ))}
          {folded.has('indicators') && props.showsChart ? (
            <button type="button" role="menuitem" tabIndex={-1} onClick={() => choose(() => setIndicatorsOpen(true))}>
              {t('chart.indicators')}
            </button>
          ) : null}
          {folded.has('colourScheme') ? (
            <button type="button" role="menuitem" tabIndex={-1} onClick={() => choose(() => chooseColourScheme(nextScheme))}>
              <Icon name={nextScheme === 'dark' ? 'moon' : 'sun'} />
              {t(`theme.${nextScheme}`)}
            </button>
          ) : null}
          {folded.has('phoneView') ? (
            <button type="button" role="menuitem" tabIndex={-1} onClick={() => choose(() => choosePhoneView(true))}>
              {t('desktop.phone_view')}
            </button>
          ) : null}
          {folded.has('themeColour') ? (
            <MenuGroup label={t('theme.colour')}>
              <div className="more-menu-swatches">
                {config.themeColors.map((colour) => (
                  <button
                    key={colour}
                    type="button"
                    role="menuitemradio"
                    aria-checked={themeColourSignal.value === colour}
                    aria-label={t('theme.colour_named', { colour })}
                    title={colour}
                    tabIndex={-1}
                    className="swatch"
                    style={{ background: colour }}
                    onClick={() => choose(() => chooseThemeColour(config, colour))}
                  />
                ))}
              </div>
            </MenuGroup>
          ) : null}
          {folded.has('language') ? (
            <MenuGroup label={t('common.language')}>
              {enabledLanguages(config).map((language) => (
                <button
                  key={language.code}
                  type="button"
                  role="menuitemradio"
                  aria-checked={language.code === current.code}
                  lang={language.code}
                  tabIndex={-1}
                  onClick={() => choose(() => void chooseLanguage(language.code))}
                >
                  <img className="flag" src={flagUrls[language.flag]} alt="" width={20} height={15} />
                  {language.name}
                </button>
              ))}
            </MenuGroup>
          ) : null}
        </div>
      ) : null}
      {indicatorsOpen ? <IndicatorDialog onClose={() => setIndicatorsOpen(false)} /> : null}
    </div>
  );
}
