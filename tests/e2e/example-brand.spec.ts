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
  // Its logo beside its name: on the desktop's top bar, on the phone's home.
  const logoBesideName = isDesktop(page) ? page.locator('.top-bar .brand-logo') : page.locator('.page-title .home-brand .brand-logo');
  await expect(logoBesideName).toHaveAttribute('src', '/logo.svg');
  await expect.poll(() => logoBesideName.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  if (isDesktop(page)) {
    await expect(page.getByRole('button', { name: /^Rise/ })).toBeVisible();
  } else {
    await expect(page.locator('.page-title .home-brand')).toHaveText('Harbor Options');
    // Its banners and only its two home shortcuts.
    await expect(page.locator('.banner-carousel img').first()).toHaveAttribute('src', '/banners/harbor-1.svg');
    await expect(page.getByRole('navigation', { name: 'Trade types' }).getByRole('link')).toHaveText(['Deposit', 'Support']);
  }

  // Its catalogue (catalogue.json): its symbols under its names with its icons, none of the default brand's others.
  await page.goto('/quotation');
  await waitForApp(page);
  const tabs = page.getByRole('tablist', { name: 'Product types' });
  await tabs.getByRole('tab', { name: 'Cryptos' }).click();
  const cryptos = page.getByRole('list', { name: 'Cryptos' });
  await expect(cryptos.getByRole('listitem')).toHaveCount(2);
  await expect(cryptos.getByRole('button', { name: /^Ether ETHUSDT/ })).toBeVisible();
  await expect(cryptos.getByRole('button', { name: /^Bitcoin BTCUSDT/ })).toBeVisible();
  await expect(cryptos.locator('.quote-logo').first()).toHaveAttribute('src', '/symbols/ETHUSDT.svg');
  await expect.poll(() => cryptos.locator('.quote-logo').first().evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await tabs.getByRole('tab', { name: 'Commodities' }).click();
  const commodities = page.getByRole('list', { name: 'Commodities' });
  await expect(commodities.getByRole('listitem')).toHaveCount(2);
  await expect(commodities).toContainText('Gold spot');
  await expect(commodities).toContainText('Silver spot');
  await expect(commodities).not.toContainText('WTI Crude Oil');
  await page.goto('/');
  await waitForApp(page);

  // The languages it offers, and no others.
  await page.getByRole('button', { name: /^Language: English$/ }).click();
  await expect(page.getByRole('listbox', { name: 'Language' }).getByRole('option')).toHaveText(['English', '日本語', 'Deutsch', 'Español']);
  await page.keyboard.press('Escape');

  // Its logo beside its name on the sign-in screen (the desktop card's footer, the phone's head).
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
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rise · Ether');
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

  // Its own static pages (pages/<lang>.json): its trading rules and its deposit terms, in English and in Japanese.
  await page.goto('/user/standards');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbor trading rules');
  await expect(page.getByRole('heading', { level: 2, name: 'One price for everyone' })).toBeVisible();
  await expect(page.getByText('Harbor Options offers timed options only.', { exact: false })).toBeVisible();
  await expect(page.locator('.static-text')).not.toContainText('Best execution');
  await page.goto('/user/agreement');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbor deposit terms');
  await page.goto('/user/privacy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbor privacy notice');
  await expect(page.getByText(/at least 18 years old/)).toBeVisible();
  await expect(page.locator('body')).not.toContainText('TradeWeb');
  // The browser tab names this brand, never the default one (the served page names none).
  await expect(page).toHaveTitle('Harbor Options');
  expect(await (await page.request.get('/')).text()).not.toContain('TradeWeb');

  // Nothing of the default brand: its name, its banners, its shortcuts' icons, its symbol icons.
  await expect(page.locator('body')).not.toContainText('TradeWeb');
  expect(images.filter((image) => /^\/banners\/banner-|^\/trade-types\/(market|withdraw)\.svg$|^\/logos\//.test(image))).toEqual([]);
  expect(images).toContain(isDesktop(page) ? '/logo.svg' : '/banners/harbor-1.svg');
});
