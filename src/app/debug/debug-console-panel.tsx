import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EngineDiagnostics } from '../../shared/protocol/engine';
import { useApp } from '../app-context';
import { Dialog } from '../components/dialog';
import { engineKindSignal, sessionSignal } from '../engine/signals';
import { debugConsoleOpen } from './debug-console';
import { debugLog } from './debug-log';

/** The console's panel: fetched when first opened (it and its strings are no part of the first load). */
export function DebugConsolePanel() {
  useSignals();
  const { t, i18n } = useTranslation();
  const { engine, config } = useApp();
  const [diagnostics, setDiagnostics] = useState<EngineDiagnostics | null>(null);

  useEffect(() => {
    void engine.diagnostics().then(setDiagnostics);
  }, [engine]);

  const session = sessionSignal.value;
  const rows: [string, string][] = [
    [t('debug.app_version'), __APP_VERSION__],
    [t('debug.build'), __BUILD_ID__],
    [t('debug.language'), i18n.language],
    [t('debug.viewport'), `${window.innerWidth}×${window.innerHeight}`],
    [t('debug.engine'), t(engineKindSignal.value === 'dedicated' ? 'debug.engine_dedicated' : 'debug.engine_shared')],
    [t('debug.tabs'), String(diagnostics?.clientCount ?? '…')],
    [
      t('debug.session'),
      session.signedIn ? `${t('debug.signed_in')} · ${session.uid} · ${t(`mode.${session.book}`)}` : t('debug.signed_out'),
    ],
  ];
  const report = [
    `${config.siteName}`,
    ...rows.map(([label, value]) => `${label}: ${value}`),
    ...debugLog.value.map((entry) => `${new Date(entry.atMs).toISOString()} ${entry.message}`),
  ].join('\n');

  return (
    <Dialog title={t('debug.title')} onClose={() => (debugConsoleOpen.value = false)}>
      <dl className="debug-facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h3>{t('debug.log')}</h3>
      <ol className="debug-log">
        {debugLog.value.map((entry) => (
          <li key={`${entry.atMs}-${entry.message}`}>
            <time>{new Date(entry.atMs).toLocaleTimeString()}</time> {entry.message}
          </li>
        ))}
      </ol>
      <button type="button" className="button secondary" onClick={() => void navigator.clipboard?.writeText(report)}>
        {t('debug.copy_report')}
      </button>
    </Dialog>
  );
}
