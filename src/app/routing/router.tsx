import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { switchesSignal } from '../app-context';
import { showToast } from '../components/toasts';
import { sessionSignal } from '../engine/signals';
import { DesktopLayout } from '../layouts/desktop-layout';
import { MobileLayout } from '../layouts/mobile-layout';
import { useIsDesktop } from '../layouts/use-viewport';
import { LoginPage } from '../pages/auth/login-page';
import { ChartPage } from '../pages/chart/chart-page';
import { ExplorePage } from '../pages/explore/explore-page';
import { FramePage } from '../pages/frame/frame-page';
import { HomePage } from '../pages/home/home-page';
import { QuotationPage } from '../pages/quotation/quotation-page';
import { SearchPage } from '../pages/search/search-page';
import { ServicePage } from '../pages/service/service-page';
import { WorkspacePage } from '../pages/workspace/workspace-page';
import { loginPathFor, resolveGuard } from './guards';
import type { RouteName } from './routes';

/** Views built so far; every other route shows its layout frame. */
const views: Partial<Record<RouteName, ComponentType<{ params: Record<string, string> }>>> = {
  home: HomePage,
  explore: ExplorePage,
  login: LoginPage,
  quotation: QuotationPage,
  search: SearchPage,
  chart: ChartPage,
  'user-service': ServicePage,
};

/** Where a tab goes when the session ends under it, by the reason it ended. */
function useSessionEndNavigation() {
  const [location, navigate] = useLocation();
  const session = sessionSignal.value;
  useEffect(() => {
    if (session.signedIn || !session.endReason) return;
    if (session.endReason === 'expired' || session.endReason === 'invalid') navigate('/', { replace: true });
    if (session.endReason === 'ended-by-server') navigate('/login', { replace: true });
    if (session.endReason === 'unauthorized') navigate(loginPathFor(location), { replace: true });
    // Only a change of session triggers this, not every navigation afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.version]);
}

export function AppRoutes() {
  useSignals();
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const isDesktop = useIsDesktop();
  useSessionEndNavigation();
  const session = sessionSignal.value;
  const decision = resolveGuard(location, search, {
    signedIn: session.signedIn,
    accountMode: session.accountMode,
    switches: switchesSignal.value,
  });

  const redirectTo = decision.kind === 'redirect' ? decision.to : null;
  const notice = decision.kind === 'redirect' ? decision.notice : undefined;
  useEffect(() => {
    if (!redirectTo) return;
    if (notice) showToast('info', t(notice));
    navigate(redirectTo, { replace: true });
  }, [redirectTo, notice, navigate, t]);

  if (decision.kind === 'redirect') return null;
  const { route, params } = decision.match;
  // The desktop start page is the trading workspace.
  const View = isDesktop && route.name === 'home' ? WorkspacePage : views[route.name];
  const content = View ? <View params={params} /> : <FramePage titleKey={route.titleKey} />;

  return isDesktop ? (
    <DesktopLayout>{content}</DesktopLayout>
  ) : (
    <MobileLayout showTabBar={'tabBar' in route && route.tabBar === true}>{content}</MobileLayout>
  );
}
