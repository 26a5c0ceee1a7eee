import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EngineDiagnostics } from '../../shared/protocol/engine';
import { useApp } from '../app-context';
import { Dialog } from '../components/dialog';
import { engineKindSignal, sessionSignal } from '../engine/signals';
import { debugLog } from './debug-log';
import { createTapSequenceDetector, debugConsoleTaps } from './tap-sequence';

const open = signal(false, { name: 'debugConsoleOpen' });
const detector = createTapSequenceDetector(debugConsoleTaps);

/** Wraps the element whose rapid taps open the hidden debug console. */
export function DebugTapTarget(props: { children: ReactNode; className?: string }) {
  return (
    <span
      className={`debug-tap ${props.className ?? ''}`}
      onPointerDown={() => {
        if (detector.tap(Date.now())) open.value = true;
      }}
    >
      {props.children}
    </span>
  );
}

export function DebugConsole() {
  useSignals();
  const { t, i18n } = useTranslation();
  const { engine, config } = useApp();
  const [diagnostics, setDiagnostics] = useState<EngineDiagnostics | null>(null);
  const isOpen = open.value;

  useEffect(() => {
    if (isOpen) void engine.diagnostics().then(setDiagnostics);
  }, [isOpen, engine]);

  if (!isOpen) return null;
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
    <Dialog title={t('debug.title')} onClose={() => (open.value = false)}>
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
