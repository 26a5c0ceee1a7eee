import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createHttpClient, type RequestFailure } from '../../../src/app/api/http-client';
import { AppContext, type AppServices } from '../../../src/app/app-context';
import { ConfirmHost } from '../../../src/app/components/confirm';
import { showToast, ToastHost } from '../../../src/app/components/toasts';
import type { EngineRemote, KlineWatches } from '../../../src/app/engine/engine-client';
import { sessionSignal } from '../../../src/app/engine/signals';
import { createWatchRegistry } from '../../../src/app/engine/watch-registry';
import { brandConfigSchema } from '../../../src/shared/config/brand-config';
import { describeCallFailure } from '../../../src/shared/errors/describe-failure';
import { createFakeServer, type FakeServer } from './fake-server';
import { english, germanI18n } from './i18n';

/** A data engine the rendered view must not reach: each of its methods fails the test, naming itself. */
function absentEngine<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, method) => {
      // Not a thenable: awaiting the object itself must not look like a call.
      if (method === 'then') return undefined;
      return () => {
        throw new Error(`${name}.${String(method)} is not provided in component tests`);
      };
    },
  });
}

/** How the app tells a failed request (boot.tsx): the same words, in the reader's language, in an error toast. */
function describeFailure(failure: RequestFailure, strings: typeof english): string {
  return describeCallFailure(failure, (key, params) => strings.t(key, params), strings.language);
}

/**
 * Renders a view as the app would: the brand's default config, the real request client over
 * a fake server, the watch registry, English strings (or German: `language`), a router in memory at `path`, and the
 * toast and confirmation hosts beside it (and the engine's bars when a test gives them: `klines`). Answers the Testing Library queries, a user-event
 * user, the server (to answer and inspect calls) and the router's address history.
 */
export function renderView(ui: ReactNode, options: { path?: string; server?: FakeServer; config?: Record<string, unknown>; language?: 'en' | 'de'; klines?: KlineWatches } = {}) {
  const server = options.server ?? createFakeServer();
  // The reader's language: the strings the view shows, the Accept-Language it sends and the failures' words.
  const strings = options.language === 'de' ? germanI18n() : english;
  const reported: RequestFailure[] = [];
  const watched: string[][] = [];
  const location = memoryLocation({ path: options.path ?? '/', record: true });
  const http = createHttpClient({
    roots: { api: 'http://app.test', market: 'http://app.test', exchange: 'http://app.test' },
    timeoutMs: 0,
    getToken: () => sessionSignal.peek().token,
    getLanguage: () => strings.language,
    report: (failure) => {
      reported.push(failure);
      showToast('error', describeFailure(failure, strings));
    },
    onSessionLost: () => undefined,
    fetchImpl: server.fetchImpl,
  });
  const services: AppServices = {
    config: brandConfigSchema.parse(options.config ?? {}),
    http,
    engine: absentEngine<EngineRemote>('engine'),
    watches: createWatchRegistry((symbols) => watched.push(symbols)),
    klines: options.klines ?? absentEngine<KlineWatches>('klines'),
  };
  // A file picker's `accept` is a hint the person can override ("All files"): the form's own rules must refuse.
  const user = userEvent.setup({ applyAccept: false });
  const withProviders = (view: ReactNode) => (
    <I18nextProvider i18n={strings}>
      <AppContext.Provider value={services}>
        <Router hook={location.hook}>{view}</Router>
        <ToastHost />
        <ConfirmHost />
      </AppContext.Provider>
    </I18nextProvider>
  );
  const result = render(withProviders(ui));
  /** The same view given new props, as a parent re-rendering it would (same providers, same state). */
  const rerender = (next: ReactNode) => result.rerender(withProviders(next));
  return { ...result, rerender, user, server, reported, watched, location };
}
