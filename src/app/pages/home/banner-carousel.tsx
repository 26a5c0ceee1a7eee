import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { safeBannerUrl } from '../../../shared/config/banner-url';
import { useApp } from '../../app-context';

/** The specification's banner delay. */
export const bannerDelayMs = 3000;

/**
 * The bundled artwork (public/banners) has no text in the picture, so that it reads in
 * every language: its caption is laid over it, translated. A brand's uploaded banners
 * carry their own text and show as they are.
 */
const bundledBannerCaptions: Readonly<Record<string, string>> = {
  '/banners/banner-1.svg': 'home.banner_markets',
  '/banners/banner-2.svg': 'home.banner_demo',
  '/banners/banner-3.svg': 'home.banner_options',
};

/**
 * The home banners: the server's list (the brand's fallback list until it answers, or
 * when it fails or is empty), auto-playing every 3 s in a loop, paused while hovered or
 * focused, with clickable pagination.
 */
export function BannerCarousel(props: { reloadKey?: number }) {
  const { t } = useTranslation();
  const { config, http } = useApp();
  const [banners, setBanners] = useState<readonly string[]>(config.fallbackBanners);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    // The contract comes with the call (the first load holds no schema); the fallback list shows meanwhile.
    import('../../../shared/api/anonymous')
      .then(({ appBannerList }) => http.call(appBannerList, {}, { silent: true, signal: controller.signal }))
      .then(({ rows }) => {
        const urls = rows.flatMap((row) => safeBannerUrl(row.bannerUrl) ?? []);
        if (urls.length > 0) setBanners(urls);
      })
      .catch(() => undefined); // the fallback list stays
    return () => controller.abort();
    // `reloadKey` only asks for the list again (home's refresh button).
  }, [http, props.reloadKey]);

  const count = banners.length;
  const shown = count > 0 ? index % count : 0;
  useEffect(() => {
    if (paused || count < 2) return;
    const timer = setInterval(() => setIndex((current) => (current + 1) % count), bannerDelayMs);
    return () => clearInterval(timer);
  }, [paused, count]);

  if (count === 0) return null;
  return (
    <section
      className="banner-carousel"
      aria-roledescription="carousel"
      aria-label={t('home.banners')}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="banner-track" style={{ transform: `translateX(-${shown * 100}%)` }} aria-live={paused ? 'polite' : 'off'}>
        {banners.map((url, position) => (
          <div
            key={`${url}-${position}`}
            className="banner-slide"
            role="group"
            aria-roledescription="slide"
            aria-label={t('home.banner_of', { index: position + 1, count })}
            aria-hidden={position !== shown}
          >
            <img src={url} alt="" draggable={false} loading={position === 0 ? 'eager' : 'lazy'} />
            {bundledBannerCaptions[url] ? <p className="banner-caption">{t(bundledBannerCaptions[url])}</p> : null}
          </div>
        ))}
      </div>
      {count > 1 ? (
        <div className="banner-dots" role="group" aria-label={t('home.banner_pages')}>
          {banners.map((url, position) => (
            <button
              key={`${url}-${position}`}
              type="button"
              className="banner-dot"
              aria-label={t('home.banner_of', { index: position + 1, count })}
              aria-current={position === shown}
              onClick={() => setIndex(position)}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}
