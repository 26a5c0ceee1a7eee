import { useTranslation } from 'react-i18next';
import { savePreferences } from '../../app/preferences/preferences';
import { enabledLanguages, isLanguageCode } from '../../shared/i18n/languages';
import { changeLanguage } from '../i18n/staff-i18n';
import { useStaff } from '../session/staff-context';

/** The brand's languages, remembered in the same preference the customer app reads. */
export function StaffLanguagePicker() {
  const { t, i18n } = useTranslation();
  const { config } = useStaff();
  return (
    <select
      className="staff-select"
      aria-label={t('common.language')}
      value={i18n.language}
      onChange={(event) => {
        const code = event.target.value;
        if (!isLanguageCode(code)) return;
        void savePreferences({ language: code }).then(() => changeLanguage(code));
      }}
    >
      {enabledLanguages(config).map((language) => (
        <option key={language.code} value={language.code} lang={language.code}>
          {language.name}
        </option>
      ))}
    </select>
  );
}
