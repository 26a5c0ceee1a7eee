import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useApp } from '../../app-context';
import { LanguagePicker } from '../../components/language-picker';
import { PageFrame } from '../../components/page-frame';
import { DebugTapTarget } from '../../debug/debug-console';
import { refreshSwitches } from '../../boot/switches';
import { BannerCarousel } from './banner-carousel';
import { HomeQuotes } from './home-quotes';
import { HotCards } from './hot-cards';
import { TradeTypeGrid } from './trade-type-grid';
import { Icon } from '../../components/icons';

/** Home: header with title, refresh and service buttons; the market sections follow. */
export function HomePage() {
  const { t } = useTranslation();
  const { config, http } = useApp();
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
            <Icon name="refresh" />
          </button>
          <Link href="/user/service" className="icon-button" aria-label={t('common.customer_service')}>
            <Icon name="support" />
          </Link>
          <LanguagePicker compact />
        </>
      }
    >
      <BannerCarousel />
      <HotCards />
      <TradeTypeGrid />
      <HomeQuotes />
    </PageFrame>
  );
}
