import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { switchesSignal } from '../app-context';
import { showToast } from '../components/toasts';
import { loggedOutHereSignal, sessionEndHeldSignal, sessionSignal } from '../engine/signals';
import { routeShowsAccountStrip } from '../layouts/account-strip-routes';
import { MobileLayout } from '../layouts/mobile-layout';
import { PhoneViewFrame } from '../layouts/phone-view-frame';
import { useIsDesktop, useViewport } from '../layouts/use-viewport';
import { signInReturnSignal } from '../pages/auth/sign-in-return';
import { loginPathFor, resolveGuard, type GuardContext } from './guards';
import { prefetchDesktop } from './desktop-prefetch';
import type { Prefetcher } from './prefetch';
import { hasScreen, isAccountPath, matchRoute, type ScreenRouteName } from './routes';
import { ScreenLoading } from './screen-loading';
import { accountDialog, desktopLayout, isLazyScreen, screens, workspaceScreen } from './screens';

/**
 * The desktop page the account dialog opens over, and returns to when it closes (path and
 * query). Kept for the tab's life, so a reload inside the dialog still closes to it.
 */
const pageUnderAccountDialogKey = 'accountDialogOver';
const pageUnderAccountDialog = {
  get(): string {
    try {
      return sessionStorage.getItem(pageUnderAccountDialogKey) ?? '/';
    } catch {
      return '/';
    }
  },
  set(path: string) {
    try {
      sessionStorage.setItem(pageUnderAccountDialogKey, path);
    } catch {
      // Storage refused (private mode quota): the dialog closes to the start page instead.
    }
  },
};

/** A route's screen; the desktop start page is the trading workspace. A screen still on its way shows its frame. */
function screenFor(name: ScreenRouteName, params: Record<string, string>, isDesktop: boolean): ReactNode {
  const screen = isDesktop && name === 'home' ? workspaceScreen : screens[name];
  if (!isLazyScreen(screen)) {
    const View = screen;
    return <View params={params} />;
  }
  return (
    <Suspense fallback={<ScreenLoading />}>
      <screen.Component params={params} />
    </Suspense>
  );
}

/** The desktop frame, fetched on desktops only; the page's frame shows until it is there. */
function DesktopLayout(props: { children: ReactNode; overlay?: ReactNode; accountStrip: boolean }) {
  return (
    <Suspense fallback={<ScreenLoading />}>
      <desktopLayout.Component overlay={props.overlay} accountStrip={props.accountStrip}>
        {props.children}
      </desktopLayout.Component>
    </Suspense>
  );
}

/**
 * Screens are fetched ahead of navigation: a link's as it is pointed at, touched or focused, and
 * on idle those the current screen links to (read again after each navigation and sign-in or
 * out, through the guard as it then decides); the desktop's terminal with the first load.
 */
function usePrefetching(isDesktop: boolean, guardContext: GuardContext, location: string) {
  const context = useRef(guardContext);
  const prefetcher = useRef<Prefetcher | null>(null);
  useEffect(() => {
    context.current = guardContext;
  });
  useEffect(() => {
    // Fetched after the first screen: nothing of it is needed before the first price.
    let stopped = false;
    void import('./prefetch').then(({ startPrefetching }) => {
      if (stopped) return;
      prefetcher.current = startPrefetching(() => context.current);
    });
    return () => {
      stopped = true;
      prefetcher.current?.stop();
      prefetcher.current = null;
    };
  }, []);
  useEffect(() => {
    prefetcher.current?.lookAgain();
  }, [location, guardContext.signedIn]);
  useEffect(() => {
    if (isDesktop) prefetchDesktop();
  }, [isDesktop]);
}

/** The screen of a guarded path where it renders, else null. */
function screenOfPath(path: string, search: string, context: GuardContext, isDesktop: boolean): ReactNode | null {
  const decision = resolveGuard(path, search, context);
  if (decision.kind !== 'render' || !hasScreen(decision.match.route.name)) return null;
  return screenFor(decision.match.route.name, decision.match.params, isDesktop);
}

