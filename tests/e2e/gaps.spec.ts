import { expect, test } from '@playwright/test';
import { callApi as api, demoSession, historyEntry, isDesktop, placeDemo, waitForApp } from './support';

test('the history\'s status tabs show the pending, open, closed and canceled orders, each under its own tab', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const bid = ((await api(page, '/market/thumb/BTCUSDT', demo.token)).data as { bidPrice: string }).bidPrice;
  // A buy limit well below the price waits; a second one is canceled.
  const limit = (Number(bid) * 0.8).toFixed(2);
  const pending = await placeDemo(page, demo.token, { buyPoint: 1, price: limit });
  const canceled = await placeDemo(page, demo.token, { buyPoint: 1, price: limit });
  expect((await api(page, '/exchange/cancelOrderMock', demo.token, { orderId: canceled })).code).toBe(0);
  const open = await placeDemo(page, demo.token, {});

  await page.goto('/history');
  const tabs = page.getByRole('tablist', { name: 'Order status' });
  await expect(tabs.getByRole('tab', { name: 'Deal' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No closed orders yet.')).toBeVisible();

  await tabs.getByRole('tab', { name: 'Pending' }).click();
  await expect(historyEntry(page, pending)).toBeVisible();
  await expect(historyEntry(page, open)).toHaveCount(0);

  await tabs.getByRole('tab', { name: 'Position' }).click();
  await expect(historyEntry(page, open)).toBeVisible();
  await expect(historyEntry(page, pending)).toHaveCount(0);

  await tabs.getByRole('tab', { name: 'Canceled' }).click();
  await expect(historyEntry(page, canceled)).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Canceled' })).toHaveAttribute('aria-selected', 'true');
  await page.screenshot({ path: `/tmp/shots/gaps/history-status-tabs-${test.info().project.name}.png` });
});

test('a product without options says it is not tradable in option mode instead of offering buy buttons', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  await page.goto('/SOLUSDT/chart');
  await expect(page.getByRole('link', { name: 'Buy' }).or(page.getByRole('button', { name: 'Buy', exact: true })).first()).toBeVisible();
  if (!isDesktop(page)) await page.goto('/position');
  const group = page.getByRole('group', { name: 'Trade mode' });
  await group.getByRole('button', { name: 'Option' }).click();
  await expect(group.getByRole('button', { name: 'Option' })).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/SOLUSDT/chart');
  await expect(page.getByRole('status').filter({ hasText: 'Not tradable in option mode' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rise' })).toHaveCount(0);
  await page.screenshot({ path: `/tmp/shots/gaps/not-tradable-option-${test.info().project.name}.png` });
  // A product with options keeps its buttons.
  await page.goto('/BTCUSDT/chart');
  await expect(page.getByRole('link', { name: 'Rise' }).or(page.getByRole('button', { name: 'Rise' })).first()).toBeVisible();
});

test('home\'s refresh button loads the banners and the products again, not only the switches @mobile', async ({ page }) => {
  const asked: string[] = [];
  const answered: string[] = [];
  const nameOf = (url: string) => {
    const path = new URL(url).pathname;
    return /\/(appBanner\/list|forex\/product\/list|getAllConfigStatusWeb)$/.test(path) ? path.split('/').at(-1)! : null;
  };
  page.on('request', (request) => {
    const name = nameOf(request.url());
    if (name) asked.push(name);
  });
  page.on('requestfinished', (request) => {
    const name = nameOf(request.url());
    if (name) answered.push(name);
  });
  await page.goto('/');
  await waitForApp(page);
  // Home's own first loads (the banners and the products, once each) may still be on their way
  // once it shows, and a refresh joins a load in flight: they are waited for and counted apart.
  await expect.poll(() => answered.filter((name) => name === 'list').length).toBe(2);
  asked.length = 0;
  await page.getByRole('button', { name: 'Refresh' }).first().click();
  await expect.poll(() => [...new Set(asked)].sort()).toEqual(['getAllConfigStatusWeb', 'list'].sort());
  await expect.poll(() => asked.filter((name) => name === 'list').length).toBe(2);
});

test('search closes to home with Escape @desktop', async ({ page }) => {
  await page.goto('/search?q=USD');
  await waitForApp(page);
  await expect(page.getByRole('search')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/$/);
});

test('positions in option mode have the unsettled and settled tabs @mobile', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  await page.goto('/position');
  await page.getByRole('group', { name: 'Trade mode' }).getByRole('button', { name: 'Option' }).click();
  const tabs = page.getByRole('tablist', { name: 'Option status' });
  await expect(tabs.getByRole('tab', { name: 'Unsettled' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No running options.')).toBeVisible();
  await tabs.getByRole('tab', { name: 'Settled', exact: true }).click();
  await expect(page.getByText('No settled options yet.')).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/gaps/position-option-tabs-mobile.png' });
});
