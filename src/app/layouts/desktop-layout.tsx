import { useSignals } from '@preact/signals-react/runtime';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useApp } from '../app-context';
import { AccountMenu } from '../features/account/account-menu';
import { AccountStrip } from '../features/account/account-strip';
import { BookSwitch } from '../features/account/book-switch';
import { ConnectionIndicator } from '../components/connection-indicator';
import { LanguagePicker } from '../components/language-picker';
import { TradeModeSwitch } from '../features/trading/trade-mode-switch';
import { SchemeToggle, ThemeColourControl } from '../components/theme-controls';
import { DebugTapTarget } from '../debug/debug-console';
import { orderListSignal, type OrderListKind } from '../features/workspace/selection';
import { sessionSignal } from '../engine/signals';
import { CandleTypePicker, IndicatorButton, PeriodSelect } from '../features/chart/chart-tools';
import { desktopPathShowsChart } from './chart-controls';
import { PhoneViewButton } from './phone-view-frame';
import { foldedTopBarItems } from './top-bar-folding';
import { TopBarMoreMenu } from './top-bar-more-menu';
import { useTopBarFoldLevel } from './use-top-bar-fit';
import { WorkspaceToggles } from './workspace-toggles';
import '../styles/account-dialog.css';
import { BrandLogo } from '../components/brand-logo';


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
 * The desktop top bar: the trade-mode switch, the start page's panel toggles, the chart
 * controls (only where a chart is), then the secondary controls, the account switch and the
 * user card. Secondary controls fold into "More" as the bar runs out of room.
 */
function TopBar() {
  useSignals();
  const { config } = useApp();
  const { i18n } = useTranslation();
  const [location] = useLocation();
  const session = sessionSignal.value;
  const bar = useRef<HTMLElement>(null);
  const showsChart = desktopPathShowsChart(location);
  const level = useTopBarFoldLevel(bar, `${i18n.language} ${location} ${session.signedIn ? (session.book ?? 'real') : 'visitor'}`);
  const folded = foldedTopBarItems(level);
  const showsIndicators = showsChart && !folded.has('indicators');
  return (
    <header className="top-bar" ref={bar}>
      <DebugTapTarget className="brand">
        <BrandLogo src={config.logo} />
        {config.siteName}
      </DebugTapTarget>
      <ConnectionIndicator compact={folded.has('connectionWord')} />
      <TradeModeSwitch />
      <WorkspaceToggles hidden={folded} />
      {showsChart ? (
        <>
          <PeriodSelect />
          <CandleTypePicker />
          {showsIndicators ? <IndicatorButton /> : null}
        </>
      ) : null}
      <span className="top-bar-spacer" />
      {folded.has('themeColour') ? null : <ThemeColourControl folded={false} />}
      {folded.has('colourScheme') ? null : <SchemeToggle />}
      {folded.has('phoneView') ? null : <PhoneViewButton />}
      {folded.has('language') ? null : <LanguagePicker />}
      {level > 0 ? <TopBarMoreMenu folded={folded} showsChart={showsChart} /> : null}
      <BookSwitch />
      <AccountMenu compact={folded.has('userName')} />
    </header>
  );
}

/**
 * Desktop: the top bar, the side rail (page links, then panel toggles) and the panel
 * area, with the account strip below on trading screens. Template 1 puts the rail on the right. `overlay` (the account dialog) sits over
 * it all, and what is beneath is inert until it closes.
 */
export function DesktopLayout(props: { children: ReactNode; overlay?: ReactNode; accountStrip?: boolean }) {
  const { config } = useApp();
  const { t } = useTranslation();
  const beneath = props.overlay ? true : undefined;
  return (
    <div className={`desktop-layout template-${config.desktopTemplate}`}>
      <div className="desktop-frame" inert={beneath} aria-hidden={beneath}>
        <TopBar />
        <div className="desktop-body">
          {/* Page links and panel toggles apart: they do different things and look it. */}
          <aside className="side-rail" aria-label={t('desktop.side_rail')}>
            <SideLinks />
            <SideToggles />
          </aside>
          <main className="desktop-main">{props.children}</main>
        </div>
        {props.accountStrip ? <AccountStrip withConnection={false} /> : null}
      </div>
      {props.overlay}
    </div>
  );
}
