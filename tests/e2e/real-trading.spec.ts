import { expect, test, type Page } from '@playwright/test';
import { money } from '../../src/shared/money/money';
import { adoptTokens, callApi as api, createSession, fundTradingAccount, expectMovingProfitThenClose, isDesktop, waitForApp } from './support';

/** A signed-in real account whose trading cash holds exactly `amount`: a deposit approved by finance, moved in from the USDT wallet. */
async function fundedRealSession(page: Page, amount: string) {
  const session = await createSession(page);
  await fundTradingAccount(page, session.token, amount);
  await adoptTokens(page, session);
  return session;
}

const balanceOf = async (page: Page, token: string) => (await api(page, '/v1/waa/user/balance', token)).data as { balanceAmount: string; lockMargin: string };

test('real money: a market order placed, live in positions, closed, found in history; the demo account untouched', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForApp(page);
  const real = await fundedRealSession(page, '10000');
  const demo = (await api(page, '/v1/waa/user/switch', real.token)).data as { token: string };
  const demoBefore = await balanceOf(page, demo.token);

  await page.goto('/BTCUSDT/place?direction=1');
  await expect(page.getByTestId('place-available')).toHaveText('10,000.00');
  await page.getByLabel('Volume (lots)').fill('0.10');
  await page.getByRole('button', { name: 'Sell', exact: true }).click();
  const placed = page.getByRole('region', { name: 'Order placed' });
  const orderNo = (await placed.getByTestId('placed-order').textContent()) ?? '';
  expect(orderNo).toMatch(/^\d{16}$/);
  const locked = await balanceOf(page, real.token);
  expect(money(locked.lockMargin)).toBeGreaterThan(0n);
  await placed.getByRole('button', { name: 'View position' }).click();

  await expectMovingProfitThenClose(page, orderNo);

  const history = (await api(page, '/v1/waa/order/history', real.token, { positionStatus: 3 })).data as { list: { uid: string; profitLoss: string; feeAmount: string }[] };
  const closed = history.list.find((order) => order.uid === orderNo);
  expect(closed).toBeDefined();
  // The real cash moved by exactly the realized profit and loss and the fee.
  const after = await balanceOf(page, real.token);
  expect(after.lockMargin).toBe('0.00');
  expect(money(after.balanceAmount)).toBe(money('10000') + money(closed!.profitLoss) - money(closed!.feeAmount));

  await page.goto('/history');
  await expect(page.getByRole(isDesktop(page) ? 'row' : 'button', { name: new RegExp(orderNo) })).toContainText('Sell');
  // Demo money never moved.
  expect(await balanceOf(page, demo.token)).toEqual(demoBefore);
});

test('real money: a 30 s option counts down, settles with a result, and is in the option history', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await waitForApp(page);
  const real = await fundedRealSession(page, '1000');

  await page.goto('/BTCUSDT/placeOption?direction=1');
  await page.getByRole('radio', { name: /^30s Profit 80%$/ }).check();
  await page.getByLabel('Amount', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Fall', exact: true }).click();
  const progress = page.getByRole('dialog', { name: 'Option in progress' });
  const uid = (await progress.getByTestId('option-order-id').textContent()) ?? '';
  expect(uid).toMatch(/^\d{16,}$/);
  const bar = progress.getByRole('progressbar', { name: 'Time left' });
  const firstProgress = Number(await bar.getAttribute('aria-valuenow'));
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 5_000 }).toBeLessThan(firstProgress);
  // Amount and its 1 % fee left the real cash at once.
  expect((await balanceOf(page, real.token)).balanceAmount).toBe('979.80');

  const result = page.getByRole('dialog', { name: 'Option result' });
  await expect(result).toBeVisible({ timeout: 60_000 });
  const outcome = (await result.getByTestId('option-result').textContent()) ?? '';
  expect(outcome).toMatch(/^(Win|Loss|Draw: amount refunded)$/);
  // Win: 20 back plus 80 % of it; loss: nothing back; draw: the 20 back.
  const expected = outcome === 'Win' ? '1015.80' : outcome === 'Loss' ? '979.80' : '999.80';
  await expect.poll(async () => (await balanceOf(page, real.token)).balanceAmount).toBe(expected);

  await page.goto('/history');
  const group = page.getByRole('group', { name: 'Trade mode' });
  await group.getByRole('button', { name: 'Option' }).click();
  await expect(page.getByTestId(`option-history-result-${uid}`)).toContainText(outcome === 'Draw: amount refunded' ? 'Draw' : outcome);
});
