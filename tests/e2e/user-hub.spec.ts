import { expect, test } from '@playwright/test';
import { adoptTokens, createSession, isDesktop, waitForApp } from './support';

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
  // On desktop it is the account dialog's left menu, which also lists what a phone reaches through the wallet hub.
  const desktop = isDesktop(page);
  const menu = page.getByRole('navigation', { name: 'Account menu' });
  await expect(menu.getByRole('link')).toHaveText(
    desktop
      ? ['Overview', 'Profile', 'Notifications', 'Wallet', 'Deposit', 'Withdraw', 'Crypto wallet', 'Bank cards', 'Transactions', 'Deposit and withdrawal records', 'Identity verification', 'Junior verification', 'Change password', 'Two-factor authentication', 'Invite friends', 'Trading standards', 'Privacy policy', 'Customer service']
      : ['Profile', 'Invite friends', 'Notifications', 'Wallet', 'Deposit', 'Withdraw', 'Bank cards', 'Transactions', 'Identity verification', 'Junior verification', 'Change password', 'Two-factor authentication', 'Trading standards', 'Privacy policy', 'Customer service'],
  );

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
  // The demo account has no wallets: its wallet hub offers only the demo reset (on desktop, the menu has no
  // wallet, bank, deposit, withdrawal or loan entries, and the reset is on the overview).
  if (desktop) {
    await expect(menu.getByRole('link')).toHaveText(['Overview', 'Profile', 'Notifications', 'Transactions', 'Identity verification', 'Junior verification', 'Change password', 'Two-factor authentication', 'Invite friends', 'Trading standards', 'Privacy policy', 'Customer service']);
    await page.screenshot({ path: `test-results/screens/user-hub-${page.viewportSize()?.width}.png` });
    await expect(page.getByRole('button', { name: 'Reset demo account' })).toBeVisible();
  } else {
    await expect(menu.getByRole('link')).toHaveText(['Profile', 'Invite friends', 'Notifications', 'Wallet', 'Transactions', 'Identity verification', 'Junior verification', 'Change password', 'Two-factor authentication', 'Trading standards', 'Privacy policy', 'Customer service']);
    await page.screenshot({ path: `test-results/screens/user-hub-${page.viewportSize()?.width}.png` });
    await menu.getByRole('link', { name: 'Wallet' }).click();
    await expect(page.getByRole('button', { name: 'Reset demo account' })).toBeVisible();
    await expect(page.locator('.page-content').getByRole('link')).toHaveCount(0);
  }
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

test('desktop: the account pages open in one dialog over the terminal; its menu moves between them in place, Escape goes back to the terminal @desktop', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await adoptTokens(page, await createSession(page));
  await page.goto('/quotation');
  await expect(page.getByRole('heading', { name: 'Quotation' })).toBeVisible();

  // From the top bar's account card to the overview: a dialog over the page the trader was on.
  await page.getByRole('button', { name: /account \d+ · USD$/i }).click();
  await page.getByRole('link', { name: 'My account' }).click();
  const dialog = page.getByRole('dialog', { name: 'My account' });
  await expect(dialog.getByRole('region', { name: 'Profile' })).toContainText(/UID \d+/);
  await expect(page).toHaveURL(/\/user$/);
  // The page beneath is inert: out of reach until the dialog closes.
  await expect(page.getByRole('heading', { name: 'Quotation' })).toHaveCount(0);

  // The menu switches pages in place: the address follows (a reload or a link opens the same page), history does not grow.
  const menu = dialog.getByRole('navigation', { name: 'Account menu' });
  const depth = await page.evaluate(() => window.history.length);
  await menu.getByRole('link', { name: 'Change password' }).click();
  await expect(dialog.getByRole('heading', { name: 'Change password' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Change password' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(/\/user\/changePassword$/);
  // A menu entry's page has no back button: the menu beside it is the way elsewhere.
  await expect(dialog.getByRole('button', { name: 'Back' })).toHaveCount(0);
  await menu.getByRole('link', { name: 'Bank cards' }).click();
  await expect(dialog.getByRole('heading', { name: 'Bank cards' })).toBeVisible();
  expect(await page.evaluate(() => window.history.length)).toBe(depth);
  await page.screenshot({ path: 'test-results/screens/account-dialog-1440.png' });

  // A sub-page keeps its list's entry marked and has its way back.
  await dialog.getByRole('link', { name: 'Add bank card' }).click();
  await expect(menu.getByRole('link', { name: 'Bank cards' })).toHaveAttribute('aria-current', 'page');
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog.getByRole('heading', { name: 'Bank cards' })).toBeVisible();

  // A reload opens the same page in the dialog (over the terminal, the desktop start page).
  await page.reload();
  await waitForApp(page);
  await expect(page.getByRole('dialog', { name: 'My account' }).getByRole('heading', { name: 'Bank cards' })).toBeVisible();
  await page.getByRole('dialog', { name: 'My account' }).getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/quotation$/);
  await expect(page.getByRole('heading', { name: 'Quotation' })).toBeVisible();

  // A confirmation on top of the dialog takes Escape for itself; the next Escape closes the dialog.
  await page.goto('/user');
  await page.getByRole('dialog', { name: 'My account' }).getByRole('button', { name: 'Log out' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Log out' });
  await expect(confirmation).toBeVisible();
  // Tab stays inside it, round and round (Cancel, Confirm and its close button).
  for (let press = 0; press < 5; press += 1) {
    await page.keyboard.press('Tab');
    await expect(confirmation.locator(':focus')).toHaveCount(1);
  }
  await page.keyboard.press('Shift+Tab');
  await expect(confirmation.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Log out' })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'My account' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'My account' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/quotation$/);
});
