import { expect, test, type Page } from '@playwright/test';
import { formatAmount } from '../../src/shared/format/amount';
import { adoptTokens, buyFromPlaceFormAndViewPosition, callApi as api, createSession, demoSession, expectMovingProfitThenClose, isDesktop, shownPrice, waitForApp } from './support';

interface Closed {
  uid: string;
  productName: string;
  closingPrice: string;
  profitLoss: string;
}
interface HistoryData {
  list: Closed[];
  pages: number;
  profitLossToday: string;
  profitLossTotal: string;
}

/** The brand's config groups amounts with commas (public/config.json). */
const amount = (value: string) => formatAmount(value, { grouping: true });

/** A closed order's entry: a list row's button on phones, a grid row on desktop. */
function historyEntry(page: Page, orderNo: string) {
  return page.getByRole(isDesktop(page) ? 'row' : 'button', { name: new RegExp(orderNo) });
}

/** Scrolls the history's scroller (list or grid body) to its end. */
async function scrollHistoryToEnd(page: Page) {
  await page.locator('.history-scroller, .history-board .virtual-grid-scroller').first().evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }));
}

async function historyMock(page: Page, token: string, pageNo = 1): Promise<HistoryData> {
  const answer = await api(page, '/v1/waa/order/historyMock', token, { page: pageNo, limit: 10, positionStatus: 3 });
  expect(answer.code).toBe(0);
  return answer.data as HistoryData;
}

test('a demo market order placed through the form, live in positions, closed, is in history with its details; the real account stays apart', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForApp(page);
  const real = await createSession(page);
  const switched = await api(page, '/v1/waa/user/switch', real.token);
  expect(switched.code).toBe(0);
  const demo = switched.data as { token: string; refreshToken: string };
  await adoptTokens(page, demo);
  const realBalance = (await api(page, '/v1/waa/user/balance', real.token)).data;

  // Placed through the place form, as a user does.
  await page.goto('/BTCUSDT/place?direction=0');
  const orderNo = await buyFromPlaceFormAndViewPosition(page);

  // Live in positions: its profit moves with the price (crypto quotes round the clock).
  await expectMovingProfitThenClose(page, orderNo);

  const history = await historyMock(page, demo.token);
  const closed = history.list.find((order) => order.uid === orderNo);
  expect(closed).toBeDefined();

  // The history page: the tab bar's link on phones; on desktop the side button opens the
  // start page's panel instead, so the page is reached by its address.
  if (isDesktop(page)) await page.goto('/history');
  else await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/\/history$/);
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  const entry = historyEntry(page, orderNo);
  await expect(entry).toContainText('Bitcoin');
  await expect(entry).toContainText('Buy');
  await expect(entry).toContainText(shownPrice(closed!.closingPrice, 2));
  await expect(page.getByTestId(`history-pnl-${orderNo}`)).toHaveText(amount(closed!.profitLoss));
  await expect(page.getByText('No more orders.')).toBeVisible();

  // Today's and the total profit and loss, toggled.
  await expect(page.getByText("Today's profit and loss")).toBeVisible();
  await expect(page.getByTestId('history-pnl')).toHaveText(amount(history.profitLossToday));
  await page.getByRole('group', { name: 'Profit and loss period' }).getByRole('button', { name: 'Total' }).click();
  await expect(page.getByText('Total profit and loss')).toBeVisible();
  await expect(page.getByTestId('history-pnl')).toHaveText(amount(history.profitLossTotal));

  // The details drawer: every field, the close price and close time among them.
  await entry.click();
  const drawer = page.getByRole('dialog', { name: /Order details/ });
  await expect(drawer).toContainText(orderNo);
  const field = (label: string) => drawer.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(field('Close price')).toHaveText(shownPrice(closed!.closingPrice, 2));
  await expect(field('Close time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await expect(field('Open time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await expect(field('Price type')).toHaveText('Market price');
  await expect(field('Close reason')).toHaveText('Closed by you');
  await expect(field('Profit and loss')).toHaveText(amount(closed!.profitLoss));
  await page.screenshot({ path: `test-results/history-drawer-${test.info().project.name}.png` });
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toHaveCount(0);

  // Demo trading left the real account as it was.
  expect((await api(page, '/v1/waa/user/balance', real.token)).data).toEqual(realBalance);
  expect(((await api(page, '/v1/waa/order/history', real.token, { positionStatus: 3 })).data as HistoryData).list).toEqual([]);

  // Back to the real account: the page loads the real (empty) history from page 1.
  const back = await api(page, '/v1/waa/user/switch', demo.token);
  expect(back.code).toBe(0);
  await adoptTokens(page, back.data as { token: string; refreshToken: string });
  await expect(page.getByText('No closed orders yet.')).toBeVisible();
  await expect(entry).toHaveCount(0);
  await expect(page.getByTestId('history-pnl')).toHaveText('0.00');
});

