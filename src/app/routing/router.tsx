import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { switchesSignal } from '../app-context';
import { showToast } from '../components/toasts';
import { sessionSignal } from '../engine/signals';
import { AccountDialog } from '../layouts/account-dialog';
import { DesktopLayout } from '../layouts/desktop-layout';
import { MobileLayout } from '../layouts/mobile-layout';
import { PhoneViewFrame } from '../layouts/phone-view-frame';
import { useIsDesktop, useViewport } from '../layouts/use-viewport';
import { ForgotPage } from '../pages/auth/forgot-page';
import { LoginPage } from '../pages/auth/login-page';
import { RegisterPage } from '../pages/auth/register-page';
import { signInReturnSignal } from '../pages/auth/sign-in-return';
import { TwoFactorPage } from '../pages/auth/two-factor-page';
import { ChartPage } from '../pages/chart/chart-page';
import { ExplorePage } from '../pages/explore/explore-page';
import { HistoryPage } from '../pages/history/history-page';
import { HomePage } from '../pages/home/home-page';
import { OptionPlacePage } from '../pages/option/option-place-page';
import { PlacePage } from '../pages/place/place-page';
import { PositionPage } from '../pages/position/position-page';
import { QuotationPage } from '../pages/quotation/quotation-page';
import { SearchPage } from '../pages/search/search-page';
import { ServicePage } from '../pages/service/service-page';
import { AccountPage } from '../pages/user/account-page';
import { AgreementPage } from '../pages/user/agreement-page';
import { InvitePage } from '../pages/user/invite-page';
import { PrivacyPage, StandardsPage } from '../pages/user/static-pages';
import { DepositListPage } from '../pages/user/deposit-list-page';
import { NotificationPage } from '../pages/user/notification-page';
import { ChangePasswordPage } from '../pages/user/change-password-page';
import { BindEmailPage } from '../pages/user/bind-email-page';
import { TransactionListPage } from '../pages/user/transaction-list-page';
import { DepositPage } from '../pages/user/deposit-page';
import { JuniorVerifiedPage, VerifiedPage } from '../pages/user/verified-page';
import { MyWalletPage } from '../pages/user/my-wallet-page';
import { UserHubPage } from '../pages/user/user-hub-page';
import { WalletHubPage } from '../pages/user/wallet-hub-page';
import { AddBankCardPage } from '../pages/withdraw/add-bank-card-page';
import { AddCryptoPage } from '../pages/withdraw/add-crypto-page';
import { BankCardPage } from '../pages/withdraw/bank-card-page';
import { CryptoWalletPage } from '../pages/withdraw/crypto-wallet-page';
import { DeleteCryptoPage } from '../pages/withdraw/delete-crypto-page';
import { EditBankCardPage } from '../pages/withdraw/edit-bank-card-page';
import { WithdrawPage } from '../pages/withdraw/withdraw-page';
import { LoanPage } from '../pages/user/loan-page';
import { WorkspacePage } from '../pages/workspace/workspace-page';
import { isAccountPath } from '../features/account/account-entries';
import { loginPathFor, resolveGuard, type GuardContext } from './guards';
import { hasScreen, type ScreenRouteName } from './routes';

/** The screen of every route that has one (`routesWithScreens`); the guard sends the others home. */
const views: Record<ScreenRouteName, ComponentType<{ params: Record<string, string> }>> = {
  home: HomePage,
  explore: ExplorePage,
  login: LoginPage,
  register: RegisterPage,
  forgot: ForgotPage,
  quotation: QuotationPage,
  search: SearchPage,
  chart: ChartPage,
  place: PlacePage,
  'place-option': OptionPlacePage,
  position: PositionPage,
  history: HistoryPage,
  user: UserHubPage,
  'user-my-wallet': MyWalletPage,
  'user-wallet': WalletHubPage,
  'user-service': ServicePage,
  'user-two-factor': TwoFactorPage,
  'user-wallet-deposits': DepositListPage,
  'user-wallet-transactions': TransactionListPage,
  'user-agreement': AgreementPage,
  'user-deposit': DepositPage,
  'user-wallet-crypto': CryptoWalletPage,
  'user-wallet-add-crypto': AddCryptoPage,
  'user-wallet-delete-crypto': DeleteCryptoPage,
  'user-wallet-bank-card': BankCardPage,
  'user-wallet-add-bank-card': AddBankCardPage,
  'user-wallet-edit-bank-card': EditBankCardPage,
  'user-withdraw': WithdrawPage,
  'user-loan': LoanPage,
  'user-account': AccountPage,
  'user-invite': InvitePage,
  'user-standards': StandardsPage,
  'user-privacy': PrivacyPage,
  'user-notification': NotificationPage,
  'user-change-password': ChangePasswordPage,
  'user-bind-email': BindEmailPage,
  'user-verified': VerifiedPage,
  'user-junior-verified': JuniorVerifiedPage,
};

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

/** A route's screen; the desktop start page is the trading workspace. */
function screenFor(name: ScreenRouteName, params: Record<string, string>, isDesktop: boolean): ReactNode {
  const View = isDesktop && name === 'home' ? WorkspacePage : views[name];
  return <View params={params} />;
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
  useEffect(() => {
    if (session.signedIn || !session.endReason) return;
    if (session.endReason === 'expired' || session.endReason === 'invalid') navigate('/', { replace: true });
    // Ended elsewhere or refused: sign in again and come back here, whichever request or socket noticed first.
    if ((session.endReason === 'ended-by-server' || session.endReason === 'unauthorized') && location !== '/login') navigate(loginPathFor(location), { replace: true });
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
  const viewport = useViewport();
  useSessionEndNavigation();
  const session = sessionSignal.value;
  const guardContext: GuardContext = { signedIn: session.signedIn, book: session.book, switches: switchesSignal.value, hasScreen };
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
      <AccountDialog route={route.name} onClose={() => navigate(over)}>
        {content}
      </AccountDialog>
    );
    return <DesktopLayout overlay={overlay}>{under}</DesktopLayout>;
  }
  if (isDesktop) return <DesktopLayout>{content}</DesktopLayout>;
  const mobile = <MobileLayout showTabBar={'tabBar' in route && route.tabBar === true}>{content}</MobileLayout>;
  return viewport.phoneView ? <PhoneViewFrame width={viewport.width}>{mobile}</PhoneViewFrame> : mobile;
}
