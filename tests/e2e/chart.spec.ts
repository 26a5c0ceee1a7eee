import { expect, test, type Page } from '@playwright/test';
import { isDesktop, waitForApp } from './support';

const chart = (page: Page) => page.getByRole('img', { name: 'Price chart of Bitcoin' });

async function marketStatus(page: Page, symbol: string): Promise<string> {
  const response = await page.request.post(`/market/status/${symbol}`, { data: {} });
  return ((await response.json()) as { data: string }).data;
}

test('the chart draws history and live bars, changes period and candle type, and refuses a fourth main indicator', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/BTCUSDT/chart');
  await waitForApp(page);
  await expect(page.getByRole('combobox', { name: 'Product' })).toHaveValue('BTCUSDT');
  await expect(chart(page)).toHaveAttribute('data-loaded', '1min');
  await expect.poll(async () => Number(await chart(page).getAttribute('data-bars'))).toBeGreaterThanOrEqual(300);
  await expect(page.getByTestId('chart-price')).toHaveText(/^[\d,]+\.\d{2}$/);
  // The forming bar follows the live feed.
  const firstClose = await chart(page).getAttribute('data-last-close');
  await expect(chart(page)).not.toHaveAttribute('data-last-close', firstClose ?? '', { timeout: 15_000 });
  // Crypto trades round the clock: the live price moves and Sell / Buy are offered.
  await expect(page.getByRole('link', { name: 'Sell' })).toHaveAttribute('href', '/BTCUSDT/place?direction=1');
  await expect(page.getByRole('link', { name: 'Buy' })).toHaveAttribute('href', '/BTCUSDT/place?direction=0');
  await expect(page.getByRole('term').filter({ hasText: 'Volume' })).toBeVisible();

  // The period: the top bar's select on desktop, the first of the phone toolbar's one row.
  await page.getByRole('combobox', { name: 'Period' }).selectOption({ label: '5m' });
  await expect(chart(page)).toHaveAttribute('data-loaded', '5min');
  await expect.poll(async () => Number(await chart(page).getAttribute('data-bars'))).toBeGreaterThanOrEqual(300);

  await page.getByRole('combobox', { name: 'Candle type' }).selectOption({ label: 'OHLC bars' });
  await expect(chart(page)).toHaveAttribute('data-candle-type', 'ohlc');

  await expect(chart(page)).toHaveAttribute('data-indicators', 'MA|VOL');
  await page.getByRole('button', { name: 'Indicators' }).click();
  const dialog = page.getByRole('dialog', { name: 'Indicators' });
  const main = dialog.getByRole('group', { name: 'Main indicators' });
  await main.getByRole('switch', { name: 'EMA' }).click();
  await main.getByRole('switch', { name: 'BOLL' }).click();
  await expect(chart(page)).toHaveAttribute('data-indicators', 'MA,EMA,BOLL|VOL');
  await main.getByRole('switch', { name: 'SAR' }).click();
  await expect(page.getByText('At most 3 main indicators at once. Remove one first.')).toBeVisible();
  await expect(main.getByRole('switch', { name: 'SAR' })).toHaveAttribute('aria-checked', 'false');
  await expect(chart(page)).toHaveAttribute('data-indicators', 'MA,EMA,BOLL|VOL');
  await dialog.getByRole('group', { name: 'Sub indicators' }).getByRole('switch', { name: 'MACD' }).click();
  await main.getByRole('switch', { name: 'EMA' }).click();
  await expect(chart(page)).toHaveAttribute('data-indicators', 'MA,BOLL|VOL,MACD');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.screenshot({ path: `test-results/screens/chart-${page.viewportSize()?.width}.png` });

  // On the phone the toolbar is one row: period, chart type, indicators, and More with the rest.
  if (!isDesktop(page)) {
    const toolbar = page.getByRole('toolbar', { name: 'Chart tools' });
    const rows = await toolbar.evaluate((bar) => new Set([...bar.children].map((child) => Math.round(child.getBoundingClientRect().top))).size);
    expect(rows).toBe(1);
    await toolbar.getByRole('button', { name: 'More', exact: true }).click();
  }
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Screenshot' }).click();
  expect((await download).suggestedFilename()).toMatch(/^BTCUSDT-5min-\d{8}-\d{6}\.jpeg$/);

  // The choice is kept for the next chart.
  await page.getByRole('combobox', { name: 'Product' }).selectOption({ label: 'Ethereum' });
  await expect(page).toHaveURL(/\/ETHUSDT\/chart$/);
  await expect(page.getByRole('img', { name: 'Price chart of Ethereum' })).toHaveAttribute('data-loaded', '5min');
  await expect(page.getByRole('img', { name: 'Price chart of Ethereum' })).toHaveAttribute('data-indicators', 'MA,BOLL|VOL,MACD');
});

test('a product whose market is closed shows "Market closed" instead of Sell and Buy, and history only', async ({ page }) => {
  // At any hour one of these is closed or in early trading (Hong Kong, New York, Frankfurt sessions).
  let closed: string | null = null;
  for (const symbol of ['HK50', 'AAPL', 'GER40']) {
    if ((await marketStatus(page, symbol)) !== 'open') {
      closed = symbol;
      break;
    }
  }
  expect(closed).not.toBeNull();
  await page.goto(`/${closed}/chart`);
  await waitForApp(page);
  await expect(page.getByRole('status').filter({ hasText: 'Market closed' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Buy' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Sell' })).toHaveCount(0);
  await expect(page.getByText('Market closed: history only')).toBeVisible();
  await expect.poll(async () => Number(await page.locator('.kline-chart').getAttribute('data-bars'))).toBeGreaterThan(0);
  if (closed !== 'AAPL') await expect(page.getByRole('term').filter({ hasText: 'Volume' })).toHaveCount(0);
});

test('an unknown product says so and links to the quotes', async ({ page }) => {
  await page.goto('/NOPE/chart');
  await waitForApp(page);
  await expect(page.getByRole('alert')).toContainText('No product NOPE is listed.');
  await page.getByRole('link', { name: 'All quotes' }).click();
  await expect(page).toHaveURL(/\/quotation$/);
});