test('history loads the next page of closed orders only as the end of the list comes into view', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  // 35 closed orders: 4 pages of 10, more than a screen holds in either layout.
  const orders: string[] = [];
  for (let index = 0; index < 35; index += 1) {
    const placed = await api(page, '/exchange/addOrderMock', demo.token, {
      tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: index % 2, buyPoint: 2, clientOrderId: `e2e-h-${Date.now()}-${index}`,
    });
    expect(placed.code).toBe(0);
    const orderNo = placed.data as string;
    expect((await api(page, '/exchange/closeOrderMock', demo.token, { orderId: orderNo })).code).toBe(0);
    orders.push(orderNo);
  }
  const firstPage = await historyMock(page, demo.token, 1);
  expect(firstPage.list).toHaveLength(10);
  expect(firstPage.pages).toBe(4);
  // Newest closed first: the first orders closed are on the last page.
  expect((await historyMock(page, demo.token, 4)).list.map((order) => order.uid)).toEqual([orders[4], orders[3], orders[2], orders[1], orders[0]]);

  const requested: number[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/v1/waa/order/historyMock')) requested.push((request.postDataJSON() as { page: number }).page);
  });
  await page.goto('/history');
  await expect(historyEntry(page, orders[34]!)).toBeVisible();
  await page.screenshot({ path: `test-results/history-${test.info().project.name}.png` });
  // Only the pages that fill the screen (and a few rows beyond it) load by themselves.
  await page.waitForTimeout(1_500);
  expect(requested.length).toBeGreaterThanOrEqual(1);
  expect(requested).not.toContain(4);
  await expect(page.getByText('No more orders.')).toHaveCount(0);

  // Scrolling down brings the end into view again and again until the last page is in.
  await expect(async () => {
    await scrollHistoryToEnd(page);
    await expect(page.getByText('No more orders.')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  // The last page arrived below where the list was scrolled to: its rows exist once in view.
  await scrollHistoryToEnd(page);
  await expect(historyEntry(page, orders[0]!)).toBeVisible();
  await expect(historyEntry(page, orders[0]!)).toContainText('Bitcoin');
  // Each page once, in order, and none beyond the last.
  expect(requested).toEqual([1, 2, 3, 4]);
});

test('history stops loading after more than 5 failures in a row, says so, and loads again from the retry button', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const placed = await api(page, '/exchange/addOrderMock', demo.token, { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: 1, buyPoint: 2, clientOrderId: `e2e-f-${Date.now()}` });
  const orderNo = placed.data as string;
  expect((await api(page, '/exchange/closeOrderMock', demo.token, { orderId: orderNo })).code).toBe(0);

  let failed = 0;
  await page.route('**/v1/waa/order/historyMock', async (route) => {
    failed += 1;
    await route.abort('connectionfailed');
  });
  await page.goto('/history');
  await expect(page.getByText('Loading failed. Trying again…')).toBeVisible();
  const stopped = page.getByRole('alert').filter({ hasText: 'The history could not be loaded.' });
  await expect(stopped).toBeVisible({ timeout: 20_000 });
  expect(failed).toBe(6);
  // Stopped for good: no further tries on its own.
  await page.waitForTimeout(3_500);
  expect(failed).toBe(6);

  await page.unroute('**/v1/waa/order/historyMock');
  await stopped.getByRole('button', { name: 'Retry' }).click();
  await expect(historyEntry(page, orderNo)).toContainText('Sell');
  await expect(page.getByText('No more orders.')).toBeVisible();
});
