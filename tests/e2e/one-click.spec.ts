import { expect, test, type Page } from '@playwright/test';
import { callApi, demoSession, isDesktop, waitForApp } from './support';

interface Position {
  uid: string;
  orderType: number;
  orderQuantity: string;
}

/** The chart's trade buttons: the workspace's chart panel on desktop, the chart page on the phone. */
function tradeArea(page: Page) {
  return isDesktop(page) ? page.getByRole('region', { name: 'Bitcoin' }) : page.locator('.trade-buttons');
}

test('one-click trading: off until confirmed, then Buy places a market order of the lots between the buttons at once, and the setting is remembered after a reload', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  await page.goto(isDesktop(page) ? '/' : '/BTCUSDT/chart');
  await waitForApp(page);
  const area = tradeArea(page);
  const oneClick = area.getByRole('switch', { name: 'One-click trading' });
  await expect(oneClick).toHaveAttribute('aria-checked', 'false');

  await oneClick.click();
  const question = page.getByRole('dialog', { name: 'Turn on one-click trading?' });
  await expect(question).toContainText('without asking again');
  await question.getByRole('button', { name: 'Turn on' }).click();
  await expect(oneClick).toHaveAttribute('aria-checked', 'true');

  const lots = area.getByRole('textbox', { name: 'Lots for one-click orders' });
  await lots.fill('0.03');
  const buy = area.getByRole('button', { name: 'Buy', exact: true });
  await expect(buy).toBeInViewport();
  await buy.click();
  await expect(page.getByText('Buy 0.03 lots of Bitcoin: order placed')).toBeVisible();
  // No ticket, no question: the order is on the account.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect
    .poll(async () => ((await callApi(page, '/v1/waa/order/listMock', demo.token, {})).data as { list: Position[] }).list.map((each) => [each.orderType, each.orderQuantity]))
    .toEqual([[0, '0.03']]);

  // Remembered: on after a reload, with the lots last used.
  await page.reload();
  await waitForApp(page);
  await expect(tradeArea(page).getByRole('switch', { name: 'One-click trading' })).toHaveAttribute('aria-checked', 'true');
  await expect(tradeArea(page).getByRole('textbox', { name: 'Lots for one-click orders' })).toHaveValue('0.03');
  // Off again at once; Buy is the way to the ticket again.
  await tradeArea(page).getByRole('switch', { name: 'One-click trading' }).click();
  await expect(tradeArea(page).getByRole('switch', { name: 'One-click trading' })).toHaveAttribute('aria-checked', 'false');
  await expect(tradeArea(page).getByRole('textbox', { name: 'Lots for one-click orders' })).toHaveCount(0);
});
