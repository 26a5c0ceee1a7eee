import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getBrandPage, type BrandPageData } from '../../../shared/api/anonymous';
import type { BrandPageName } from '../../../shared/config/brand-pages';
import { isLanguageCode } from '../../../shared/i18n/languages';
import { PageFrame } from '../../components/page-frame';
import { useApp } from '../../app-context';
import '../../styles/profile.css';

/**
 * One of the brand's static pages (its `pages/<lang>.json`, served by `/v1/wa-na/brand/page`)
 * in the reader's language, or the brand's default language when it wrote none in it. The
 * frame's title is `fallbackTitle` until the page's own title arrives.
 */
export function BrandPage(props: { page: BrandPageName; fallbackTitle: string; children?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { http } = useApp();
  const language = isLanguageCode(i18n.language) ? i18n.language : 'en';
  const [loaded, setLoaded] = useState<BrandPageData | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    http.call(getBrandPage, { page: props.page, lang: language }, { signal: controller.signal, silent: true }).then(setLoaded, () => {
      if (!controller.signal.aborted) setFailed(true);
    });
    return () => controller.abort();
  }, [http, props.page, language, attempt]);

  let content: ReactNode;
  if (loaded) {
    content = (
      <article className="static-text" lang={loaded.lang}>
        {loaded.sections.map((section, index) => (
          <section key={index}>
            {section.heading ? <h2>{section.heading}</h2> : null}
            {section.paragraphs.map((paragraph, at) => (
              <p key={at}>{paragraph}</p>
            ))}
          </section>
        ))}
      </article>
    );
  } else if (failed) {
    content = (
      <div className="list-state" role="alert">
        <p>{t('notice.network_abnormal')}</p>
        <button type="button" className="button secondary" onClick={() => {
            setFailed(false);
            setAttempt((value) => value + 1);
          }}>
          {t('common.retry')}
        </button>
      </div>
    );
  } else {
    content = (
      <div className="list-state" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
      </div>
    );
  }
  return (
    <PageFrame title={loaded?.title ?? props.fallbackTitle}>
      {content}
      {props.children}
    </PageFrame>
  );
}
