import { expect, test } from '@playwright/test';
import { signInThroughEngine, waitForApp } from './support';

test('the desktop user card shows total and available balance; the demo switch asks, then moves every tab to the demo account @desktop', async ({ page, context }) => {
  await page.goto('/');
  await waitForApp(page);
  const { uid } = await signInThroughEngine(page);
  const other = await context.newPage();
  await other.goto('/');
  await waitForApp(other);

  const card = page.getByRole('button', { name: new RegExp(`account ${uid} · USD$`, 'i') });
  await card.click();
  const balances = page.getByRole('group', { name: 'Balances' });
  await expect(balances.getByTestId('total-balance')).toHaveText('0.00');
  await expect(balances.getByTestId('available-balance')).toHaveText('0.00');
  await page.keyboard.press('Escape');

  const accountMode = page.getByRole('group', { name: 'Account' });
  await expect(accountMode.getByRole('button', { name: 'Real' })).toHaveAttribute('aria-pressed', 'true');
  // Cancelling changes nothing.
  await accountMode.getByRole('button', { name: 'Demo' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(accountMode.getByRole('button', { name: 'Real' })).toHaveAttribute('aria-pressed', 'true');

  await accountMode.getByRole('button', { name: 'Demo' }).click();
  await expect(page.getByRole('dialog')).toContainText('Switch to the demo account?');
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Switched to the Demo account')).toBeVisible();
  for (const tab of [page, other]) {
    await expect(tab.getByRole('group', { name: 'Account' }).getByRole('button', { name: 'Demo' })).toHaveAttribute('aria-pressed', 'true');
  }
  await page.getByRole('button', { name: new RegExp(`account ${uid} · USD$`, 'i') }).click();
  await expect(page.getByTestId('total-balance')).toHaveText('100,000.00');
  await page.screenshot({ path: 'test-results/screens/account-menu-1440.png' });
});
