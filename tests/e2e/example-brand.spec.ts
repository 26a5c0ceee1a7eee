import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { callApi, demoSession, isDesktop, waitForApp } from './support';

/**
 * The second brand, started from its folder alone (BRAND_DIR=brands/example): the suite's
 * server starts it on PORT+7 with the built app (scripts/e2e-server.mjs, `/example-brand`).
 * Every difference from the default brand shows, and nothing of the default brand does.
 */
const suitePort = Number(process.env.E2E_PORT ?? 8181);
const brandOrigin = `http://localhost:${suitePort + 7}`;
test.use({ baseURL: brandOrigin });

const exampleFile = (file: string) => fs.readFileSync(`brands/example/public/${file}`, 'utf8');

test("the example brand: its name, logo, colours and languages, options only with its fees and limits, nothing of the default brand's", async ({ page }) => {
  test.setTimeout(240_000);
  expect((await fetch(`http://localhost:${suitePort + 2}/example-brand`, { method: 'POST' })).status).toBe(202);
  await expect
    .poll(async () => (await fetch(`${brandOrigin}/healthz`).catch(() => null))?.status ?? 0, { timeout: 180_000, intervals: [500] })
    .toBe(200);
  const images: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/\.(svg|png|jpe?g)$/.test(url.pathname)) images.push(url.pathname);
  });

  await page.goto('/');
  await waitForApp(page);
  await expect(page.getByText('Harbor Options', { exact: true }).first()).toBeVisible();
  // The brand's first colour is the accent; the tab's icon is its favicon.
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim())).toBe('#0d6e5a');
  expect(await (await page.request.get('/favicon.svg')).text()).toBe(exampleFile('favicon.svg'));
  // One trade mode offered: no mode switch, and the trade buttons are the option's.
  await expect(page.getByRole('group', { name: 'Trade mode' })).toHaveCount(0);
  if (isDesktop(page)) {
    await expect(page.locator('.top-bar .brand-logo')).toHaveAttribute('src', '/logo.svg');
    await expect(page.getByRole('button', { name: /^Rise/ })).toBeVisible();
  } else {
    // Its banners and only its two home shortcuts.
    await expect(page.locator('.banner-carousel img').first()).toHaveAttribute('src', '/banners/harbor-1.svg');
    await expect(page.getByRole('navigation', { name: 'Trade types' }).getByRole('link')).toHaveText(['Deposit', 'Support']);
  }

  // The languages it offers, and no others.
  await page.getByRole('button', { name: /^Language: English$/ }).click();
  await expect(page.getByRole('listbox', { name: 'Language' }).getByRole('option')).toHaveText(['English', '日本語', 'Deutsch', 'Español']);
  await page.keyboard.press('Escape');

  // Its logo beside its name on the sign-in screen.
  await page.goto('/login');
  const logo = page.locator('.auth-brand .brand-logo');
  await expect(logo).toHaveAttribute('src', '/logo.svg');
  await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  expect(await (await page.request.get('/logo.svg')).text()).toBe(exampleFile('logo.svg'));
  await expect(page.locator('.auth-brand')).toHaveText('Harbor Options');

  // Its option terms: its delivery times and payouts, preset amounts, bounds and 2 % fee.
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  await page.goto('/ETHUSDT/placeOption?direction=0');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rise · Ethereum');
  await expect(page.getByRole('radio', { name: / Profit / })).toHaveCount(2);
  await expect(page.getByRole('radio', { name: /^45s Profit 75%$/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: /^90s Profit 82%$/ })).toBeVisible();
  await page.getByRole('radio', { name: /^45s Profit 75%$/ }).check();
  await expect(page.getByRole('group', { name: 'Preset amounts' }).getByRole('button')).toHaveText(['20', '40', '200']);
  await expect(page.getByLabel('Amount', { exact: true })).toHaveAttribute('placeholder', 'Min 20, max 5000');
  await page.getByRole('group', { name: 'Preset amounts' }).getByRole('button', { name: '200' }).click();
  await expect(page.getByTestId('option-fee')).toHaveText('4.00');
  await expect(page.getByTestId('option-expected-profit')).toHaveText('150.00');
  // A market order is refused by this brand's server: the trade mode is not offered.
  const marketOrder = await callApi(page, '/exchange/addOrderMock', demo.token, { tradePair: 'ETHUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: 'example-brand-market' });
  expect([304, 603]).toContain(marketOrder.code);

  // Nothing of the default brand: its name, its banners, its shortcuts' icons.
  await expect(page.locator('body')).not.toContainText('TradeWeb');
  expect(images.filter((image) => /^\/banners\/banner-|^\/trade-types\/(market|withdraw)\.svg$/.test(image))).toEqual([]);
  expect(images).toContain(isDesktop(page) ? '/logo.svg' : '/banners/harbor-1.svg');
});
