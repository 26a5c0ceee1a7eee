import { expect, test, type Page } from '@playwright/test';
import { callApi as api, demoSession, isDesktop, waitForApp } from './support';

/** Screens of this suite, named by layout, for the before/after review. */
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/numbers-${name}-${isDesktop(page) ? 'desktop' : 'mobile'}.png` });
}

test('the chart header names ask and bid and shows the day’s high and low', async ({ page }) => {
  await page.goto('/BTCUSDT/chart');
  await waitForApp(page);
  const quote = page.getByRole('region', { name: 'Quote' }).first();
  await expect(quote.getByTestId('chart-price')).toHaveText(/\d/);
  await shot(page, 'chart-header');
  for (const label of ['Ask', 'Bid', 'High', 'Low']) {
    await expect(quote.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) })).toBeVisible();
    // Every figure is a price at the product's precision (BTCUSDT: 2 decimals).
    await expect(quote.getByTestId(`quote-${label.toLowerCase()}`)).toHaveText(/^[\d,]+\.\d{2}$/);
  }
});

test('an error toast leaves the page title readable', async ({ page }) => {
  await page.goto('/login');
  await waitForApp(page);
  await page.getByLabel('E-mail', { exact: true }).fill('nobody-here@example.com');
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const toast = page.getByRole('alert').filter({ hasText: /\(\d+\)/ });
  await expect(toast).toBeVisible();
  await shot(page, 'toast');
  const title = await page.locator('h1.page-title').first().boundingBox();
  const box = await toast.boundingBox();
  expect(title).not.toBeNull();
  expect(box).not.toBeNull();
  if (!title || !box) return;
  const overlaps =
    box.x < title.x + title.width && title.x < box.x + box.width && box.y < title.y + title.height && title.y < box.y + box.height;
  expect(overlaps).toBe(false);
});

test('a position shows its money at the currency’s 2 decimals', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  // The server's margin and fee carry more decimals than the account's currency.
  const placed = await api(page, '/exchange/addOrderMock', demo.token, {
    tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.5', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: `e2e-n-${Date.now()}`,
  });
  expect(placed.code).toBe(0);
  const orderNo = placed.data as string;
  await page.goto('/position');
  const pnl = page.getByTestId(new RegExp(`^(grid-)?pnl-${orderNo}$`));
  await expect(pnl).toHaveText(/^-?[\d,]+\.\d{2}$/);
  await page.getByRole(isDesktop(page) ? 'row' : 'button', { name: new RegExp(orderNo) }).click();
  const drawer = page.getByRole('dialog', { name: /Order details/ });
  await expect(drawer).toBeVisible();
  await shot(page, 'position-drawer');
  for (const label of ['Margin', 'Fee \\(incl\\. overnight fees\\)', 'Overnight fees']) {
    const row = drawer.locator('dl > div').filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) });
    await expect(row.getByRole('definition')).toHaveText(/^[\d,]+\.\d{2}$/);
  }
});

test('a US stock shows its last price and the status the server reports: "Closed" and when it opens next, or nothing', async ({ page }) => {
  // A Saturday in the browser, where the shared hours close US stocks; the server's clock is the
  // real one, and the screen follows the server. What it reports decides what the header must show.
  await page.clock.setFixedTime(new Date('2026-01-10T12:00:00Z'));
  const reported = (await (await page.request.post('/market/status/AAPL', { data: {} })).json()) as { data: string };
  await page.goto('/AAPL/chart');
  await waitForApp(page);
  const quote = page.getByRole('region', { name: 'Quote' }).first();
  await expect(quote.getByTestId('chart-price')).toHaveText(/^[\d,]+\.\d{2}$/);
  if (reported.data === 'open') {
    await expect(quote.getByTestId('chart-closed')).toHaveCount(0);
  } else {
    await expect(quote.getByTestId('chart-closed')).toHaveText(/^Closed · Opens 2026-01-12 \d{2}:\d{2}:\d{2}$/);
  }
  await shot(page, 'closed-stock');
});
