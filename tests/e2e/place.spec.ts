import { expect, test } from '@playwright/test';
import { callApi as api, demoSession, waitForApp } from './support';

test('a market buy on the demo account: volume bounds, margin preview, the in-place confirmation, and the demo book only', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  await page.goto('/BTCUSDT/place?direction=0');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Buy · Bitcoin');
  await expect(page.getByTestId('place-current')).toHaveText(/^[\d,]+\.\d{2}$/);
  await expect(page.getByTestId('place-available')).toHaveText('100,000.00');

  const volume = page.getByLabel('Volume (lots)');
  await volume.fill('500');
  await volume.blur();
  await expect(page.getByText('The maximum volume is 100.00.')).toBeVisible();
  await expect(volume).toHaveValue('100.00');
  await volume.fill('0.10');
  await volume.blur();
  // Margin = price × 0.1 × 1 ÷ 20 for Bitcoin: about 335 at 67,000.
  await expect(page.getByTestId('place-margin')).toHaveText(/^3\d\d\.\d{2}$/);

  await page.getByLabel('Stop loss', { exact: true }).check();
  const stopLoss = page.getByLabel('Stop loss price');
  await stopLoss.fill('999999');
  await stopLoss.blur();
  // Above the price for a buy: set to the price, saying the maximum (the spec's clamp).
  await expect(page.getByText(/^The maximum is [\d.]+\.$/)).toBeVisible();
  await expect(stopLoss).toHaveValue(/^\d+\.\d{2}$/);
  expect(Number(await stopLoss.inputValue())).toBeLessThan(999999);
  await page.getByLabel('Stop loss', { exact: true }).uncheck();
  await page.screenshot({ path: `test-results/screens/place-${page.viewportSize()?.width}.png` });

  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  const dialog = page.getByRole('region', { name: 'Order placed' });
  await expect(dialog.getByTestId('placed-order')).toHaveText(/^\d{16}$/);
  const orderNo = await dialog.getByTestId('placed-order').textContent();
  const open = (await api(page, '/v1/waa/order/historyMock', demo.token, { positionStatus: 2 })).data as { list: { uid: string; orderQuantity: string }[] };
  expect(open.list).toEqual([expect.objectContaining({ uid: orderNo, orderQuantity: '0.10' })]);
  await expect(page.getByTestId('place-available')).not.toHaveText('100,000.00');
  await dialog.getByRole('button', { name: 'View position' }).click();
  await expect(page).toHaveURL(/\/position$/);
});

test('the place form greys its button when the market is closed', async ({ page }) => {
  let closed: string | null = null;
  for (const symbol of ['HK50', 'AAPL', 'GER40']) {
    const status = ((await (await page.request.post(`/market/status/${symbol}`, { data: {} })).json()) as { data: string }).data;
    if (status !== 'open') {
      closed = symbol;
      break;
    }
  }
  expect(closed).not.toBeNull();
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  await page.goto(`/${closed}/place?direction=1`);
  await expect(page.getByRole('button', { name: 'Market closed' })).toBeDisabled();
});
