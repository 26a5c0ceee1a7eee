import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../styles/profile.css';

interface StaticSection {
  heading: string;
  body: string;
}

interface StaticPart {
  intro: string;
  /** The privacy policy's effective date line. */
  effective?: string;
  sections: StaticSection[];
}

interface StaticTexts {
  standards: StaticPart;
  privacy: StaticPart;
}

// One chunk per language, fetched only when a static page opens: the texts do not weigh on the first load.
const loaders = import.meta.glob<{ default: StaticTexts }>('./static-texts/*.json');

/**
 * The languages the static pages are written in (the specification lists 11); another
 * (Indonesian) reads the English text.
 */
export const staticTextLanguages = ['en', 'zh-tw', 'zh-cn', 'ja', 'de', 'fr', 'it', 'ko', 'es', 'vi', 'th'] as const;

const textLanguageOf = (language: string) => ((staticTextLanguages as readonly string[]).includes(language) ? language : 'en');

/** A static page's text in the current language (the trading standards or the privacy policy). */
export function StaticText(props: { part: keyof StaticTexts }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [loaded, setLoaded] = useState<{ language: string; part: StaticPart } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    const code = textLanguageOf(language);
    const load = loaders[`./static-texts/${code}.json`];
    if (!load) return;
    load().then(
      (module) => current && setLoaded({ language: code, part: module.default[props.part] }),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [language, props.part]);

  if (failed && !loaded) return <p className="list-state">{t('notice.network_abnormal')}</p>;
  if (!loaded) {
    return (
      <div className="list-state" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
      </div>
    );
  }
  const { part } = loaded;
  return (
    <article className="static-text" lang={loaded.language}>
      {part.effective ? <p className="static-text-effective">{part.effective}</p> : null}
      <p className="static-text-intro">{part.intro}</p>
      {part.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          <p>{section.body}</p>
        </section>
      ))}
    </article>
  );
}
