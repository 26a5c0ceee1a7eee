import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { adoptTokens, callApi, createSession, fundTradingAccount, isDesktop, verifyJunior, waitForApp } from './support';

/** The German strings, as a German reader sees them (the app's own locale file). */
const german = JSON.parse(fs.readFileSync(new URL('../../src/shared/i18n/locales/de.json', import.meta.url), 'utf8')) as Record<string, Record<string, string>>;
const de = (key: string) => {
  const [area = '', name = ''] = key.split('.');
  const text = german[area]?.[name];
  if (!text) throw new Error(`no German text for ${key}`);
  return text;
};

/** The app's stored language (idb-keyval's database and store, as preferences.ts names them), then a reload reads it. */
async function readIn(page: Page, language: string) {
  await page.evaluate(async (chosen) => {
    const open = indexedDB.open('tradeweb-preferences');
    open.onupgradeneeded = () => open.result.createObjectStore('preferences');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const store = db.transaction('preferences', 'readwrite').objectStore('preferences');
    const current = await new Promise<Record<string, unknown> | undefined>((resolve) => {
      const read = store.get('preferences');
      read.onsuccess = () => resolve(read.result as Record<string, unknown> | undefined);
    });
    await new Promise<void>((resolve, reject) => {
      const write = store.put({ ...(current ?? {}), language: chosen }, 'preferences');
      write.onsuccess = () => resolve();
      write.onerror = () => reject(write.error);
    });
    db.close();
  }, language);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** A money call with a fresh Idempotency-Key, as the app sends it. */
async function moneyCall(page: Page, apiPath: string, token: string, data: unknown) {
  const response = await page.request.post(apiPath, { data, headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() } });
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

test('a German reader sees a deposit under the minimum refused in the server\'s own German words, with the minimum on the first step', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await waitForApp(page);
  await adoptTokens(page, await createSession(page));
  await page.goto('/user/deposit');
  await readIn(page, 'de');

  // Step one: the address as text and as a QR code, and German's minimum (30 USD) before anything is typed.
  await expect(page.getByTestId('deposit-step-1')).toBeVisible();
  await page.getByTestId('deposit-coin').selectOption({ label: 'USDT · TRC20' });
  await expect(page.getByRole('img', { name: de('deposit.qr_alt').replace('{{network}}', 'USDT · TRC20') })).toBeVisible();
  await expect(page.getByTestId('deposit-minimum')).toHaveText(de('deposit.minimum_hint').replace('{{amount}}', '30'));
  await page.getByRole('button', { name: de('deposit.next') }).click();

  await page.getByLabel(de('deposit.amount')).fill('20');
  const proof = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer();
  await page.getByTestId('deposit-proof-input').setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: proof });
  await expect(page.getByRole('img', { name: de('deposit.proof') })).toBeVisible();
  await page.getByLabel(de('deposit.agreement_read')).check();
  await page.getByTestId('deposit-done').click();
  await expect(page.getByRole('alert').filter({ hasText: 'Die Mindesteinzahlung beträgt 30 USD (1016)' })).toBeVisible();
  await expect(page.getByText(`${de('errors.1016')} (1016)`)).toHaveCount(0);
  await expect(page.getByTestId('deposit-step-2')).toBeVisible();
});

test('a pending withdrawal is cancelled from its record: asked first, the amount back in the wallet, the record canceled', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);
  await fundTradingAccount(page, session.token, '1000');
  await verifyJunior(page, session.token);
  // 600 USDT into the wallet a withdrawal is paid from.
  const networks = ((await callApi(page, '/v1/waa/wallet/coinNetworks', session.token)).data as { dtoList: { currency: string; currencyId: number }[] }).dtoList;
  const usdt = networks.find((network) => network.currency === 'USDT')!;
  const transfer = { curr: 'USDT', currId: usdt.currencyId, type: 1, num: '600' };
  const quote = (await callApi(page, '/v1/waa/wallet/transformCalculate', session.token, transfer)).data as { fee: string; practical: string };
  const moved = await moneyCall(page, '/v1/waa/wallet/transform', session.token, { ...transfer, ...quote });
  expect(moved.code, moved.msg).toBe(0);

  const address = 'TAzNLU555pAZSmv5NiusS4AihvBgpMwbKY';
  await page.goto('/user/wallet/addCrypto');
  await page.getByTestId('coin-network-picker').click();
  await page.getByRole('option', { name: 'USDT · TRC20' }).click();
  await page.getByLabel('Crypto address').fill(address);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('crypto-wallet-list')).toContainText(address);

  // The form shows what can be withdrawn, in the coin; Max fills it all.
  await page.goto('/user/withdraw');
  await page.getByTestId('withdraw-network-picker').click();
  await page.getByRole('option', { name: 'USDT · TRC20' }).click();
  await expect(page.getByTestId('withdraw-available')).toHaveText('Available: 600.00 USDT');
  await page.getByRole('button', { name: 'Max', exact: true }).click();
  await expect(page.getByLabel('Amount')).toHaveValue('600');
  await expect(page.getByTestId('withdraw-practical')).toHaveText('599.00 USDT (≈ 599.00 USD)');
  await page.getByRole('button', { name: 'Done', exact: true }).click();
  await expect(page.getByText('Operation successful')).toBeVisible();

  await page.goto('/user/wallet/depositList');
  const record = page.getByTestId('fund-record').first();
  await expect(record.getByTestId('fund-record-state')).toHaveText('Waiting');
  await record.click();
  const details = isDesktop(page) ? page.getByRole('complementary', { name: 'Record details' }) : page.getByRole('dialog', { name: 'Record details' });
  await details.getByRole('button', { name: 'Cancel withdrawal' }).click();

  // Asked first: keeping it changes nothing.
  const question = page.getByRole('dialog', { name: 'Cancel this withdrawal?' });
  await expect(question).toContainText('600.00 USDT goes back to your wallet and nothing is paid out.');
  await question.getByRole('button', { name: 'Keep it' }).click();
  await expect(question).toBeHidden();
  await expect(record.getByTestId('fund-record-state')).toHaveText('Waiting');

  await details.getByRole('button', { name: 'Cancel withdrawal' }).click();
  await question.getByRole('button', { name: 'Cancel withdrawal' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Withdrawal canceled: the amount is back in your wallet' })).toBeVisible();
  await expect(record.getByTestId('fund-record-state')).toHaveText('Canceled');
  await expect(details.getByRole('button', { name: 'Cancel withdrawal' })).toHaveCount(0);

  // The hold is released: the wallet has its 600 again, and another withdrawal may start.
  const wallet = ((await callApi(page, '/v1/waa/wallet/balance', session.token)).data as { list: { currency: string; balance: string }[] }).list.find((item) => item.currency === 'USDT');
  expect(wallet?.balance).toMatch(/^600(\.0+)?$/);
  await page.reload();
  await expect(page.getByTestId('fund-record').first().getByTestId('fund-record-state')).toHaveText('Canceled');
});
