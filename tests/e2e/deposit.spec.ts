import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { totpCode } from '../../server/auth/totp';
import { adoptTokens, approveAsSecondFinance, callApi, createSession, isDesktop, waitForApp } from './support';

const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
/** The finance reviewer's own password once the one-time one is changed. */
const reviewerPassword = 'finance horse battery 7';
/** Where the console keeps its tokens (src/staff/api/staff-client.ts). */
const consoleTokensKey = 'tradeweb-staff-tokens';

/**
 * The finance reviewer scripts/e2e-server.mjs creates, signed in to the console in `page`:
 * through the sign-in screen the first time (its one-time password, the authenticator's code,
 * the forced password change), then with the console session the first test kept in the data
 * dir (an authenticator code is accepted once per 30-second step: a second sign-in could fall
 * in the same step).
 */
async function financeConsole(page: Page) {
  const kept = path.join(dataDir, 'e2e-deposit-reviewer-session.json');
  if (fs.existsSync(kept)) {
    const tokens = fs.readFileSync(kept, 'utf8');
    await page.addInitScript(([key, value]) => sessionStorage.setItem(key, value), [consoleTokensKey, tokens] as const);
    await page.goto('/staff/');
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    return;
  }
  const reviewer = JSON.parse(fs.readFileSync(path.join(dataDir, 'finance-reviewer.json'), 'utf8')) as { email: string; oneTimePassword: string; otpauthUrl: string };
  const secret = new URL(reviewer.otpauthUrl).searchParams.get('secret') ?? '';
  await page.goto('/staff/');
  await page.getByLabel('E-mail').fill(reviewer.email);
  await page.getByLabel('Password').fill(reviewer.oneTimePassword);
  await page.getByLabel('Authenticator code').fill(totpCode(secret, Date.now()));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Current password').fill(reviewer.oneTimePassword);
  await page.getByLabel('New password', { exact: true }).fill(reviewerPassword);
  await page.getByLabel('New password again').fill(reviewerPassword);
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${reviewer.email}` })).toBeVisible();
  const tokens = await page.evaluate((key) => sessionStorage.getItem(key), consoleTokensKey);
  expect(tokens).not.toBeNull();
  fs.writeFileSync(kept, tokens ?? '');
}

/** A transfer screenshot as a phone would save it: a PNG of a few hundred kilobytes. */
async function transferScreenshot(): Promise<Buffer> {
  const width = 900;
  const height = 1600;
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = (index * 37) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

async function depositApprovedLive(page: Page, browser: Browser) {
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);

  // Step one: the method and the coin network, with the address to pay to.
  await page.goto('/user/deposit');
  await expect(page.getByTestId('deposit-step-1')).toBeVisible();
  await page.getByTestId('deposit-coin').selectOption({ label: 'USDT · TRC20' });
  await expect(page.getByTestId('deposit-address')).not.toBeEmpty();
  await page.getByRole('button', { name: 'Bank card' }).click();
  await expect(page.getByText('Bank deposits need a transfer voucher or account from online customer service first.')).toBeVisible();
  await page.getByRole('button', { name: 'Crypto' }).click();
  await page.getByRole('button', { name: 'Next' }).click();

  // Step two: every message of the form, then the amount, the proof and the agreement.
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Please enter deposit amount')).toBeVisible();
  await expect(page.getByText('Please upload deposit proof')).toBeVisible();
  await expect(page.getByText('Please read the agreement')).toBeVisible();
  await page.getByLabel('Deposit amount').fill('1500');
  // The agreement keeps the form in session storage while it is read.
  await page.getByRole('button', { name: 'Deposit service agreement' }).click();
  await expect(page.getByRole('heading', { name: 'Deposit service agreement' })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Deposit amount')).toHaveValue('1500');
  await page.getByTestId('deposit-proof-input').setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: await transferScreenshot() });
  await expect(page.getByRole('img', { name: 'Deposit proof' })).toBeVisible();
  await page.getByLabel('I have read and agree to the').check();
  // Below the English reader's minimum: the server's own reason, not the code's generic text.
  await page.getByLabel('Deposit amount').fill('500');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('The minimum deposit is 1000 USD (1016)')).toBeVisible();
  await expect(page.getByText('Incorrect parameter content (1016)')).toHaveCount(0);
  await page.getByLabel('Deposit amount').fill('1500');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deposit submitted. It is credited once reviewed.' })).toBeVisible();
  await expect(page.getByTestId('deposit-step-1')).toBeVisible();

  // The record waits for review.
  await page.goto('/user/wallet/depositList');
  const record = page.getByTestId('fund-record').first();
  await expect(record).toContainText('1500.00 USDT');
  await expect(record.getByTestId('fund-record-state')).toHaveText('Waiting');

  // The customer keeps the wallet open while finance decides.
  await page.goto('/user/myWallet');
  await expect(page.getByTestId('wallet-USDT-balance')).toHaveText('0.00 USDT');

  // Finance approves in the staff console, looking at the proof.
  const staffContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const staff = await staffContext.newPage();
  await financeConsole(staff);
  const uid = ((await callApi(page, '/v1/waa/user/info', session.token)).data as { uid: number }).uid;
  await staff.goto('/staff/queues/deposit');
  await staff.getByRole('row').filter({ has: staff.getByRole('link', { name: String(uid), exact: true }) }).getByRole('link', { name: /^#\d+$/ }).click();
  await expect(staff.getByRole('img', { name: 'depositProof.jpg' })).toBeVisible();
  await staff.getByRole('button', { name: 'Approve' }).click();
  await staff.getByRole('dialog', { name: 'Approve' }).getByRole('button', { name: 'Approve' }).click();
  await expect(staff.getByText('Approval recorded')).toBeVisible();
  // 1,500 USD is over four-eyes (FOUR_EYES_USD 1,000): nothing is credited until a second finance member approves.
  await expect(page.getByTestId('wallet-USDT-balance')).toHaveText('0.00 USDT');
  await approveAsSecondFinance(page, uid, 'deposit');

  // The customer's open tab hears it: the notice at once, the balance at the wallet's next refresh (every 8 s).
  await expect(page.getByRole('status').filter({ hasText: 'Deposit credited' })).toBeVisible();
  await expect(page.getByTestId('wallet-USDT-balance')).toHaveText('1500.00 USDT', { timeout: 15_000 });
  await page.goto('/user/wallet/depositList');
  await expect(page.getByTestId('fund-record').first().getByTestId('fund-record-state')).toHaveText('Success');
  await page.getByTestId('fund-record').first().click();
  const details = isDesktop(page) ? page.getByRole('complementary', { name: 'Record details' }) : page.getByRole('dialog', { name: 'Record details' });
  await expect(details).toContainText('TRC20');
  await staffContext.close();
}

for (const size of ['@mobile', '@desktop']) {
  test(`a crypto deposit with a proof image: submitted in two steps, approved by finance in the staff console, credited live in the open tab ${size}`, async ({ page, browser }) => {
    test.setTimeout(120_000);
    await depositApprovedLive(page, browser);
  });
}
