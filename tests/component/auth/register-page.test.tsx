import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RegisterPage } from '../../../src/app/pages/auth/register-page';
import { login, register, sendMail } from '../../../src/shared/api/auth';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

const email = 'new.trader@example.com';

/** Signs up by e-mail through both steps, the server accepting each call; answers the view. */
async function signUp(config: Record<string, unknown> = {}) {
  const server = createFakeServer();
  server.on(sendMail, () => null);
  server.on(register, () => null);
  server.on(login, () => ({ token: 'access', refreshToken: 'refresh', qrcodeStatus: 1 as const }));
  const view = renderView(<RegisterPage />, { server, path: '/register', config });
  await view.user.type(screen.getByLabelText(t('auth.email'), { exact: true }), email);
  await view.user.click(screen.getByRole('button', { name: t('auth.send_code') }));
  await view.user.type(await screen.findByLabelText(t('auth.verification_code')), '123456');
  await view.user.type(screen.getByLabelText(t('auth.password'), { exact: true }), 'correct horse 7');
  await view.user.click(screen.getByRole('button', { name: t('auth.create_account') }));
  await waitFor(() => expect(view.server.calls.some((call) => call.path === register.path)).toBe(true));
  return view;
}

describe('after sign-up', () => {
  it('goes to sign-in with the new account filled in, without signing in (the specification)', async () => {
    const view = await signUp();
    await waitFor(() => expect(view.location.history.at(-1)).toBe(`/login?account=${encodeURIComponent(email)}`));
    expect(await screen.findByText(t('auth.register_success'))).toBeTruthy();
    expect(view.server.calls.map((call) => call.path)).not.toContain(login.path);
  });

  it('signs the new customer in at once when the brand sets signInAfterRegister', async () => {
    const view = await signUp({ signInAfterRegister: true });
    await waitFor(() => expect(view.server.calls.map((call) => call.path)).toContain(login.path));
    expect(view.server.calls.find((call) => call.path === login.path)?.body).toMatchObject({ username: email, password: 'correct horse 7', type: 'E' });
  });
});
