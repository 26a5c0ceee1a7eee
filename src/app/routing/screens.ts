import { HomePage } from '../pages/home/home-page';
import { lazyPart, lazyScreen, type LazyScreen, type ScreenComponent } from './lazy-screen';
import type { ScreenRouteName } from './routes';

/**
 * The screen of every route that has one (`routesWithScreens`). Home comes with the first
 * load; every other screen is its own chunk, fetched when first shown or ahead of it
 * (`prefetch.ts`: the screens the current one links to, and a link's as it is pointed at). The quotation
 * screen's long list brings the virtualizer, which home's three rows do not need. bench/bundle-bytes.ts reads this table to name each route's chunk.
 */
export const screens: Record<ScreenRouteName, ScreenComponent | LazyScreen> = {
  home: HomePage,
  quotation: lazyScreen(() => import('../pages/quotation/quotation-page'), 'QuotationPage'),
  explore: lazyScreen(() => import('../pages/explore/explore-page'), 'ExplorePage'),
  login: lazyScreen(() => import('../pages/auth/login-page'), 'LoginPage'),
  register: lazyScreen(() => import('../pages/auth/register-page'), 'RegisterPage'),
  forgot: lazyScreen(() => import('../pages/auth/forgot-page'), 'ForgotPage'),
  search: lazyScreen(() => import('../pages/search/search-page'), 'SearchPage'),
  chart: lazyScreen(() => import('../pages/chart/chart-page'), 'ChartPage'),
  place: lazyScreen(() => import('../pages/place/place-page'), 'PlacePage'),
  'place-option': lazyScreen(() => import('../pages/option/option-place-page'), 'OptionPlacePage'),
  position: lazyScreen(() => import('../pages/position/position-page'), 'PositionPage'),
  history: lazyScreen(() => import('../pages/history/history-page'), 'HistoryPage'),
  user: lazyScreen(() => import('../pages/user/user-hub-page'), 'UserHubPage'),
  'user-my-wallet': lazyScreen(() => import('../pages/user/my-wallet-page'), 'MyWalletPage'),
  'user-wallet': lazyScreen(() => import('../pages/user/wallet-hub-page'), 'WalletHubPage'),
  'user-service': lazyScreen(() => import('../pages/service/service-page'), 'ServicePage'),
  'user-two-factor': lazyScreen(() => import('../pages/auth/two-factor-page'), 'TwoFactorPage'),
  'user-wallet-deposits': lazyScreen(() => import('../pages/user/deposit-list-page'), 'DepositListPage'),
  'user-wallet-transactions': lazyScreen(() => import('../pages/user/transaction-list-page'), 'TransactionListPage'),
  'user-agreement': lazyScreen(() => import('../pages/user/agreement-page'), 'AgreementPage'),
  'user-deposit': lazyScreen(() => import('../pages/user/deposit-page'), 'DepositPage'),
  'user-wallet-crypto': lazyScreen(() => import('../pages/withdraw/crypto-wallet-page'), 'CryptoWalletPage'),
  'user-wallet-add-crypto': lazyScreen(() => import('../pages/withdraw/add-crypto-page'), 'AddCryptoPage'),
  'user-wallet-delete-crypto': lazyScreen(() => import('../pages/withdraw/delete-crypto-page'), 'DeleteCryptoPage'),
  'user-wallet-bank-card': lazyScreen(() => import('../pages/withdraw/bank-card-page'), 'BankCardPage'),
  'user-wallet-add-bank-card': lazyScreen(() => import('../pages/withdraw/add-bank-card-page'), 'AddBankCardPage'),
  'user-wallet-edit-bank-card': lazyScreen(() => import('../pages/withdraw/edit-bank-card-page'), 'EditBankCardPage'),
  'user-withdraw': lazyScreen(() => import('../pages/withdraw/withdraw-page'), 'WithdrawPage'),
  'user-loan': lazyScreen(() => import('../pages/user/loan-page'), 'LoanPage'),
  'user-account': lazyScreen(() => import('../pages/user/account-page'), 'AccountPage'),
  'user-invite': lazyScreen(() => import('../pages/user/invite-page'), 'InvitePage'),
  'user-standards': lazyScreen(() => import('../pages/user/static-pages'), 'StandardsPage'),
  'user-privacy': lazyScreen(() => import('../pages/user/static-pages'), 'PrivacyPage'),
  'user-notification': lazyScreen(() => import('../pages/user/notification-page'), 'NotificationPage'),
  'user-change-password': lazyScreen(() => import('../pages/user/change-password-page'), 'ChangePasswordPage'),
  'user-bind-email': lazyScreen(() => import('../pages/user/bind-email-page'), 'BindEmailPage'),
  'user-verified': lazyScreen(() => import('../pages/user/verified-page'), 'VerifiedPage'),
  'user-junior-verified': lazyScreen(() => import('../pages/user/verified-page'), 'JuniorVerifiedPage'),
};

/** The desktop start page: the trading terminal, fetched at start-up on desktops only (`prefetchDesktop`). */
export const workspaceScreen = lazyScreen(() => import('../pages/workspace/workspace-page'), 'WorkspacePage');

/** The desktop's frame and its account dialog: phones never fetch them. */
export const desktopLayout = lazyPart(() => import('../layouts/desktop-layout'), 'DesktopLayout');
export const accountDialog = lazyPart(() => import('../layouts/account-dialog'), 'AccountDialog');

export function isLazyScreen(screen: ScreenComponent | LazyScreen): screen is LazyScreen {
  return typeof screen === 'object' && 'load' in screen;
}
