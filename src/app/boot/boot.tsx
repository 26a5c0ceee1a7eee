import { effect } from '@preact/signals-react';
import type { Root } from 'react-dom/client';
import type { BrandConfig } from '../../shared/config/brand-config';
import { marketSocketUrl, positionsSocketUrl } from '../../shared/config/socket-urls';
import { enabledLanguages, pickLanguage } from '../../shared/i18n/languages';
import { createHttpClient, type RequestFailure } from '../api/http-client';
import { describeCallFailure } from '../../shared/errors/describe-failure';
import { App } from '../app';
import { showToast } from '../components/toasts';
import { colourSchemeSignal, themeColourSignal } from '../theme/theme-choice';
import { logDebug } from '../debug/debug-log';
import { connectEngine, type EngineRemote } from '../engine/engine-client';
import { sessionSignal } from '../engine/signals';
import { changeLanguage, i18next, initI18n } from '../i18n/i18n';
import { serverClock, switchesSignal } from '../app-context';
import { restoreChartSettings } from '../features/chart/chart-settings';
import { loadPreferences } from '../preferences/preferences';
import { applyBrandColours, applyColourScheme } from '../theme/theme';
import { BlockingOverlay, LoadingScreen } from './blocking-overlay';
import { refreshSwitches } from './switches';
import { versionCheckDecision } from './version-check';

type ConfigLoad = { ok: true; config: BrandConfig } | { ok: false; messageKey: string; details: string[] };

/** config.json as the page fetches it, checked by the engine (its schema and zod are not in the first load). */
async function loadBrandConfig(engine: Promise<{ remote: EngineRemote }>): Promise<ConfigLoad> {
  let response: Response;
  try {
    response = await fetch('/config.json', { cache: 'no-cache' });
  } catch {
    return { ok: false, messageKey: 'boot.config_missing', details: [] };
  }
  if (!response.ok) return { ok: false, messageKey: 'boot.config_missing', details: [`HTTP ${response.status}`] };
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    return { ok: false, messageKey: 'boot.config_invalid', details: ['not JSON'] };
  }
  const parsed = await (await engine).remote.checkBrandConfig(json);
  if (parsed.ok) return parsed;
  // Refused: read again here with zod's English messages, to say which field and why.
  const { parseBrandConfigExplained } = await import('../../shared/config/brand-config');
  const explained = await parseBrandConfigExplained(json);
  return { ok: false, messageKey: 'boot.config_invalid', details: explained.ok ? parsed.problems : explained.problems };
}

/** True when the page is about to reload for a newer deployment. */
async function reloadsForNewVersion(): Promise<boolean> {
  const markerKey = 'tradeweb-reloaded-for';
  try {
    const response = await fetch('/version.json', { cache: 'no-store' });
    if (!response.ok) return false;
    const { buildId } = (await response.json()) as { buildId?: string };
    const decision = versionCheckDecision(__BUILD_ID__, buildId ?? null, sessionStorage.getItem(markerKey));
    if (decision === 'reload' && buildId) {
      sessionStorage.setItem(markerKey, buildId);
      window.location.replace('/');
      return true;
    }
  } catch (error) {
    logDebug(`version check skipped: ${String(error)}`);
  }
  return false;
}

function describeFailure(failure: RequestFailure): string {
  return describeCallFailure(failure, i18next.t.bind(i18next), i18next.language);
}

/**
 * Start-up: preferences and language, the data engine with config.json (a missing one blocks
 * the app) and the version check, the theme stylesheet, the server's switches; then the app.
 */
export async function boot(root: Root) {
  const stored = await loadPreferences();
  restoreChartSettings();
  const browserLanguages = navigator.languages ?? [navigator.language];
  const baseLanguages = enabledLanguages({ enableSimplifiedChinese: false, enableIndonesian: false });
  await initI18n(pickLanguage(stored.language, browserLanguages, baseLanguages.map((language) => language.code)));
  root.render(<LoadingScreen label={i18next.t('common.loading')} />);

  // The engine starts while config.json and version.json come: it checks the config.
  const engine = connectEngine();
  const [configLoad, reloading] = await Promise.all([loadBrandConfig(engine), reloadsForNewVersion()]);
  if (reloading) return;
  if (!configLoad.ok) {
    root.render(<BlockingOverlay message={i18next.t('boot.config_missing')} details={[i18next.t(configLoad.messageKey), ...configLoad.details]} />);
    return;
  }
  const { config } = configLoad;

  const language = pickLanguage(
    stored.language,
    browserLanguages,
    enabledLanguages(config).map((candidate) => candidate.code),
  );
  if (language !== i18next.language) await changeLanguage(language);

  colourSchemeSignal.value = stored.colourScheme ?? config.defaultTheme;
  themeColourSignal.value =
    stored.themeColour && config.themeColors.includes(stored.themeColour) ? stored.themeColour : (config.themeColors[0] ?? '#2f6bff');
  applyBrandColours(config, themeColourSignal.value);
  // The browser tab names this brand: index.html names none (a white-label page).
  document.title = config.siteName;
  const themeLoaded = applyColourScheme(colourSchemeSignal.value);

  const { remote, watches, klines } = await engine;
  await remote.configureMarket({
    socketUrl: marketSocketUrl(config, window.location.origin),
    marketRoot: config.marketRoot,
    batchWindowMs: config.batchWindowMs,
    brokerNaming: config.marketSocketUrl !== '',
    quietAfterMs: config.quietEngineAfterMs,
    followAllPrices: config.followAllPrices,
  });
  const http = createHttpClient({
    roots: { api: config.apiRoot, market: config.marketRoot, exchange: config.exchangeRoot },
    timeoutMs: config.requestTimeoutMs,
    getToken: () => sessionSignal.peek().token,
    getLanguage: () => i18next.language,
    report: (failure) => {
      const message = describeFailure(failure);
      logDebug(`request failed: ${message}`);
      showToast('error', message);
    },
    onSessionLost: (reason, token) => void remote.signOut(reason, token),
    onServerDate: serverClock.observe,
  });

  // Support hook: the engine handle, for the debug console's users and the browser tests.
  Object.defineProperty(window, '__tradeweb', { value: { engine: remote }, configurable: true });

  await Promise.all([themeLoaded, refreshSwitches(http, remote)]);
  // The session clock runs in the worker; it follows the demo-trading switch as it changes.
  effect(() => {
    void remote.configureSession({
      apiRoot: config.apiRoot,
      demoAllowed: switchesSignal.value.VIRTUAL_CURRENCY_TRADE,
      positionsSocketUrl: positionsSocketUrl(config, window.location.origin),
    });
  });
  root.render(<App services={{ config, http, engine: remote, watches, klines }} />);
}
