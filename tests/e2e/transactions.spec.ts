import { expect, test, type Page } from '@playwright/test';
import { callApi, demoSession, historyEntry, isDesktop, placeDemo, waitForApp } from './support';

/** Where an item's details show: a sheet on phones, the panel beside the list on desktop. */
function detailsOf(page: Page) {
  return isDesktop(page) ? page.getByRole('complementary', { name: 'Trade details' }) : page.getByRole('dialog');
}

test('the transaction list: every order of the account, a status filter, the market/option switch, details in a sheet or panel, and ?uid= opening one', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const open = await placeDemo(page, demo.token, {});
  // A buy limit well below the market stays pending.
  const bid = ((await callApi(page, '/market/thumb/BTCUSDT', demo.token)).data as { bidPrice: string }).bidPrice;
  const pending = await placeDemo(page, demo.token, { buyPoint: 1, price: (Number(bid) * 0.8).toFixed(2) });

  await page.goto('/user/wallet/transactionList');
  await expect(historyEntry(page, open)).toBeVisible();
  await expect(historyEntry(page, pending)).toBeVisible();

  // One status: only the pending order is left.
  await page.getByLabel('Status').selectOption({ label: 'Pending' });
  await expect(historyEntry(page, pending)).toBeVisible();
  await expect(historyEntry(page, open)).toHaveCount(0);
  await historyEntry(page, pending).click();
  await expect(detailsOf(page).getByText(pending)).toBeVisible();
  await expect(detailsOf(page).getByText('Pending order')).toBeVisible();
  await expect(detailsOf(page).getByText('Pending price')).toBeVisible();
  if (!isDesktop(page)) await detailsOf(page).getByRole('button', { name: 'Close' }).click();

  // Option mode lists options instead, by status; this account has none.
  await page.getByRole('group', { name: 'Filters' }).getByRole('button', { name: 'Option' }).click();
  await expect(page.getByText('No options with this status.')).toBeVisible();

  // An id in the address opens that order's details at once; closing them drops it from the address.
  await page.goto(`/user/wallet/transactionList?uid=${open}`);
  const details = detailsOf(page);
  await expect(details.getByText(open)).toBeVisible();
  await expect(details.getByText('Market price')).toBeVisible();
  await details.getByRole('button', { name: 'Close' }).first().click();
  await expect(page).toHaveURL(/\/user\/wallet\/transactionList$/);

  // An id the account does not have says so.
  await page.goto('/user/wallet/transactionList?uid=0000000000000001');
  await expect(page.getByText('This trade was not found in this account.')).toBeVisible();
});

test('a trade whose title wraps (a German status beside the product) gets a taller row: nothing of it is cut or pressed past the row\'s padding @mobile', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const order = await placeDemo(page, demo.token, { tradePair: 'DOGEUSDT', orderType: 1 });
  expect((await callApi(page, '/exchange/closeOrderMock', demo.token, { orderId: order })).code).toBe(0);
  await page.getByRole('button', { name: /^Language: / }).first().click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  await page.goto('/user/wallet/transactionList');
  const row = historyEntry(page, order);
  await expect(row).toContainText('Abgeschlossen');
  const fit = await row.evaluate((button) => {
    const box = button.getBoundingClientRect();
    const padding = Number.parseFloat(getComputedStyle(button).paddingBottom);
    const content = button.querySelector('.history-row-main')?.getBoundingClientRect();
    const title = button.querySelector('.order-name')?.getBoundingClientRect();
    return {
      // "Dogecoin Verkaufen 0.01 · Abgeschlossen" does not fit one line at 390 px.
      titleWraps: (title?.height ?? 0) > 30,
      contentInside: content !== undefined && content.top >= box.top + padding - 0.5 && content.bottom <= box.bottom - padding + 0.5,
    };
  });
  expect(fit).toEqual({ titleWraps: true, contentInside: true });
});
