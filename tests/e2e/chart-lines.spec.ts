import { expect, test, type Page } from '@playwright/test';
import { callApi, demoSession, isDesktop, placeDemo, shownPrice, waitForApp } from './support';

const chartOf = (page: Page) => page.getByRole('img', { name: 'Price chart of Bitcoin' });
const lines = (page: Page) => page.getByRole('list', { name: 'Lines on the chart' });
const lineOf = (page: Page, id: string) => lines(page).locator(`[data-line-id="${id}"]`);

interface Position {
  uid: string;
  stopPrice: string | null;
}

/** BTCUSDT's bid as the chart's quote shows it ("66,886.04" → 66886.04). */
async function bidOf(page: Page): Promise<number> {
  const text = (await page.getByTestId('quote-bid').textContent()) ?? '';
  return Number(text.replace(/,/g, ''));
}

// @desktop: on the phone a simulated finger (CDP touch events, Playwright's tap) neither moves a line nor places a
// drawing yet, and that is not known to work by touch: issue 33 lists it as left.
test('the chart draws a position with its stop loss and take profit and a pending order; dragging the stop loss modifies it after the confirmation @desktop', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/BTCUSDT/chart');
  await waitForApp(page);
  const demo = await demoSession(page);
  await expect(chartOf(page)).toHaveAttribute('data-loaded', '1min');
  await expect(page.getByTestId('quote-bid')).toHaveText(/\d/);
  const bid = await bidOf(page);
  // Levels near the price, so that they are inside the chart's price scale.
  const stopLoss = (bid * 0.9985).toFixed(2);
  const takeProfit = (bid * 1.0015).toFixed(2);
  const position = await placeDemo(page, demo.token, { stopPrice: stopLoss, takeProfitPrice: takeProfit });
  const pending = await placeDemo(page, demo.token, { price: (bid * 0.8).toFixed(2), buyPoint: 1, stopPrice: (bid * 0.7).toFixed(2) });

  // Each one's line, live: the entry with its profit, the levels, the pending price with its level.
  await expect(lineOf(page, `${position}:entry`)).toHaveText(/^Buy 0\.01 · P\/L [+-][\d,]+\.\d{2}$/);
  await expect(lineOf(page, `${position}:entry`)).toHaveAttribute('data-draggable', 'false');
  // Labels read as the app's prices do: grouped, at the product's digits.
  await expect(lineOf(page, `${position}:stopLoss`)).toHaveText(`SL ${shownPrice(stopLoss)}`);
  await expect(lineOf(page, `${position}:takeProfit`)).toHaveAttribute('data-price', takeProfit);
  await expect(lineOf(page, `${pending}:pending`)).toHaveText(/^Buy limit 0\.01 @ [\d,]+\.\d{2}$/);
  await expect(lineOf(page, `${pending}:stopLoss`)).toHaveCount(1);

  // A stop loss dragged above the price snaps back with the form's reason.
  const stopLine = lineOf(page, `${position}:stopLoss`);
  await expect(stopLine).toHaveAttribute('data-y', /^\d+$/);
  const box = await chartOf(page).boundingBox();
  if (!box) throw new Error('no chart');
  // A finger on the phone (the chart follows touches there), the mouse on desktop.
  const touch = isDesktop(page) ? null : await page.context().newCDPSession(page);
  async function drag(fromY: number, toY: number) {
    const x = box!.x + 24;
    if (touch) {
      const at = (y: number) => [{ x, y: box!.y + y }];
      await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(fromY) });
      for (let step = 1; step <= 8; step += 1) await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(fromY + ((toY - fromY) * step) / 8) });
      await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      return;
    }
    // Paced as a hand moves: the chart takes at most one pressed move per 20 ms and drops the
    // rest, so moves sent back to back can leave the line short of the pointer, or unmoved.
    await page.mouse.move(x, box!.y + fromY);
    await page.mouse.down();
    for (let step = 1; step <= 8; step += 1) {
      await page.mouse.move(x, box!.y + fromY + ((toY - fromY) * step) / 8);
      await page.waitForTimeout(30);
    }
    await page.mouse.up();
  }
  const entryY = Number(await lineOf(page, `${position}:entry`).getAttribute('data-y'));
  const stopY = Number(await stopLine.getAttribute('data-y'));
  await drag(stopY, Math.max(4, entryY - 40));
  await expect(page.getByText(/^Stop loss must be below [\d.]+ for a buy\.$/)).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(stopLine).toHaveAttribute('data-price', stopLoss);
  await expect(stopLine).toHaveAttribute('data-y', String(stopY));

  // Dragged a third of the way to the entry (still below the price, and inside the price pane: the scale may
  // put the stop loss near the pane's bottom edge), it asks as the form does, then the stop loss is the dropped price.
  await drag(stopY, stopY - Math.round((stopY - entryY) / 3));
  const confirm = page.getByRole('dialog', { name: 'Bitcoin · Edit order' });
  await expect(confirm).toContainText(/Move the stop loss from [\d,.]+ to [\d,.]+\?/);
  await confirm.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Order updated')).toBeVisible();
  await expect(stopLine).not.toHaveAttribute('data-price', stopLoss);
  const moved = Number(await stopLine.getAttribute('data-price'));
  expect(moved).toBeGreaterThan(Number(stopLoss));
  const held = (await callApi(page, '/v1/waa/order/listMock', demo.token, { uid: position })).data as { list: Position[] };
  expect(held.list.find((each) => each.uid === position)?.stopPrice).toBe(await stopLine.getAttribute('data-price'));

  // Closed and canceled orders leave the chart.
  expect((await callApi(page, '/exchange/cancelOrderMock', demo.token, { orderId: pending })).code).toBe(0);
  await expect(lineOf(page, `${pending}:pending`)).toHaveCount(0);
  await expect(lineOf(page, `${pending}:stopLoss`)).toHaveCount(0);
});

test('a drawing is kept for its symbol and drawn again after a reload @desktop', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/BTCUSDT/chart');
  await waitForApp(page);
  await expect(chartOf(page)).toHaveAttribute('data-loaded', '1min');
  await expect(chartOf(page)).toHaveAttribute('data-drawings', '0');
  // The volume pane keeps a readable height (it was squeezed to about 40 px on the phone).
  expect(Number(await chartOf(page).getAttribute('data-sub-pane-height'))).toBeGreaterThanOrEqual(isDesktop(page) ? 80 : 64);
  const more = page.getByRole('button', { name: 'More', exact: true });
  if (await more.isVisible()) await more.click();
  await page.getByRole('button', { name: 'Drawing tools' }).click();
  await page.getByRole('dialog', { name: 'Drawing tools' }).getByRole('button', { name: 'Horizontal line', exact: true }).click();
  const box = await chartOf(page).boundingBox();
  if (!box) throw new Error('no chart');
  if (isDesktop(page)) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 3);
  else await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 3);
  await expect(chartOf(page)).toHaveAttribute('data-drawings', '1');

  await page.reload();
  await waitForApp(page);
  await expect(chartOf(page)).toHaveAttribute('data-loaded', '1min');
  await expect(chartOf(page)).toHaveAttribute('data-drawings', '1');
  // Another symbol has its own (none).
  await page.getByRole('combobox', { name: 'Product' }).selectOption({ label: 'Ethereum' });
  await expect(page.getByRole('img', { name: 'Price chart of Ethereum' })).toHaveAttribute('data-drawings', '0');
});
