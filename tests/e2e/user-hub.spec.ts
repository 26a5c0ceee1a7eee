import { expect, test } from '@playwright/test';
import { adoptTokens, createSession, waitForApp } from './support';

test('the user hub: who is signed in, balances, the real/demo switch with its confirmation, the menu per account, log out', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);
  await page.goto('/user');

  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile).toContainText(/UID \d+/);
  await expect(profile).toContainText('Real');
  await expect(page.getByTestId('hub-total-balance')).toHaveText('0.00');
  // The menu offers the screens that exist, never an empty page (the deposit is the real account's).
  const menu = page.getByRole('navigation', { name: 'Account menu' });
  await expect(menu.getByRole('link')).toHaveText(['Profile', 'Invite friends', 'Notifications', 'My wallet', 'Wallet', 'Deposit', 'Withdraw', 'Bank cards', 'Transactions', 'Identity verification', 'Junior verification', 'Change password', 'Two-factor authentication', 'Trading standards', 'Privacy policy', 'Customer service']);

  // Cancelling the warning changes nothing.
  const switcher = page.getByRole('region', { name: 'Balances' }).getByRole('group', { name: 'Account' });
  await switcher.getByRole('button', { name: 'Demo' }).click();
  await page.getByRole('dialog', { name: 'Switch account' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(switcher.getByRole('button', { name: 'Real' })).toHaveAttribute('aria-pressed', 'true');
  await expect(profile).toContainText('Real');

  await switcher.getByRole('button', { name: 'Demo' }).click();
  await page.getByRole('dialog', { name: 'Switch account' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Switched to the Demo account')).toBeVisible();
  await expect(profile).toContainText('Demo');
  await expect(page.getByTestId('hub-total-balance')).toHaveText('100,000.00');
  // The demo account has no wallets: its wallet hub offers only the demo reset.
  await expect(menu.getByRole('link')).toHaveText(['Profile', 'Invite friends', 'Notifications', 'Wallet', 'Transactions', 'Identity verification', 'Junior verification', 'Change password', 'Two-factor authentication', 'Trading standards', 'Privacy policy', 'Customer service']);
  await page.screenshot({ path: `test-results/screens/user-hub-${page.viewportSize()?.width}.png` });
  await menu.getByRole('link', { name: 'Wallet' }).click();
  await expect(page.getByRole('button', { name: 'Reset demo account' })).toBeVisible();
  await expect(page.locator('.page-content').getByRole('link')).toHaveCount(0);
  await page.goto('/user');
  // A screen the brand's switches leave off (the loan, off by default) is not opened by its address either: back to the hub.
  await page.goto('/user/loan');
  await expect(page).toHaveURL(/\/user$/);
  await page.goto('/user');

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('dialog', { name: 'Log out' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const check = await page.request.post('/v1/waa/user/checkToken', { data: {}, headers: { authorization: `Bearer ${session.token}` } });
  expect(((await check.json()) as { code: number }).code).not.toBe(0);
});
