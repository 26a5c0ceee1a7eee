import { expect, test, type Page } from '@playwright/test';
import { startPagePrice, waitForApp } from './support';

async function marketConnections(page: Page): Promise<number> {
  const response = await page.request.get('/healthz');
  return ((await response.json()) as { marketConnections: number }).marketConnections;
}

test.afterEach(async ({ request }) => {
  await request.post('/dev/market/resume');
});

test('two tabs share one market connection and both show live prices; a paused feed is flagged stale', async ({ page, context }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const other = await context.newPage();
  await other.goto('/');
  await waitForApp(other);

  for (const tab of [page, other]) {
    await expect(startPagePrice(tab)).toHaveText(/^[\d,]+\.\d{2}$/);
  }
  // One socket for the whole browser, whatever the number of tabs.
  await expect.poll(() => marketConnections(page)).toBe(1);

  // Crypto trades round the clock in the simulator: the price moves in both tabs.
  for (const tab of [page, other]) {
    const first = await startPagePrice(tab).textContent();
    await expect(startPagePrice(tab)).not.toHaveText(first ?? '', { timeout: 15_000 });
  }
  await page.screenshot({ path: `test-results/screens/live-home-${page.viewportSize()?.width}.png` });

  await page.request.post('/dev/market/pause');
  for (const tab of [page, other]) {
    await expect(tab.getByText('Prices are delayed: no update for 10 seconds')).toBeVisible({ timeout: 20_000 });
  }
  await page.request.post('/dev/market/resume');
  for (const tab of [page, other]) {
    await expect(tab.getByText('Prices are delayed: no update for 10 seconds')).toBeHidden({ timeout: 10_000 });
  }
});

test('a second tab showing another symbol gets its prices through the same single socket', async ({ page, context }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  await expect(startPagePrice(page)).toHaveText(/^[\d,]+\.\d{2}$/);
  const other = await context.newPage();
  await other.goto('/ETHUSDT/chart');
  const price = other.getByTestId('chart-price').first();
  await expect(price).toHaveText(/^[\d,]+\.\d+$/);
  const first = await price.textContent();
  await expect(price).not.toHaveText(first ?? '', { timeout: 15_000 });
  await expect.poll(() => marketConnections(page)).toBe(1);
});