/** Where a tab goes when the session ends under it, by the reason it ended. */
function useSessionEndNavigation() {
  const [location, navigate] = useLocation();
  const session = sessionSignal.value;
  const held = sessionEndHeldSignal.value;
  useEffect(() => {
    if (session.signedIn || !session.endReason || held) return;
    if (session.endReason === 'expired' || session.endReason === 'invalid') navigate('/', { replace: true });
    // Ended elsewhere or refused: sign in again and come back here, whichever request or socket
    // noticed first; the end of a log-out made in this tab goes to plain sign-in.
    if ((session.endReason === 'ended-by-server' || session.endReason === 'unauthorized') && location !== '/login') {
      navigate(loggedOutHereSignal.peek() ? '/login' : loginPathFor(location), { replace: true });
    }
    // Only a change of session triggers this, not every navigation afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.version, held]);
}

export function AppRoutes() {
  useSignals();
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const isDesktop = useIsDesktop();
  const viewport = useViewport();
  useSessionEndNavigation();
  const session = sessionSignal.value;
  // A new sign-in forgets this tab's last log-out.
  useEffect(() => {
    if (session.signedIn) loggedOutHereSignal.value = false;
  }, [session.signedIn]);
  const guardContext: GuardContext = {
    // A held end (a changed password's 1 second) keeps the page where it is until it is let go.
    signedIn: session.signedIn || sessionEndHeldSignal.value,
    book: session.book,
    switches: switchesSignal.value,
    hasScreen,
    // However the session ended (the log-out call, or the server's end of it noticed first).
    loggedOut: !session.signedIn && loggedOutHereSignal.value,
  };
  usePrefetching(isDesktop, guardContext, location);
  let decision = resolveGuard(location, search, guardContext);
  // This tab's own sign-in: go where it is heading, not home with "already signed in".
  const signInReturn = signInReturnSignal.value;
  if (decision.kind === 'redirect' && decision.notice === 'notice.already_logged_in' && signInReturn) {
    decision = { kind: 'redirect', to: signInReturn };
  }

  const accountArea = isDesktop && isAccountPath(location);
  const rendered = decision.kind === 'render';
  useEffect(() => {
    // Remembered only where the page renders (never a sign-in page a signed-in user is sent away from).
    if (isDesktop && rendered && !isAccountPath(location)) pageUnderAccountDialog.set(`${location}${search ? `?${search.replace(/^\?/, '')}` : ''}`);
  }, [isDesktop, rendered, location, search]);

  const redirectTo = decision.kind === 'redirect' ? decision.to : null;
  const notice = decision.kind === 'redirect' ? decision.notice : undefined;
  useEffect(() => {
    if (!redirectTo) return;
    if (notice) showToast('info', t(notice));
    navigate(redirectTo, { replace: true });
  }, [redirectTo, notice, navigate, t]);

  if (decision.kind === 'redirect') return null;
  const { route, params } = decision.match;
  if (!hasScreen(route.name)) return null; // the guard redirected already
  const content = screenFor(route.name, params, isDesktop);

  if (accountArea) {
    // The account pages open in one dialog over the page they were opened from.
    const over = pageUnderAccountDialog.get();
    const [underPath, underSearch = ''] = over.split('?');
    const under = screenOfPath(underPath ?? '/', underSearch, guardContext, true) ?? screenOfPath('/', '', guardContext, true);
    const overlay = (
      // Fetched with the desktop frame at start-up, so nothing stands in for it.
      <Suspense fallback={null}>
        <accountDialog.Component route={route.name} onClose={() => navigate(over)}>
          {content}
        </accountDialog.Component>
      </Suspense>
    );
    return (
      <DesktopLayout overlay={overlay} accountStrip={routeShowsAccountStrip(matchRoute(underPath ?? '/')?.route.name)}>
        {under}
      </DesktopLayout>
    );
  }
  const accountStrip = routeShowsAccountStrip(route.name);
  if (isDesktop) return <DesktopLayout accountStrip={accountStrip}>{content}</DesktopLayout>;
  const mobile = (
    <MobileLayout showTabBar={'tabBar' in route && route.tabBar === true} accountStrip={accountStrip}>
      {content}
    </MobileLayout>
  );
  return viewport.phoneView ? <PhoneViewFrame width={viewport.width}>{mobile}</PhoneViewFrame> : mobile;
}
