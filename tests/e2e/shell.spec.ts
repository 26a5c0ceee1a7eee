import { expect, test } from '@playwright/test';
import { isDesktop, signInThroughEngine, signOutThroughEngine, startPagePrice, waitForApp } from './support';

test('the app loads with its navigation', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await expect(page.getByRole('heading', { level: 1, name: 'TradeWeb' })).toBeVisible();
  if (isDesktop(page)) {
    await expect(page.getByRole('link', { name: "Let's sign in" })).toBeVisible();
    const side = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(side.getByRole('link', { name: 'Home' })).toBeVisible();
    // Positions and History toggle the start page's order list: panel toggles, apart from the page links.
    const panels = page.getByRole('group', { name: 'Panels' });
    await expect(panels.getByRole('button', { name: 'Positions' })).toHaveAttribute('aria-pressed', 'true');
    await expect(panels.getByRole('button', { name: 'History' })).toHaveAttribute('aria-pressed', 'false');
  } else {
    const tabs = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link');
    await expect(tabs).toHaveText(['Home', 'Position', 'History', 'User']);
  }
  await page.screenshot({ path: `test-results/screens/home-${isDesktop(page) ? 'desktop' : 'mobile'}.png` });
});

test('protected pages send visitors to sign-in with the return path', async ({ page }) => {
  for (const path of ['/position', '/history', '/user', '/user/account']) {
    await page.goto(path);
    await expect(page).toHaveURL(`/login?to=${encodeURIComponent(path)}`);
    await expect(page.getByText('Please sign in first')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  }
  await page.goto('/user/service');
  await expect(page).toHaveURL('/user/service');
  await expect(page.getByRole('heading', { level: 1, name: 'Customer service' })).toBeVisible();
});

test('an unknown path lands on home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1, name: 'TradeWeb' })).toBeVisible();
});

test('switching language changes the visible text and is remembered', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByRole('button', { name: 'Language: English' }).first().click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Passwort vergessen' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
  await page.getByRole('button', { name: /Deutsch/ }).first().click();
  await page.getByRole('option', { name: '日本語' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'ログイン' })).toBeVisible();
});

test('a missing config.json shows the blocking overlay', async ({ page }) => {
  await page.route('**/config.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('/');
  await expect(page.getByRole('alertdialog')).toContainText('Cannot load config, please contact administrator.');
  await expect(page.getByRole('navigation')).toHaveCount(0);
});

test('an invalid config.json blocks the app and says which field', async ({ page }) => {
  await page.route('**/config.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ upDownTemplate: 7 }) }),
  );
  await page.goto('/');
  await expect(page.getByRole('alertdialog')).toContainText('Cannot load config, please contact administrator.');
  await expect(page.getByRole('alertdialog')).toContainText('upDownTemplate');
});

test('two tabs share one session through the worker', async ({ page, context }) => {
  await page.goto('/');
  await waitForApp(page);
  const other = await context.newPage();
  await other.goto('/login');
  await expect(other.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();

  const { uid } = await signInThroughEngine(page);
  // The other tab learns at once: sign-in is no place for a signed-in user.
  await expect(other).toHaveURL('/');
  await expect(other.getByText('You are already signed in')).toBeVisible();
  if (isDesktop(other)) await expect(other.getByRole('button', { name: new RegExp(`account ${uid} · USD$`, 'i') })).toBeVisible();

  await other.goto('/position');
  await expect(other.getByRole('heading', { level: 1, name: 'Position' })).toBeVisible();

  await signOutThroughEngine(page);
  await expect(other).toHaveURL('/login?to=%2Fposition');
  await expect(other.getByText('Please sign in first')).toBeVisible();
});

test('signed-in users are sent away from sign-in and sign-up', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await signInThroughEngine(page);
  await page.goto('/register');
  await expect(page).toHaveURL('/');
  await expect(page.getByText('You are already signed in')).toBeVisible();
  await page.goto('/user/loan');
  await expect(page).toHaveURL('/user');
  await signOutThroughEngine(page);
});

test('rapid taps on the title open the debug console', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  const title = isDesktop(page) ? page.locator('.brand') : page.getByRole('heading', { level: 1, name: 'TradeWeb' });
  await title.click({ clickCount: 6 });
  const console = page.getByRole('dialog', { name: 'Debug console' });
  await expect(console).toBeVisible();
  await expect(console).toContainText('Shared worker');
  await expect(console).toContainText('Signed out');
  await page.screenshot({ path: `test-results/screens/debug-${isDesktop(page) ? 'desktop' : 'mobile'}.png` });
});

test('without SharedWorker the dedicated-worker fallback keeps tabs in step', async ({ page, context }) => {
  await context.addInitScript(() => {
    // Browsers without SharedWorker (older Android Chrome, Samsung Internet).
    Object.defineProperty(window, 'SharedWorker', { value: undefined, configurable: true });
  });
  await page.goto('/');
  await waitForApp(page);
  const other = await context.newPage();
  await other.goto('/position');
  await expect(other).toHaveURL('/login?to=%2Fposition');

  await signInThroughEngine(page);
  await expect(other).toHaveURL('/');
  await expect(other.getByText('You are already signed in')).toBeVisible();

  // Six rapid taps (within 3 s even on a loaded machine, where six separate clicks may not be).
  await (isDesktop(page) ? page.locator('.brand') : page.getByRole('heading', { level: 1, name: 'TradeWeb' })).click({ clickCount: 6 });
  await expect(page.getByRole('dialog', { name: 'Debug console' })).toContainText('Dedicated worker');
  await signOutThroughEngine(page);

  // Still one market connection for the browser: the engines elected a leader.
  await expect(startPagePrice(other)).toHaveText(/^[\d,]+\.\d{2}$/);
  await expect
    .poll(async () => ((await (await page.request.get('/healthz')).json()) as { marketConnections: number }).marketConnections)
    .toBe(1);
});
