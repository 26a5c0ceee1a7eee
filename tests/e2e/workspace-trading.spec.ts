import { expect, test } from '@playwright/test';
import { callApi as api, demoSession, waitForApp } from './support';

test('desktop trading: the place-order panel places a sell, the positions grid shows it live, a row closes it, the side buttons switch lists @desktop', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  await page.goto('/');
  const chartPanel = page.getByRole('region', { name: 'Bitcoin' });
  await expect(chartPanel.getByRole('img', { name: 'Price chart of Bitcoin' })).toHaveAttribute('data-loaded', '1min');

  // The order list shows positions by default; the account has none yet.
  const orderList = page.getByRole('region', { name: 'Positions' });
  await expect(orderList.getByText('No open positions.')).toBeVisible();

  // The chart's Sell button opens the placement panel on the sell side.
  await chartPanel.getByRole('button', { name: 'Sell' }).click();
  const placePanel = page.getByRole('region', { name: 'Place order · Bitcoin' });
  await expect(placePanel).toBeVisible();
  await expect(page.getByRole('button', { name: 'Place order' })).toHaveAttribute('aria-pressed', 'true');
  const side = placePanel.getByRole('group', { name: 'Direction' });
  await expect(side.getByRole('button', { name: 'Sell' })).toHaveAttribute('aria-pressed', 'true');
  await expect(placePanel.getByText(/^Sell price now/)).toBeVisible();
  await side.getByRole('button', { name: 'Buy' }).click();
  await expect(placePanel.getByText(/^Buy price now/)).toBeVisible();
  await side.getByRole('button', { name: 'Sell' }).click();
  await placePanel.getByLabel('Volume (lots)').fill('0.20');
  await placePanel.getByRole('button', { name: 'Sell', exact: true }).last().click();
  const placed = page.getByRole('region', { name: 'Order placed' });
  const orderNo = (await placed.getByTestId('placed-order').textContent()) ?? '';
  expect(orderNo).toMatch(/^\d{16}$/);
  await placed.getByRole('button', { name: 'View position' }).click();
  await expect(page).toHaveURL(/\/$/);

  // The grid row: direction, volume and a profit that moves with the price.
  const grid = orderList.getByRole('table', { name: 'Opening' });
  const row = grid.getByRole('row', { name: `Bitcoin ${orderNo}` });
  await expect(row).toContainText('Sell');
  await expect(row).toContainText('0.20');
  await expect(grid.getByRole('columnheader', { name: 'Stop loss' })).toBeVisible();
  const pnl = page.getByTestId(`grid-pnl-${orderNo}`);
  await expect(pnl).toHaveText(/^-?\d+\.\d{2,8}$/);
  const first = await pnl.textContent();
  await expect(pnl).not.toHaveText(first ?? '', { timeout: 20_000 });
  await page.screenshot({ path: 'test-results/screens/workspace-trading-1440.png' });

  await row.click();
  const drawer = page.getByRole('dialog', { name: /Order details/ });
  await drawer.getByRole('button', { name: 'Close position' }).click();
  await page.getByRole('dialog', { name: 'Close position' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Operation successful')).toBeVisible();
  await expect(orderList.getByText('No open positions.')).toBeVisible();
  const history = (await api(page, '/v1/waa/order/historyMock', demo.token, { positionStatus: 3 })).data as { list: { uid: string; orderType: number }[] };
  expect(history.list).toEqual([expect.objectContaining({ uid: orderNo, orderType: 1 })]);

  // Side buttons: the same button hides the list again; the panel's close button hides the form.
  const positionsButton = page.getByRole('group', { name: 'Panels' }).getByRole('button', { name: 'Positions' });
  await expect(positionsButton).toHaveAttribute('aria-pressed', 'true');
  await positionsButton.click();
  await expect(orderList).toHaveCount(0);
  await placePanel.getByRole('button', { name: 'Close' }).click();
  await expect(placePanel).toHaveCount(0);
});

test('a visitor sees the sign-in prompt in the order list @desktop', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await expect(page.getByRole('region', { name: 'Positions' }).getByRole('link', { name: 'Sign in to see your positions and history' })).toBeVisible();
});
