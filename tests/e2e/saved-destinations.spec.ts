import { expect, test } from '@playwright/test';
import { adoptTokens, createSession, waitForApp } from './support';

test('saved withdrawal destinations: a bank card added, listed by bank and last four digits, edited, then deleted behind the warning; a crypto address added and deleted', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  await adoptTokens(page, await createSession(page));

  // Bank cards: empty, then the form refuses the missing required fields.
  await page.goto('/user/wallet/bankCard');
  await expect(page.getByText('No bank card yet')).toBeVisible();
  await page.getByRole('link', { name: 'Add bank card' }).click();
  await expect(page).toHaveURL(/\/user\/wallet\/addBankCard$/);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please enter the bank name')).toBeVisible();

  // The specification's banks are offered as the name is typed; another bank may still be typed.
  const offered = await page.getByLabel('Bank name').evaluate((input) => [...((input as HTMLInputElement).list?.options ?? [])].map((option) => option.value));
  expect(offered).toEqual(['aib', 'vib', 'hkib', 'jbic', 'kb', 'bnm', 'cba']);
  await page.getByLabel('Bank name').fill('Northwind Bank');
  await page.getByLabel('Account name (real name)').fill('Ada Trader');
  await page.getByLabel('Account number').fill('GB29NWBK60161331926819');
  await page.getByLabel('Phone number').fill('+44 7400 123456');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Added successfully')).toBeVisible();
  const cards = page.getByTestId('bank-card-list');
  // Listed by its bank and the account's last four digits only.
  await expect(cards).toContainText('Northwind Bank');
  await expect(cards).toContainText('****6819');
  await expect(cards).not.toContainText('GB29NWBK60161331926819');

  // Edited: the form opens with the card's fields decoded, and the new bank name is listed.
  await cards.getByRole('link', { name: /Northwind Bank/ }).click();
  await expect(page.getByLabel('Account number')).toHaveValue('GB29NWBK60161331926819');
  await page.getByLabel('Bank name').fill('Northwind Bank plc');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Updated successfully')).toBeVisible();
  await expect(cards).toContainText('Northwind Bank plc');

  // Deleted behind the warning drawer: cancel keeps it, confirm removes it.
  await cards.getByRole('link', { name: /Northwind Bank plc/ }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const warning = page.getByRole('dialog', { name: 'Warning' });
  await expect(warning).toContainText('Delete this bank card? This cannot be undone.');
  await warning.getByRole('button', { name: 'Cancel' }).click();
  await expect(warning).toBeHidden();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Warning' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Operation successful')).toBeVisible();
  await page.goto('/user/wallet/bankCard');
  await expect(page.getByText('No bank card yet')).toBeVisible();

  // Crypto addresses: added with its coin and network, opened read-only, deleted after the confirmation.
  const address = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
  await page.goto('/user/wallet/crypto');
  await expect(page.getByText('No crypto address saved yet')).toBeVisible();
  await page.getByRole('link', { name: 'Add crypto wallet' }).click();
  await page.getByTestId('coin-network-picker').click();
  await page.getByRole('option', { name: 'USDT · TRC20' }).click();
  // A mistyped address fails its network's checksum: refused with the server's reason, naming the network, nothing saved.
  await page.getByLabel('Crypto address').fill(`${address.slice(0, -1)}C`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('This is not a valid TRC20 address (1073)')).toBeVisible();
  await expect(page).toHaveURL(/\/user\/wallet\/addCrypto/);
  await page.getByLabel('Crypto address').fill(address);
  await page.getByRole('button', { name: 'Confirm' }).click();
  const wallets = page.getByTestId('crypto-wallet-list');
  await expect(wallets).toContainText('USDT · TRC20');
  await expect(wallets).toContainText(address);
  await wallets.getByRole('link', { name: /USDT · TRC20/ }).click();
  await expect(page).toHaveURL(/\/user\/wallet\/deleteCrypto\?/);
  await expect(page.getByText(address)).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete crypto address' });
  await expect(confirm).toContainText('Delete this crypto address?');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Operation successful')).toBeVisible();
  await page.goto('/user/wallet/crypto');
  await expect(page.getByText('No crypto address saved yet')).toBeVisible();
});
