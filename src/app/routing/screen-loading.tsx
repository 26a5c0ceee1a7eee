import { useTranslation } from 'react-i18next';

/**
 * What a screen shows while its code arrives (rarely seen: screens are fetched ahead). The
 * page's frame at once, the spinner only if the wait lasts (styles: `.screen-loading`), so a
 * quick load does not flash.
 */
export function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <div className="page screen-loading" aria-busy="true">
      <div className="page-header" />
      <div className="page-content" role="progressbar" aria-label={t('common.loading')}>
        <div className="spinner" />
      </div>
    </div>
  );
}
