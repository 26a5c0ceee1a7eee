import type { Root } from 'react-dom/client';
import { BlockingOverlay, LoadingScreen } from '../app/boot/blocking-overlay';
import { showToast } from '../app/components/toasts';
import { colourSchemeSignal, themeColourSignal } from '../app/theme/theme-choice';
import { loadPreferences } from '../app/preferences/preferences';
import { applyBrandColours, applyColourScheme } from '../app/theme/theme';
import { parseBrandConfig, type BrandConfig } from '../shared/config/brand-config';
import { enabledLanguages, pickLanguage } from '../shared/i18n/languages';
import { describeCallFailure } from '../shared/errors/describe-failure';
import { createStaffClient, sessionTokenStore } from './api/staff-client';
import { ConsoleApp, signedOutSignal } from './console-app';
import { changeLanguage, i18next, initStaffI18n } from './i18n/staff-i18n';

async function loadBrandConfig(): Promise<BrandConfig | null> {
  try {
    const response = await fetch('/config.json', { cache: 'no-cache' });
    if (!response.ok) return null;
    const parsed = parseBrandConfig(await response.json());
    return parsed.ok ? parsed.config : null;
  } catch {
    return null;
  }
}

/**
 * The console's start: the same preferences, language choice and theme as the customer app
 * (the brand's config.json), then the request client and the console. No engine, no sockets.
 */
export async function bootConsole(root: Root) {
  const stored = await loadPreferences();
  const browserLanguages = navigator.languages ?? [navigator.language];
  await initStaffI18n(pickLanguage(stored.language, browserLanguages, ['en']));
  root.render(<LoadingScreen label={i18next.t('common.loading')} />);

  const config = await loadBrandConfig();
  if (!config) {
    root.render(<BlockingOverlay message={i18next.t('boot.config_missing')} details={[]} />);
    return;
  }
  const language = pickLanguage(stored.language, browserLanguages, enabledLanguages(config).map((candidate) => candidate.code));
  if (language !== i18next.language) await changeLanguage(language);

  colourSchemeSignal.value = stored.colourScheme ?? config.defaultTheme;
  themeColourSignal.value = stored.themeColour && config.themeColors.includes(stored.themeColour) ? stored.themeColour : (config.themeColors[0] ?? '#2f6bff');
  applyBrandColours(config, themeColourSignal.value);
  await applyColourScheme(colourSchemeSignal.value);

  const client = createStaffClient({
    apiRoot: config.apiRoot,
    tokens: sessionTokenStore(window.sessionStorage),
    getLanguage: () => i18next.language,
    report: (failure) => showToast('error', describeCallFailure(failure, i18next.t.bind(i18next), i18next.language)),
    onSignedOut: (reason) => {
      signedOutSignal.value = reason;
    },
  });
  root.render(<ConsoleApp client={client} config={config} />);
}
