import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { switchesSignal, useApp } from '../../app-context';
import { BrandLogo } from '../../components/brand-logo';
import { LanguagePicker } from '../../components/language-picker';
import { PageFrame } from '../../components/page-frame';
import { DebugTapTarget } from '../../debug/debug-console';
import { refreshSwitches } from '../../boot/switches';
import { marketSignal, sessionSignal } from '../../engine/signals';
import { loadOptionsOffered, optionsOfferedSignal } from '../../features/catalogue/options-offered';
import { loadProducts } from '../../features/catalogue/products';
import { TradeModeSwitch } from '../../features/trading/trade-mode-switch';
import { useIsDesktop } from '../../layouts/use-viewport';
import { BannerCarousel } from './banner-carousel';
import { HomeQuotes } from './home-quotes';
import { HotCards } from './hot-cards';
import { TradeTypeGrid } from './trade-type-grid';
import { Icon } from '../../components/icons';

/**
 * Home: header with the brand's logo and name, refresh and service buttons; a visitor's way in (sign in, sign
 * up); the market sections, with the trade-mode switch on phones (the desktop top bar has it).
 */
export function HomePage() {
  useSignals();
  const { t } = useTranslation();
  const { config, http, engine } = useApp();
  const isDesktop = useIsDesktop();
  const visitor = !sessionSignal.value.signedIn;
  const [bannersReload, setBannersReload] = useState(0);
  useEffect(() => {
    void loadOptionsOffered(http, !visitor);
  }, [http, visitor]);

  /** Reloads what home shows: switches, banners, products, whether options are offered, and the prices when their feed is not live. */
  function refresh() {
    setBannersReload((count) => count + 1);
    void refreshSwitches(http, engine);
    void loadProducts(http);
    void loadOptionsOffered(http, !visitor);
    const market = marketSignal.peek();
    // Live prices are already current; a stale or dropped feed is reconnected.
    if (market.stale || market.status !== 'open') void engine.reconnectMarket();
  }
  return (
    <PageFrame
      back={false}
      title={
        <DebugTapTarget className="home-brand">
          <BrandLogo src={config.logo} />
          <span className="home-brand-name">{config.siteName}</span>
        </DebugTapTarget>
      }
      actions={
        <>
          <button
            type="button"
            className="icon-button"
            aria-label={t('common.refresh')}
            onClick={refresh}
          >
            <Icon name="refresh" />
          </button>
          {switchesSignal.value['user/service'] ? (
            <Link href="/user/service" className="icon-button" aria-label={t('common.customer_service')}>
              <Icon name="support" />
            </Link>
          ) : null}
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
      <BannerCarousel reloadKey={bannersReload} />
      <HotCards />
      <TradeTypeGrid />
      {isDesktop ? null : <TradeModeSwitch className="trade-mode-switch" withoutOption={optionsOfferedSignal.value === false} />}
      <HomeQuotes />
    </PageFrame>
  );
}
