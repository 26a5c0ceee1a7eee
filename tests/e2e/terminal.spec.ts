import { expect, test, type Locator, type Page } from '@playwright/test';
import { callApi as api, demoSession, waitForApp } from './support';

/** The desktop terminal at 1440×900: what a trader must see stays in view. */

async function placeMarketOrder(page: Page, token: string, tradePair: string, orderType: 0 | 1): Promise<string> {
  const placed = await api(page, '/exchange/addOrderMock', token, { tradePair, price: '0', orderQuantity: '0.01', multiple: 20, orderType, buyPoint: 2, clientOrderId: `e2e-terminal-${tradePair}-${Date.now()}` });
  expect(placed.code).toBe(0);
  return placed.data as string;
}

/** The element lies wholly inside the window and inside the box that clips it (not scrolled or pushed out of its sight). */
async function expectWhollyInView(page: Page, element: Locator, clip: Locator) {
  const box = await element.boundingBox();
  const clipBox = await clip.boundingBox();
  const viewport = page.viewportSize();
  expect(box && clipBox && viewport).toBeTruthy();
  if (!box || !clipBox || !viewport) return;
  expect(box.width).toBeGreaterThan(0);
  expect(box.x).toBeGreaterThanOrEqual(Math.max(0, clipBox.x));
  expect(box.y).toBeGreaterThanOrEqual(Math.max(0, clipBox.y));
  expect(box.x + box.width).toBeLessThanOrEqual(Math.min(viewport.width, clipBox.x + clipBox.width) + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(Math.min(viewport.height, clipBox.y + clipBox.height) + 0.5);
}

test('with the order panel open, positions show profit and loss and a close button in view, the chart keeps over half the height, and a row closes its position @desktop', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const bitcoin = await placeMarketOrder(page, demo.token, 'BTCUSDT', 0);
  const ether = await placeMarketOrder(page, demo.token, 'ETHUSDT', 1);
  await page.goto('/');
  const chartPanel = page.getByRole('region', { name: 'Bitcoin', exact: true });
  await expect(chartPanel.getByRole('img', { name: 'Price chart of Bitcoin' })).toHaveAttribute('data-loaded', '1min');
  await chartPanel.getByRole('button', { name: 'Buy' }).click();
  await expect(page.getByRole('region', { name: 'Place order · Bitcoin' })).toBeVisible();

  const grid = page.getByRole('region', { name: 'Positions' }).getByRole('table', { name: 'Opening' });
  await expect(grid.getByRole('row', { name: `Ethereum ${ether}` })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: 'Profit/loss' })).toBeVisible();
  for (const uid of [bitcoin, ether]) {
    const row = grid.getByRole('row', { name: new RegExp(uid) });
    await expect(page.getByTestId(`grid-pnl-${uid}`)).toHaveText(/^-?\d+\.\d{2,8}$/);
    await expectWhollyInView(page, page.getByTestId(`grid-pnl-${uid}`), grid);
    await expectWhollyInView(page, row.getByRole('button', { name: 'Close position' }), grid);
    await expectWhollyInView(page, row.getByRole('cell').first(), grid);
  }
  // The chart, not the order list, gets the height: at least 55% of the window.
  const chartBox = await chartPanel.boundingBox();
  expect((chartBox?.height ?? 0) / 900).toBeGreaterThanOrEqual(0.55);
  await page.screenshot({ path: 'test-results/screens/terminal-1440.png' });

  // The row's own close button asks first, as the drawer does; the position then leaves the grid.
  await grid.getByRole('row', { name: new RegExp(ether) }).getByRole('button', { name: 'Close position' }).click();
  await expect(page.getByRole('dialog', { name: /Order details/ })).toHaveCount(0);
  await page.getByRole('dialog', { name: 'Close position' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(grid.getByRole('row', { name: new RegExp(ether) })).toHaveCount(0);
  await expect(grid.getByRole('row', { name: new RegExp(bitcoin) })).toBeVisible();
  // The order list is as tall as its rows: one row fewer gives the chart more.
  await expect.poll(async () => (await chartPanel.boundingBox())?.height ?? 0).toBeGreaterThan((chartBox?.height ?? 0) + 20);
});

test('option mode keeps market positions on the board; the rail separates page links from panel toggles; chart controls only where a chart is @desktop', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const bitcoin = await placeMarketOrder(page, demo.token, 'BTCUSDT', 0);
  await page.goto('/');
  const orderList = page.getByRole('region', { name: 'Positions' });
  await expect(orderList.getByRole('row', { name: new RegExp(bitcoin) })).toBeVisible();

  const mode = page.getByRole('group', { name: 'Trade mode' });
  await mode.getByRole('button', { name: 'Option' }).click();
  await expect(mode.getByRole('button', { name: 'Option' })).toHaveAttribute('aria-pressed', 'true');
  await expect(orderList.getByRole('table', { name: 'Opening' }).getByRole('row', { name: new RegExp(bitcoin) })).toBeVisible();
  const tabs = orderList.getByRole('group', { name: 'Orders' });
  await tabs.getByRole('button', { name: 'Options', exact: true }).click();
  await expect(orderList.getByText('No running options.')).toBeVisible();
  await tabs.getByRole('button', { name: 'Opening' }).click();
  await expect(orderList.getByRole('row', { name: new RegExp(bitcoin) })).toBeVisible();

  // Page links are links in the navigation, the current page marked; panels are toggle buttons apart.
  const links = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(links.getByRole('button')).toHaveCount(0);
  await expect(links.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  const panels = page.getByRole('group', { name: 'Panels' });
  await expect(panels.getByRole('button', { name: 'Positions' })).toHaveAttribute('aria-pressed', 'true');
  await expect(panels.getByRole('button', { name: 'History' })).toHaveAttribute('aria-pressed', 'false');
  await panels.getByRole('button', { name: 'History' }).click();
  await expect(panels.getByRole('button', { name: 'History' })).toHaveAttribute('aria-pressed', 'true');
  await expect(panels.getByRole('button', { name: 'Positions' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('region', { name: 'History' })).toBeVisible();

  // The chart's controls are in the top bar with the chart, and gone on a page without one.
  await expect(page.getByRole('combobox', { name: 'Period' })).toBeVisible();
  await links.getByRole('link', { name: 'Quotation' }).click();
  await expect(page).toHaveURL(/\/quotation$/);
  await expect(links.getByRole('link', { name: 'Quotation' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('combobox', { name: 'Period' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Indicators' })).toHaveCount(0);
  await expect(panels.getByRole('button', { name: 'History' })).toHaveAttribute('aria-pressed', 'false');
});
