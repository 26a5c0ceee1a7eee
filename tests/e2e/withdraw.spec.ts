import crypto from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { totpCode } from '../../server/auth/totp';
import { adoptTokens, callApi, createSession, e2eStaffMember, fundTradingAccount, isDesktop, signInToConsole, verifyJunior, waitForApp, type StaffCredentials } from './support';

/** The finance members scripts/e2e-finance-staff.ts made for this layout's run (two: four-eyes). */
function financeStaff(project: string): [StaffCredentials, StaffCredentials] {
  return [e2eStaffMember(`${project}-a`), e2eStaffMember(`${project}-b`)];
}

/** A money call with a fresh Idempotency-Key, as the app sends it. */
async function moneyCall(page: Page, apiPath: string, token: string, data: unknown) {
  const response = await page.request.post(apiPath, { data, headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() } });
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

/** A finance member signs in to the console (the authenticator's code, then their own password) and approves the item. */
async function approveInConsole(browser: Browser, member: StaffCredentials, uid: number, expectedStatus: string) {
  const { context, page } = await signInToConsole(browser, member, 'finance horse battery 7');

  // The withdrawal queue by its address (the session lives in this tab's storage).
  await page.goto('/staff/queues/withdrawal?status=all');
  await expect(page.getByRole('tab', { name: /Withdrawals/ })).toHaveAttribute('aria-selected', 'true');
  const row = page.getByRole('table', { name: 'Withdrawals to review' }).getByRole('row').filter({ has: page.getByRole('link', { name: String(uid), exact: true }) });
  await expect(row).toContainText('Two approvers');
  await expect(row).toContainText('Amount: 1,500.00');
  await row.getByRole('link', { name: /^#\d+$/ }).click();
  await page.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve' });
  await expect(dialog).toContainText('two approvals by two different staff members');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(expectedStatus).first()).toBeVisible();
  await context.close();
}

test('a withdrawal with its fee quote, approved by two finance staff in the console', async ({ page, browser }, testInfo) => {
  test.setTimeout(150_000);
  const [first, second] = financeStaff(testInfo.project.name);

  // A real account with 2,000 USD of trading cash, 1,600 of it moved to the USDT wallet.
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);
  const info = (await callApi(page, '/v1/waa/user/info', session.token)).data as { uid: number };
  await fundTradingAccount(page, session.token, '2000');
  // A real-money withdrawal needs junior verification (the server's default).
  await verifyJunior(page, session.token);
  const networks = ((await callApi(page, '/v1/waa/wallet/coinNetworks', session.token)).data as { dtoList: { currency: string; currencyId: number }[] }).dtoList;
  const usdt = networks.find((network) => network.currency === 'USDT')!;
  const transfer = { curr: 'USDT', currId: usdt.currencyId, type: 1, num: '1600' };
  const transferQuote = (await callApi(page, '/v1/waa/wallet/transformCalculate', session.token, transfer)).data as { fee: string; practical: string };
  const moved = await moneyCall(page, '/v1/waa/wallet/transform', session.token, { ...transfer, ...transferQuote });
  expect(moved.code, moved.msg).toBe(0);

  // The address, saved for USDT on TRC20 through the add screen.
  const address = 'TAzNLU555pAZSmv5NiusS4AihvBgpMwbKY';
  await page.goto('/user/wallet/addCrypto');
  await page.getByTestId('coin-network-picker').click();
  await page.getByRole('option', { name: 'USDT · TRC20' }).click();
  await page.getByLabel('Crypto address').fill(address);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Crypto wallet' })).toBeVisible();
  await expect(page.getByTestId('crypto-wallet-list')).toContainText(address);

  // The form: what the junior level may still withdraw, the range hint, then the quote for 1,500 (fee 1 USDT, 1,499 arrives, 100 left).
  await page.goto('/user/withdraw');
  await expect(page.getByTestId('withdraw-left-today')).toHaveText('You can withdraw 10,000.00 USD more today');
  await expect(page.getByTestId('withdraw-left-month')).toHaveText('You can withdraw 50,000.00 USD more this month');
  await page.getByTestId('withdraw-network-picker').click();
  await page.getByRole('option', { name: 'USDT · TRC20' }).click();
  await expect(page.getByTestId('withdraw-address-picker')).toContainText(address);
  await expect(page.getByTestId('withdraw-range')).toHaveText('Range 50 – 10000000');
  await page.getByLabel('Amount').fill('20');
  await expect(page.getByText('The amount must be between 50 and 10000000')).toBeVisible();
  await page.getByLabel('Amount').fill('1500');
  await expect(page.getByTestId('withdraw-fee')).toHaveText('1.00 USDT (≈ 1.00 USD)');
  await expect(page.getByTestId('withdraw-practical')).toHaveText('1,499.00 USDT (≈ 1,499.00 USD)');
  await expect(page.getByTestId('withdraw-after')).toHaveText('100.00 USDT (≈ 100.00 USD)');
  await page.getByRole('button', { name: 'Done', exact: true }).click();
  await expect(page.getByText('Operation successful')).toBeVisible();

  // Under review: withdraw/status blocks a second one, and the wallet holds only what is left.
  const balances = async () => ((await callApi(page, '/v1/waa/wallet/balance', session.token)).data as { list: { currency: string; balance: string }[] }).list.find((item) => item.currency === 'USDT')?.balance;
  expect(await balances()).toMatch(/^100(\.0+)?$/);
  await page.goto('/user/withdraw');
  await expect(page.getByTestId('withdraw-blocked')).toBeVisible();

  // The records list the withdrawal waiting for review.
  await page.goto('/user/wallet/depositList');
  const record = page.getByTestId('fund-record').first();
  await expect(record.getByTestId('fund-record-type')).toHaveText('Withdraw');
  await expect(record).toContainText('1500.00 USDT');
  await expect(record.getByTestId('fund-record-state')).toHaveText('Waiting');

  // Four-eyes: the first approval waits for a second, different finance member.
  await approveInConsole(browser, first, info.uid, 'Awaiting a second approval');
  await approveInConsole(browser, second, info.uid, 'Approved');

  // Paid: the customer may withdraw again, what is left counts the 1,500, and the notice arrived.
  await page.goto('/user/withdraw');
  await expect(page.getByTestId('withdraw-range')).toBeVisible();
  await expect(page.getByTestId('withdraw-left-today')).toHaveText('You can withdraw 8,500.00 USD more today');
  const notices = (await callApi(page, '/v1/waa/notice/list', session.token, { page: 1, limit: 10 })).data as { list: { paymentPrice: string | null }[] };
  expect(notices.list[0]?.paymentPrice).toBe('1500.00');

  // The records: the type filter keeps the withdrawal, its details show where it went (masked), the fee and what arrived.
  await page.goto('/user/wallet/depositList');
  await expect(page.getByTestId('fund-record').first().getByTestId('fund-record-state')).toHaveText('Success');
  // The one deposit is the approved one that funded this account (fundTradingAccount).
  await page.getByLabel('All types').selectOption({ label: 'Deposit' });
  await expect(page.getByTestId('fund-record')).toHaveCount(1);
  await expect(page.getByTestId('fund-record').first().getByTestId('fund-record-state')).toHaveText('Success');
  await page.getByLabel('All types').selectOption({ label: 'Withdraw' });
  await expect(page.getByTestId('fund-record')).toHaveCount(1);
  await page.getByTestId('fund-record').first().click();
  const details = isDesktop(page) ? page.getByRole('complementary', { name: 'Record details' }) : page.getByRole('dialog', { name: 'Record details' });
  await expect(details).toContainText('TAzNLU****wbKY');
  await expect(details).not.toContainText(address);
  await expect(details).toContainText('1.00 USDT');
  await expect(details).toContainText('1499.00 USDT');
  await expect(details).toContainText('Success');

  // The wallet hub's latest records show it too.
  await page.goto('/user/wallet');
  await expect(page.getByTestId('hub-latest-funds').locator('.wallet-record').first()).toContainText('-1500.00 USDT · Success');
});

