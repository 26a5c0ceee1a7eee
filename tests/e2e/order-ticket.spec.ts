import { expect, test } from '@playwright/test';
import { demoSession, isDesktop, shownPrice, waitForApp } from './support';
import { formatMoney, money, moneyScale } from '../../src/shared/money/money';

const price = /^[\d,]+\.\d{2}$/;

test('the order ticket: live prices on Buy and Sell, stop loss 0 refused in the form, an in-place confirmation, a stop loss edited, then removed', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);

  // Sell shows the bid, Buy the ask, the spread between them.
  await page.goto(isDesktop(page) ? '/' : '/BTCUSDT/chart');
  const buttons = isDesktop(page) ? page.getByRole('region', { name: 'Bitcoin' }) : page;
  await expect(buttons.getByTestId('trade-buy-price')).toHaveText(price);
  await expect(buttons.getByTestId('trade-sell-price')).toHaveText(price);
  await expect(buttons.getByLabel(/^Spread \d+\.\d{2}$/)).toBeVisible();
  // The price describes the button; its name stays the side.
  await expect(buttons.getByRole(isDesktop(page) ? 'button' : 'link', { name: 'Buy', exact: true })).toHaveAccessibleDescription(price);
  // Read in one go (one rendered quote): the spread is the ask minus the bid.
  const [sell = '', spread = '', buy = ''] = await buttons.locator('[data-testid=trade-sell-price], [data-testid=trade-spread], [data-testid=trade-buy-price]').allTextContents();
  const cents = (text: string) => Math.round(Number(text.replace(/,/g, '')) * 100);
  expect(cents(buy) - cents(sell)).toBe(cents(spread));
  expect(cents(spread)).toBeGreaterThanOrEqual(0);

  await page.goto('/BTCUSDT/place?direction=0');
  await page.getByLabel('Volume (lots)').fill('0.10');
  // Leverage: Bitcoin's own 1:20 by default; 1:10 locks about twice the margin.
  const leverage = page.getByLabel('Leverage');
  await expect(leverage).toHaveValue('20');
  const margin = page.getByTestId('place-margin');
  await expect(margin).toHaveText(/^3\d\d\.\d{2}$/);
  await leverage.selectOption({ label: '1:10' });
  await expect(margin).toHaveText(/^[67]\d\d\.\d{2}$/);
  await leverage.selectOption({ label: '1:20' });
  await page.getByLabel('Stop loss', { exact: true }).check();
  const stopLoss = page.getByLabel('Stop loss price');
  await stopLoss.fill('0');
  await stopLoss.blur();
  await expect(page.getByText('The stop loss must be greater than 0.')).toBeVisible();
  await expect(stopLoss).toHaveValue('0');
  // Refused in the form: nothing is placed.
  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Order placed' })).toHaveCount(0);
  await page.getByLabel('Stop loss', { exact: true }).uncheck();

  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  const placed = page.getByRole('region', { name: 'Order placed' });
  await expect(placed.getByTestId('placed-summary')).toHaveText(/^Bought 0\.10 Bitcoin at \d+\.\d{2}$/);
  await expect(placed.getByTestId('placed-price')).toHaveText(price);
  await expect(placed.getByTestId('placed-time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const orderNo = (await placed.getByTestId('placed-order').textContent()) ?? '';
  const openPrice = money(((await placed.getByTestId('placed-price').textContent()) ?? '').replaceAll(',', ''));
  await page.screenshot({ path: `test-results/screens/order-ticket-placed-${page.viewportSize()?.width}.png` });

  // Edit its stop loss from the order's drawer: the preview shows the loss, the drawer the new level.
  await page.goto('/position');
  await page.getByRole(isDesktop(page) ? 'row' : 'button', { name: new RegExp(orderNo) }).click();
  const drawer = page.getByRole('dialog', { name: /Order details/ });
  await drawer.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: /Edit order/ });
  // 90% of the fill, cut to cents, in exact units (no float near a price).
  const cent = 10n ** BigInt(moneyScale - 2);
  const newStop = formatMoney(((openPrice * 9n) / 10n / cent) * cent, 2);
  const stopField = edit.getByLabel('Stop loss price');
  await stopField.fill(newStop);
  await expect(edit.getByTestId('edit-stop-loss-result')).toHaveText(/^-[\d,]+\.\d{2}$/);
  // The drawer beneath follows the market; that must not take the field from the trader typing in it.
  const drawerBefore = await drawer.textContent();
  await expect.poll(() => drawer.textContent()).not.toBe(drawerBefore);
  await expect(stopField).toBeFocused();
  await page.screenshot({ path: `test-results/screens/order-ticket-edit-${page.viewportSize()?.width}.png` });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Order updated')).toBeVisible();
  await expect(edit).toHaveCount(0);
  await expect(drawer).toContainText(shownPrice(newStop));

  // Emptying the stop loss removes it: saved without a complaint, the drawer no longer shows it.
  await drawer.getByRole('button', { name: 'Edit' }).click();
  await edit.getByLabel('Stop loss price').fill('');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  const stopRow = drawer.locator('dl > div').filter({ has: page.getByRole('term').filter({ hasText: /^Stop loss$/ }) });
  await expect(stopRow.getByRole('definition')).toHaveText('—');
  await page.screenshot({ path: `test-results/screens/order-ticket-stop-removed-${page.viewportSize()?.width}.png` });
});
