import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useApp } from '../../app-context';
import { LanguagePicker } from '../../components/language-picker';
import { PageFrame } from '../../components/page-frame';
import { DebugTapTarget } from '../../debug/debug-console';
import { refreshSwitches } from '../../boot/switches';
import { sessionSignal } from '../../engine/signals';
import { TradeModeSwitch } from '../../features/trading/trade-mode-switch';
import { useIsDesktop } from '../../layouts/use-viewport';
import { BannerCarousel } from './banner-carousel';
import { HomeQuotes } from './home-quotes';
import { HotCards } from './hot-cards';
import { TradeTypeGrid } from './trade-type-grid';

/**
 * Home: header with title, refresh and service buttons; a visitor's way in (sign in, sign
 * up); the market sections, with the trade-mode switch on phones (the desktop top bar has it).
 */
export function HomePage() {
  useSignals();
  const { t } = useTranslation();
  const { config, http } = useApp();
  const isDesktop = useIsDesktop();
  const visitor = !sessionSignal.value.signedIn;
  return (
    <PageFrame
      back={false}
      title={<DebugTapTarget>{config.siteName}</DebugTapTarget>}
      actions={
        <>
          <button
            type="button"
            className="icon-button"
            aria-label={t('common.refresh')}
            onClick={() => void refreshSwitches(http)}
          >
            ↻
          </button>
          <Link href="/user/service" className="icon-button" aria-label={t('common.customer_service')}>
            ☏
          </Link>
          <LanguagePicker compact />
        </>
      }
    >
      {visitor ? (
        <div className="home-visitor">
          <Link href="/login" className="button secondary">
            {t('page.login')}
          </Link>
          <Link href="/register" className="button primary">
            {t('page.register')}
          </Link>
        </div>
      ) : null}
      <BannerCarousel />
      <HotCards />
      <TradeTypeGrid />
      {isDesktop ? null : <TradeModeSwitch className="trade-mode-switch" />}
      <HomeQuotes />
    </PageFrame>
  );
}