test('on a 360 × 640 phone the Done button stays in view and uncovered under the quote and the authenticator code @mobile', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);
  await verifyJunior(page, session.token);
  await page.goto('/user/wallet/addCrypto');
  await page.getByTestId('coin-network-picker').click();
  await page.getByRole('option', { name: 'USDT · TRC20' }).click();
  await page.getByLabel('Crypto address').fill('TAzNLU555pAZSmv5NiusS4AihvBgpMwbKY');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('crypto-wallet-list')).toBeVisible();
  // The authenticator on: the form asks its code above the button.
  const setup = (await callApi(page, '/v1/waa/user/twoFactor/setup', session.token)).data as { secret: string };
  expect((await callApi(page, '/v1/waa/user/twoFactor/enable', session.token, { code: totpCode(setup.secret, Date.now()) })).code).toBe(0);

  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto('/user/withdraw');
  await page.getByTestId('withdraw-network-picker').click();
  await page.getByRole('option', { name: 'USDT · TRC20' }).click();
  await page.getByLabel('Amount').fill('100');
  await expect(page.getByTestId('withdraw-fee')).toHaveText(/\d/);
  await expect(page.getByLabel('Authenticator code')).toBeAttached();
  const submit = page.getByRole('button', { name: 'Done', exact: true });
  await expect(submit).toBeInViewport({ ratio: 1 });
  // Nothing is drawn over it: the point at its centre is the button.
  const box = (await submit.boundingBox())!;
  expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent, { x: box.x + box.width / 2, y: box.y + box.height / 2 })).toBe('Done');
});
