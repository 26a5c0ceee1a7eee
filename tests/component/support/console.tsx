import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { brandConfigSchema } from '../../../src/shared/config/brand-config';
import type { StaffRole } from '../../../src/shared/staff/roles';
import { createStaffClient } from '../../../src/staff/api/staff-client';
import { StaffContext } from '../../../src/staff/session/staff-context';
import type { FakeServer } from './fake-server';
import { consoleI18n } from './i18n';

/** A console page rendered as a signed-in member sees it, its calls answered by `server`, in English. */
export function renderConsolePage(page: ReactElement, server: FakeServer, me: { staffId: number; email: string; roles: StaffRole[] }) {
  const client = createStaffClient({
    apiRoot: 'http://console.test',
    tokens: { read: () => ({ token: 'staff-token', refreshToken: 'staff-refresh' }), write: () => undefined },
    getLanguage: () => 'en',
    report: () => undefined,
    onSignedOut: () => undefined,
    fetchImpl: server.fetchImpl,
  });
  const services = { client, me: { ...me, mustChangePassword: false }, config: brandConfigSchema.parse({}), signOut: () => undefined };
  return render(
    <I18nextProvider i18n={consoleI18n()}>
      <StaffContext.Provider value={services}>{page}</StaffContext.Provider>
    </I18nextProvider>,
  );
}
