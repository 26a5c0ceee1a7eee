import { useSignals } from '@preact/signals-react/runtime';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useApp } from '../app-context';
import { AccountMenu } from '../features/account/account-menu';
import { BookSwitch } from '../features/account/book-switch';
import { LanguagePicker } from '../components/language-picker';
import { TradeModeSwitch } from '../features/trading/trade-mode-switch';
import { SchemeToggle, ThemeColourControl } from '../components/theme-controls';
import { DebugTapTarget } from '../debug/debug-console';
import {
  orderListSignal,
  placePanelOpenSignal,
  quoteListDefaultMinHeightPx,
  quotePanelOpenSignal,
  searchPanelOpenSignal,
  type OrderListKind,
} from '../features/workspace/selection';
import { CandleTypePicker, IndicatorButton, PeriodSelect } from '../features/chart/chart-tools';
import { desktopPathShowsChart } from './chart-controls';
import { PhoneViewButton } from './phone-view-frame';
import { swatchesMinWidthPx, useViewport } from './use-viewport';
import { Icon } from '../components/icons';


/** The place-order toggle, the search button and the quote-list toggle: panels of the start page. */
function WorkspaceToggles() {
  useSignals();
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const { height } = useViewport();
  const quotesOpen = quotePanelOpenSignal.value ?? height > quoteListDefaultMinHeightPx;
  const onWorkspace = location === '/';
  return (
    <>
      <button
        type="button"
        className="tool-button"
        aria-pressed={onWorkspace && placePanelOpenSignal.value}
        onClick={() => {
          placePanelOpenSignal.value = onWorkspace ? !placePanelOpenSignal.peek() : true;
          if (!onWorkspace) navigate('/');
        }}
      >
        {t('desktop.place_order')}
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={t('common.search')}
        aria-pressed={onWorkspace && searchPanelOpenSignal.value}
        onClick={() => {
          searchPanelOpenSignal.value = onWorkspace ? !searchPanelOpenSignal.peek() : true;
          if (!onWorkspace) navigate('/');
        }}
      >
        <Icon name="search" />
      </button>
      <button
        type="button"
        className="tool-button"
        aria-pressed={onWorkspace && quotesOpen}
        onClick={() => {
          quotePanelOpenSignal.value = onWorkspace ? !quotesOpen : true;
          if (!onWorkspace) navigate('/');
        }}
      >
        {t('desktop.quote_list')}
      </button>
    </>
  );
}

const sideLinks = [
  { path: '/', labelKey: 'nav.home' },
  { path: '/quotation', labelKey: 'page.quotation' },
] as const;

const sideLists: readonly { kind: OrderListKind; labelKey: string }[] = [
  { kind: 'positions', labelKey: 'desktop.side_positions' },
  { kind: 'history', labelKey: 'desktop.side_history' },
];

/** The rail's page links: where the window goes, the current one marked. */
function SideLinks() {
  const { t } = useTranslation();
  const [location] = useLocation();
  return (
    <nav className="side-links" aria-label={t('nav.main')}>
      <ul>
        {sideLinks.map((link) => (
          <li key={link.path}>
            <Link href={link.path} className="side-link" aria-current={location === link.path ? 'page' : undefined}>
              {t(link.labelKey)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The rail's panel toggles: show or hide the start page's order list (positions or history); pressed while shown. */
function SideToggles() {
  useSignals();
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const onWorkspace = location === '/';
  return (
    <div className="side-toggles" role="group" aria-labelledby="side-toggles-title">
      <span id="side-toggles-title" className="side-group-title">
        {t('desktop.panels')}
      </span>
      {sideLists.map((entry) => {
        const shown = onWorkspace && orderListSignal.value === entry.kind;
        return (
          <button
            key={entry.kind}
            type="button"
            className="side-toggle"
            aria-pressed={shown}
            onClick={() => {
              orderListSignal.value = shown ? null : entry.kind;
              if (!onWorkspace) navigate('/');
            }}
          >
            <span className="side-toggle-mark" aria-hidden="true" />
            {t(entry.labelKey)}
          </button>
        );
      })}
    </div>
  );
}

/**
 * Desktop: the top bar (its chart controls only where a chart is), the side rail (page
 * links, then panel toggles) and the panel area. Template 1 puts the rail on the right.
 */
export function DesktopLayout(props: { children: ReactNode }) {
  const { config } = useApp();
  const [location] = useLocation();
  const { width } = useViewport();
  return (
    <div className={`desktop-layout template-${config.desktopTemplate}`}>
      <header className="top-bar">
        <DebugTapTarget className="brand">{config.siteName}</DebugTapTarget>
        <TradeModeSwitch />
        <WorkspaceToggles />
        {desktopPathShowsChart(location) ? (
          <>
            <PeriodSelect />
            <CandleTypePicker />
            <IndicatorButton />
          </>
        ) : null}
        <span className="top-bar-spacer" />
        <ThemeColourControl folded={width <= swatchesMinWidthPx} />
        <SchemeToggle />
        <PhoneViewButton />
        <LanguagePicker compact={width <= swatchesMinWidthPx} />
        <BookSwitch />
        <AccountMenu />
      </header>
      <div className="desktop-body">
        {/* Page links and panel toggles apart: they do different things and look it. */}
        <div className="side-rail">
          <SideLinks />
          <SideToggles />
        </div>
        <main className="desktop-main">{props.children}</main>
      </div>
    </div>
  );
}
