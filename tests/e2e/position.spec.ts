import { expect, test } from '@playwright/test';
import { callApi as api, demoSession, waitForApp } from './support';

test('positions: a live position with moving profit, closed from its drawer; a pending order canceled; history has them @mobile', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const order = { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.5', multiple: 20, orderType: 0, buyPoint: 2 };
  const placed = await api(page, '/exchange/addOrderMock', demo.token, { ...order, clientOrderId: `e2e-${Date.now()}` });
  expect(placed.code).toBe(0);
  const orderNo = placed.data as string;
  // A buy limit far enough below to wait, inside the 50% band the server allows.
  const pending = await api(page, '/exchange/addOrderMock', demo.token, { ...order, price: '40000', buyPoint: 1, clientOrderId: `e2e-p-${Date.now()}` });
  expect(pending.code).toBe(0);

  await page.goto('/position');
  const opening = page.getByRole('list', { name: 'Opening' });
  await expect(opening.getByRole('listitem')).toHaveCount(1);
  const pnl = page.getByTestId(`pnl-${orderNo}`);
  await expect(pnl).toHaveText(/^-?\d+\.\d{2,8}$/);
  // Crypto quotes round the clock: the profit moves with the price.
  const first = await pnl.textContent();
  await expect(pnl).not.toHaveText(first ?? '', { timeout: 20_000 });
  await expect(page.getByTestId('summary-net-worth')).toHaveText(/^\d{2,3},\d{3}\.\d{2}$/);
  await page.screenshot({ path: `test-results/screens/position-${page.viewportSize()?.width}.png` });

  await opening.getByRole('button', { name: new RegExp(orderNo) }).click();
  const drawer = page.getByRole('dialog', { name: /Order details/ });
  await expect(drawer).toContainText(orderNo);
  await drawer.getByRole('button', { name: 'Close position' }).click();
  await page.getByRole('dialog', { name: 'Close position' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Operation successful')).toBeVisible();
  await expect(drawer).toHaveCount(0);
  await expect(page.getByText('No open positions.')).toBeVisible();

  await page.getByRole('group', { name: 'Orders' }).getByRole('button', { name: 'Pending' }).click();
  const pendingList = page.getByRole('list', { name: 'Pending' });
  await expect(pendingList.getByRole('listitem')).toHaveCount(1);
  await pendingList.getByRole('button').click();
  await page.getByRole('dialog', { name: /Order details/ }).getByRole('button', { name: 'Cancel order' }).click();
  await page.getByRole('dialog', { name: 'Cancel order' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('No pending orders.')).toBeVisible();

  const history = (await api(page, '/v1/waa/order/historyMock', demo.token, { positionStatus: 3 })).data as { list: { uid: string; closeReason: string }[] };
  expect(history.list).toEqual([expect.objectContaining({ uid: orderNo, closeReason: 'manual' })]);
});
