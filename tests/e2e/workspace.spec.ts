import { expect, test } from '@playwright/test';
import { waitForApp } from './support';

test('the desktop workspace shows the chart and the quotation list together; quotes and search select the product @desktop', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  // Nothing selected: BTCUSDT once prices arrive.
  const chartPanel = page.getByRole('region', { name: 'Bitcoin' });
  await expect(chartPanel.getByRole('img', { name: 'Price chart of Bitcoin' })).toHaveAttribute('data-loaded', '1min');
  const quotes = page.getByRole('region', { name: 'Quotation' });
  await expect(quotes.getByRole('list', { name: 'Forex' })).toContainText('EUR/USD');
  await expect(page.getByRole('button', { name: 'Quotes list' })).toHaveAttribute('aria-pressed', 'true');
  // The order list panel shares the screen with the chart and the quotes (a visitor is asked to sign in).
  await expect(page.getByRole('region', { name: 'Positions' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/workspace-1440.png' });

  await quotes.getByRole('tab', { name: 'Commodities' }).click();
  await quotes.getByRole('button', { name: /Gold XAUUSD/ }).click();
  await expect(page.getByRole('region', { name: 'Gold' }).getByRole('img', { name: 'Price chart of Gold' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // The top bar's period select drives the chart panel.
  await page.getByRole('combobox', { name: 'Period' }).selectOption({ label: '15m' });
  await expect(page.getByRole('img', { name: 'Price chart of Gold' })).toHaveAttribute('data-loaded', '15min');

  await page.getByRole('button', { name: 'Search' }).first().click();
  const search = page.getByRole('region', { name: 'Search' });
  await search.getByRole('searchbox', { name: 'Keyword' }).fill('gbp');
  await search.getByRole('searchbox', { name: 'Keyword' }).press('Enter');
  await search.getByRole('button', { name: /GBP\/USD GBPUSD/ }).click();
  await expect(page.getByRole('region', { name: 'GBP/USD' })).toBeVisible();

  await page.getByRole('button', { name: 'Quotes list' }).click();
  await expect(quotes).toHaveCount(0);
});

test('a quote row opens the chart page on phones @mobile', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await page.getByRole('list', { name: 'Quotes' }).getByRole('button').first().click();
  await expect(page).toHaveURL(/\/[A-Z0-9]+\/chart$/);
  await expect(page.locator('.kline-chart')).toHaveAttribute('data-loaded', '1min');
});
