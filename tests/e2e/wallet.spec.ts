import { expect, test, type Page } from '@playwright/test';
import { adoptTokens, createSession, fundTradingAccount, waitForApp } from './support';

/** A signed-in real account whose trading cash holds exactly `amount`: a deposit approved by finance, moved in from the USDT wallet. */
async function fundedRealSession(page: Page, amount: string) {
  const session = await createSession(page);
  await fundTradingAccount(page, session.token, amount);
  await adoptTokens(page, session);
  return session;
}

/** Opens a currency row's drawer, types the amount, waits for its quote and confirms. */
async function transfer(page: Page, currency: string, direction: 'Transfer in' | 'Transfer out', amount: string, quote: { fee: string; practical: string }) {
  await page.getByTestId(`wallet-${currency}`).getByRole('button', { name: direction, exact: true }).click();
  // The drawer, not the desktop account dialog beneath it.
  const drawer = page.getByRole('dialog').filter({ has: page.getByTestId('transfer-confirm') });
  await drawer.getByRole('textbox').fill(amount);
  await expect(drawer.getByTestId('transfer-fee')).toHaveText(quote.fee);
  await expect(drawer.getByTestId('transfer-practical')).toHaveText(quote.practical);
  await drawer.getByTestId('transfer-confirm').click();
  await expect(page.getByText('Currency conversion successful')).toBeVisible();
  await expect(drawer).toBeHidden();
}

test('wallet: a funded account moves money between its trading account and a USDT wallet, both balances following', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  await fundedRealSession(page, '1000');

  await page.goto('/user/wallet');
  await page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link', { name: 'My wallet' }).click();
  await expect(page).toHaveURL(/\/user\/myWallet$/);
  await expect(page.getByTestId('wallet-trading-cash')).toHaveText('1,000.00 USD');
  await expect(page.getByTestId('wallet-USDT-balance')).toHaveText('0.00 USDT');
  // Total assets are the currency wallets and the trading account added up: never less than either.
  await expect(page.getByTestId('wallet-currencies-total')).toHaveText('0.00 USD');
  await expect(page.getByTestId('wallet-total')).toHaveText('1,000.00 USD');

  // Out of the trading account into the USDT wallet: USDT is pegged and transfers are free.
  await transfer(page, 'USDT', 'Transfer out', '250', { fee: '0.0000 USD', practical: '250.0000 USDT' });
  await expect(page.getByTestId('wallet-USDT-balance')).toHaveText('250.00 USDT');
  await expect(page.getByTestId('wallet-trading-cash')).toHaveText('750.00 USD');
  await expect(page.getByTestId('wallet-currencies-total')).toHaveText('250.00 USD');
  // A transfer moves money, it makes none: the total stays.
  await expect(page.getByTestId('wallet-total')).toHaveText('1,000.00 USD');

  // And part of it back in.
  await transfer(page, 'USDT', 'Transfer in', '100.5', { fee: '0.0000 USDT', practical: '100.5000 USD' });
  await expect(page.getByTestId('wallet-USDT-balance')).toHaveText('149.50 USDT');
  await expect(page.getByTestId('wallet-trading-cash')).toHaveText('850.50 USD');
  await expect(page.getByTestId('wallet-total')).toHaveText('1,000.00 USD');

  // The records tab lists both, newest first, after the funding (the approved deposit, moved into the
  // trading account), and its filter keeps one type.
  await page.getByRole('tab', { name: 'Wallet records' }).click();
  const records = page.getByTestId('wallet-records');
  await expect(records.locator('.wallet-record')).toHaveCount(4);
  await expect(records.locator('.wallet-record').first()).toContainText('-100.50 USDT');
  await expect(records.locator('.wallet-record').nth(1)).toContainText('+250.00 USDT');
  await expect(records.locator('.wallet-record').nth(2)).toContainText('-1000.00 USDT');
  await expect(records.locator('.wallet-record').nth(3)).toContainText('+1000.00 USDT');
  await page.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Transfer out' });
  await expect(records.locator('.wallet-record')).toHaveCount(1);
  await expect(records.locator('.wallet-record').first()).toContainText('+250.00 USDT');
});
