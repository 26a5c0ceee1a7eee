import { Router } from 'wouter';
import { AppContext, type AppServices } from './app-context';
import { ConfirmHost } from './components/confirm';
import { MarketStatus } from './components/market-status';
import { ToastHost } from './components/toasts';
import { DebugConsole } from './debug/debug-console';
import { NoticeAlerts } from './features/notices/notice-alerts';
import { AppRoutes } from './routing/router';

export function App(props: { services: AppServices }) {
  return (
    <AppContext.Provider value={props.services}>
      <Router>
        <AppRoutes />
      </Router>
      <MarketStatus />
      <NoticeAlerts />
      <ToastHost />
      <ConfirmHost />
      <DebugConsole />
    </AppContext.Provider>
  );
}
