import { expect, test } from '@playwright/test';
import { isDesktop, waitForApp } from './support';

test('quotation tabs switch the listed product type and rows show live quotes', async ({ page }) => {
  await page.goto('/quotation');
  await waitForApp(page);
  const tabs = page.getByRole('tablist', { name: 'Product types' });
  await expect(tabs.getByRole('tab')).toHaveText(['Forex', 'Commodities', 'Indices', 'Cryptos', 'US stocks']);
  await expect(tabs.getByRole('tab', { name: 'Forex' })).toHaveAttribute('aria-selected', 'true');
  const rows = page.getByRole('list', { name: 'Forex' }).getByRole('listitem');
  await expect(rows.first()).toContainText('EUR/USD');
  await expect(page.getByRole('list', { name: 'Forex' })).not.toContainText('Bitcoin');

  await tabs.getByRole('tab', { name: 'Cryptos' }).click();
  await expect(tabs.getByRole('tab', { name: 'Cryptos' })).toHaveAttribute('aria-selected', 'true');
  const crypto = page.getByRole('list', { name: 'Cryptos' });
  await expect(crypto).toContainText('Bitcoin');
  await expect(crypto).not.toContainText('EUR/USD');
  // Crypto quotes round the clock in the simulator: the visible row gets live prices that move.
  const bid = page.getByTestId('quote-bid-BTCUSDT');
  await expect(bid).toHaveText(/^[\d,]+\.\d{2}$/);
  const first = await bid.textContent();
  await expect(bid).not.toHaveText(first ?? '', { timeout: 15_000 });
  await expect(crypto.getByRole('listitem').filter({ hasText: 'Bitcoin' })).toContainText(/[+-]?\d+\.\d{2}%/);
  await page.screenshot({ path: `test-results/screens/quotation-${page.viewportSize()?.width}.png` });

  // A row opens the chart page on phones and selects the workspace's product on desktop.
  await crypto.getByRole('button', { name: /Bitcoin BTCUSDT/ }).click();
  if (isDesktop(page)) {
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('region', { name: 'Bitcoin' })).toBeVisible();
  } else await expect(page).toHaveURL(/\/BTCUSDT\/chart$/);
});

test('search "USD" from a hot-search button finds forex pairs; an unknown keyword says so', async ({ page }) => {
  await page.goto('/search');
  await waitForApp(page);
  await page.getByRole('group', { name: 'Hot search' }).getByRole('button', { name: 'USD' }).click();
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results).toContainText('EUR/USD');
  await expect(results).toContainText('USD/JPY');
  await expect(page).toHaveURL(/\/search\?q=USD$/);
  await page.screenshot({ path: `test-results/screens/search-${page.viewportSize()?.width}.png` });

  const field = page.getByRole('searchbox', { name: 'Keyword' });
  await field.fill('zzqq');
  await field.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /No product matches/ })).toHaveText('No product matches “zzqq”.');
  await expect(results).toHaveCount(0);
});

test('home lists the first three products under the hot cards @mobile', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  const quotes = page.getByRole('list', { name: 'Quotes' });
  await expect(quotes.getByRole('listitem')).toHaveCount(3);
  await page.getByRole('link', { name: 'All quotes' }).click();
  await expect(page).toHaveURL(/\/quotation$/);
});
