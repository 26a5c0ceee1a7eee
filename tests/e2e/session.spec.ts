import { expect, test } from '@playwright/test';
import { adoptTokens, createSession, signOutThroughEngine, waitForApp } from './support';

test('a session ended on the server is signed out at the next start, in every tab', async ({ page, context }) => {
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, { token: session.token, refreshToken: session.refreshToken });
  await page.goto('/position');
  await expect(page).toHaveURL('/position');

  // Signed out elsewhere (e.g. logout on another device): the server ends the session.
  const logout = await page.request.post('/v1/waa/user/logout', { data: {}, headers: { authorization: `Bearer ${session.token}` } });
  expect(((await logout.json()) as { code: number }).code).toBe(0);

  // A new tab starts the engine's check (a fresh SharedWorker after every tab closed).
  await page.close();
  const next = await context.newPage();
  await next.goto('/position');
  await expect(next).toHaveURL(/\/login\?to=%2Fposition$/);
});

test('signed-in tabs share one positions socket, opened by the worker, and hear the account feed', async ({ page, context }) => {
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, { token: session.token, refreshToken: session.refreshToken });
  const other = await context.newPage();
  await other.goto('/');
  await waitForApp(other);
  const connections = async () => ((await (await page.request.get('/healthz')).json()) as { positionsConnections: number }).positionsConnections;
  await expect.poll(connections).toBe(1);
  for (const tab of [page, other]) {
    await expect
      .poll(() => tab.evaluate(async () => ((await (window as unknown as { __tradeweb: { engine: { positions(): Promise<{ holt: { netValue: string } | null }> } } }).__tradeweb.engine.positions()).holt?.netValue ?? null)))
      .toBe('0.00');
  }
  await signOutThroughEngine(page);
  await expect.poll(connections).toBe(0);
});

test('a session ended on the server while tabs are open signs every tab out at once (the positions socket is closed with 4401)', async ({ page, context }) => {
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, { token: session.token, refreshToken: session.refreshToken });
  // Pages that send no signed-in requests: only the positions socket can tell the tabs.
  await page.goto('/quotation');
  const other = await context.newPage();
  await other.goto('/quotation');
  await waitForApp(other);
  const connections = async () => ((await (await page.request.get('/healthz')).json()) as { positionsConnections: number }).positionsConnections;
  await expect.poll(connections).toBe(1);

  // Logged out on another device: no reload and no wait for the token's expiry.
  const logout = await page.request.post('/v1/waa/user/logout', { data: {}, headers: { authorization: `Bearer ${session.token}` } });
  expect(((await logout.json()) as { code: number }).code).toBe(0);
  await expect.poll(connections).toBe(0);
  // Every tab is signed out: a signed-in page sends each to sign-in (the other tab keeps the worker alive).
  for (const tab of [page, other]) {
    await tab.goto('/position');
    await expect(tab).toHaveURL(/\/login\?to=%2Fposition$/);
  }
});
