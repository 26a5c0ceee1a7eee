import { expect, test } from '@playwright/test';
import { waitForApp } from './support';

test('home: banner carousel with pagination, three hot cards with moving prices and mini charts, the trade-type grid @mobile', async ({ page }) => {
  test.setTimeout(45_000);
  await page.goto('/');
  await waitForApp(page);

  const carousel = page.getByRole('region', { name: 'Banners' });
  const pages = carousel.getByRole('group', { name: 'Banner pages' }).getByRole('button');
  await expect(pages).toHaveCount(3);
  await pages.nth(2).click();
  await expect(pages.nth(2)).toHaveAttribute('aria-current', 'true');
  // Auto-play moves on by itself every 3 s (and loops), once the pointer has left.
  await page.mouse.move(0, 800);
  await expect(pages.nth(0)).toHaveAttribute('aria-current', 'true', { timeout: 8_000 });

  const cards = page.getByRole('region', { name: 'Hot products' }).getByRole('listitem');
  await expect(cards).toHaveCount(3);
  await expect(page.getByTestId('bid-BTCUSDT')).toHaveText(/^[\d,]+\.\d{2}$/);
  const first = await page.getByTestId('bid-BTCUSDT').textContent();
  await expect(page.getByTestId('bid-BTCUSDT')).not.toHaveText(first ?? '', { timeout: 15_000 });
  // 30 minutes of 1-minute bars (the server backfilled history at first start).
  await expect.poll(async () => Number(await page.locator('.hot-card .mini-chart').first().getAttribute('data-points'))).toBeGreaterThanOrEqual(30);

  const tradeTypes = page.getByRole('navigation', { name: 'Trade types' }).getByRole('link');
  await expect(tradeTypes).toHaveText(['Markets', 'Deposit', 'Withdraw', 'Support']);
  await page.screenshot({ path: 'test-results/screens/home-full-390.png', fullPage: true });

  await page.getByRole('link', { name: 'BTCUSDT' }).click();
  await expect(page).toHaveURL(/\/BTCUSDT\/chart$/);
});
