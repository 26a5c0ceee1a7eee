import { expect, test, type Locator, type Page } from '@playwright/test';
import { callApi as api, demoSession, waitForApp } from './support';

/** The desktop workspace at 1280×800 with every panel open: the chart / order board separator. */
test.use({ viewport: { width: 1280, height: 800 } });

/** How many rows of the grid lie wholly inside the board that clips them (what the trader sees without scrolling). */
async function rowsInView(grid: Locator, board: Locator): Promise<number> {
  const clip = await board.boundingBox();
  if (!clip) return 0;
  let seen = 0;
  for (const row of await grid.getByRole('row').all()) {
    const box = await row.boundingBox();
    if (box && box.height > 0 && box.y >= clip.y && box.y + box.height <= clip.y + clip.height + 0.5) seen += 1;
  }
  return seen;
}

async function placePositions(page: Page, token: string, count: number): Promise<string[]> {
  const placed: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const answer = await api(page, '/exchange/addOrderMock', token, { tradePair: i % 2 ? 'ETHUSDT' : 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: i % 2, buyPoint: 2, clientOrderId: `e2e-split-${i}-${Date.now()}` });
    expect(answer.code).toBe(0);
    placed.push(answer.data as string);
  }
  return placed;
}

test('the separator between chart and positions moves with the keys and the pointer, shows more rows, and is remembered after a reload @desktop', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const placed = await placePositions(page, demo.token, 10);
  await page.goto('/');
  const chartPanel = page.getByRole('region', { name: 'Bitcoin', exact: true });
  const chartImage = chartPanel.getByRole('img', { name: 'Price chart of Bitcoin' });
  await expect(chartImage).toHaveAttribute('data-loaded', '1min');
  // With the quotation list only, the chart is wide enough for its price legends over the candles.
  await expect(chartImage).toHaveAttribute('data-legend', 'always');
  // Every panel open: the order panel, search and the quotation list (open by default above 790 px).
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Place order · Bitcoin' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Quotation' })).toBeVisible();
  // The narrow chart keeps its candles: the legends follow the crosshair, the volume pane takes at most a quarter (32 px at least).
  await expect(chartImage).toHaveAttribute('data-legend', 'follow_cross');
  const chartHeight = (await chartImage.boundingBox())?.height ?? 0;
  expect(Number(await chartImage.getAttribute('data-sub-pane-height'))).toBeLessThanOrEqual(Math.max(32, Math.floor(chartHeight / 4)));

  const board = page.getByRole('region', { name: 'Positions' });
  const grid = board.getByRole('table', { name: 'Opening' });
  await expect(grid.getByRole('row', { name: new RegExp(placed[0]!) })).toBeVisible();
  // The key columns show at 1280 px: symbol, profit and loss and the close button of a row, inside the board.
  const first = grid.getByRole('row', { name: new RegExp(placed[placed.length - 1]!) });
  await expect(grid.getByRole('columnheader', { name: 'Profit/loss' })).toBeInViewport({ ratio: 1 });
  await expect(first.getByRole('button', { name: 'Close position' })).toBeInViewport({ ratio: 1 });
  await expect(first.getByRole('cell').first()).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'test-results/screens/workspace-split-1280-before.png' });

  const separator = page.getByRole('separator', { name: 'Resize chart and order list' });
  const before = Number(await separator.getAttribute('aria-valuenow'));
  const rowsBefore = await rowsInView(grid, board);
  expect(before).toBeGreaterThanOrEqual(30);
  await separator.focus();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
  // Four steps of 5% (kept above the 30% floor).
  const after = Math.max(30, before - 20);
  await expect(separator).toHaveAttribute('aria-valuenow', String(after));
  await expect.poll(() => rowsInView(grid, board)).toBeGreaterThan(rowsBefore);
  await page.screenshot({ path: 'test-results/screens/workspace-split-1280-after.png' });

  // Remembered: after a reload the split is where the trader left it.
  await page.reload();
  await expect(page.getByRole('separator', { name: 'Resize chart and order list' })).toHaveAttribute('aria-valuenow', String(after));
  await page.getByRole('separator', { name: 'Resize chart and order list' }).focus();
  await page.keyboard.press('End');
  const moved = page.getByRole('separator', { name: 'Resize chart and order list' });
  await expect(moved).toHaveAttribute('aria-valuenow', '85');

  // Dragged with the pointer: up by a fifth of the column gives the board 20% more.
  const handle = await moved.boundingBox();
  const column = await page.locator('.workspace-main').boundingBox();
  expect(handle && column).toBeTruthy();
  if (!handle || !column) return;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2 - column.height / 5, { steps: 5 });
  await page.mouse.up();
  await expect(moved).toHaveAttribute('aria-valuenow', '65');
});
