import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { enabledLanguages, languages } from '../../shared/i18n/languages';
import { useApp } from '../app-context';
import { chooseLanguage } from '../i18n/choose-language';
import { flagUrls } from './flags';

/** A dropdown of the brand's languages with flags; the choice is remembered. */
export function LanguagePicker(props: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const { config } = useApp();
  const [open, setOpen] = useState(false);
  const current = languages.find((language) => language.code === i18n.language) ?? languages[0];

  const choose = async (code: string) => {
    setOpen(false);
    await chooseLanguage(code);
  };

  return (
    <div className="menu">
      <button
        type="button"
        className="menu-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`${t('common.language')}: ${current.name}`}
        onClick={() => setOpen(!open)}
      >
        <img className="flag" src={flagUrls[current.flag]} alt="" width={20} height={15} />
        {props.compact ? null : <span>{current.name}</span>}
      </button>
      {open ? (
        <ul className="menu-list" role="listbox" aria-label={t('common.language')}>
          {enabledLanguages(config).map((language) => (
            <li
              key={language.code}
              role="option"
              aria-selected={language.code === current.code}
              tabIndex={0}
              lang={language.code}
              onClick={() => void choose(language.code)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') void choose(language.code);
              }}
            >
              <img className="flag" src={flagUrls[language.flag]} alt="" width={20} height={15} />
              {language.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
