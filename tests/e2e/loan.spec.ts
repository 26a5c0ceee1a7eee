import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { adoptTokens, callApi, createSession, demoSession, e2eStaffMember, setBrandSwitch, signInToConsole, waitForApp, type StaffCredentials } from './support';

const setLoanSwitch = (page: Page, enable: boolean) => setBrandSwitch(page, 'user/loan', enable);

/** A finance member signed in to the console in a window of their own (the authenticator's code, then their own password). */
const consoleOf = (browser: Browser, member: StaffCredentials) => signInToConsole(browser, member, 'finance horse battery 7');

/** Opens the customer's item in a queue ('loan' or 'repayment') and approves it; the status it reaches shows. */
async function approveIn(page: Page, kind: 'loan' | 'repayment', uid: number, facts: string, expectedStatus: string) {
  await page.goto(`/staff/queues/${kind}?status=all`);
  const table = page.getByRole('table', { name: kind === 'loan' ? 'Loans to review' : 'Repayments to review' });
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: String(uid), exact: true }) }).first();
  await expect(row).toContainText(facts);
  if (kind === 'loan') await expect(row).toContainText('Two approvers');
  await row.getByRole('link', { name: /^#\d+$/ }).click();
  await page.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve' });
  if (kind === 'loan') await expect(dialog).toContainText('two approvals by two different staff members');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(expectedStatus).first()).toBeVisible();
}

/** Moves a range input to a value as a drag would (React hears the input event). */
async function slideTo(slider: Locator, value: number) {
  await slider.evaluate((element, next) => {
    const input = element as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, String(next));
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

test('a loan requested with a guarantor, approved by two finance staff, credited, then repaid in part', async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const first = e2eStaffMember(`loan-${testInfo.project.name}-a`);
  const second = e2eStaffMember(`loan-${testInfo.project.name}-b`);
  await page.goto('/');
  await waitForApp(page);
  await setLoanSwitch(page, true);
  try {
    // The guarantor: another customer, known by their UID.
    const guarantor = await createSession(page);
    const guarantorUid = ((await callApi(page, '/v1/waa/user/info', guarantor.token)).data as { uid: number }).uid;
    const session = await createSession(page);
    await adoptTokens(page, session);
    const uid = ((await callApi(page, '/v1/waa/user/info', session.token)).data as { uid: number }).uid;

    // The hub offers the loan entry (switch on, real account); nothing in the account yet.
    await page.goto('/user');
    await expect(page.getByTestId('hub-available-balance')).toHaveText('0.00');
    await page.getByRole('link', { name: 'Loan', exact: true }).click();
    await expect(page).toHaveURL(/\/user\/loan$/);

    // The request form: the sliders start at 50,000 and 7 days, with their marks.
    const form = page.getByTestId('loan-request-form');
    await expect(page.getByTestId('loan-amount-value')).toHaveText('50,000');
    await expect(page.getByTestId('loan-days-value')).toHaveText('7 days');
    await expect(form).toContainText('500,000');
    await expect(form).toContainText('15 days');
    await expect(form).toContainText('30 days');
    // Without a guarantor the form says so and sends nothing.
    await page.getByTestId('loan-submit').click();
    await expect(page.getByText('Please enter the guarantor')).toBeVisible();
    await slideTo(page.getByTestId('loan-amount'), 100000);
    await expect(page.getByTestId('loan-amount-value')).toHaveText('100,000');
    await slideTo(page.getByTestId('loan-days'), 15);
    await expect(page.getByTestId('loan-days-value')).toHaveText('15 days');
    // Oneself cannot stand guarantor: the server's message shows with its code.
    await page.getByLabel('Guarantor UID').fill(String(uid));
    await page.getByTestId('loan-submit').click();
    await expect(page.getByText('The guarantor must be another existing customer (their UID) (1081)')).toBeVisible();
    await page.getByLabel('Guarantor UID').fill(String(guarantorUid));
    await page.getByLabel('Remark').fill('Shop stock');
    await page.screenshot({ path: testInfo.outputPath('loan-request.png') });
    await page.getByTestId('loan-submit').click();
    await expect(page.getByText('Submitted successfully, please wait for review')).toBeVisible();
    // Under review: the form is read-only and the button waits.
    await expect(page.getByTestId('loan-submit')).toHaveText('Waiting for review');
    await expect(page.getByTestId('loan-submit')).toBeDisabled();
    await expect(page.getByLabel('Guarantor UID')).toHaveValue(String(guarantorUid));

    // Four-eyes: the first approval waits for a second, different finance member; nothing is credited yet.
    const a = await consoleOf(browser, first);
    await approveIn(a.page, 'loan', uid, 'Amount: 100,000.00', 'Awaiting a second approval');
    await a.context.close();
    await page.goto('/user');
    await expect(page.getByTestId('hub-available-balance')).toHaveText('0.00');
    const b = await consoleOf(browser, second);
    await approveIn(b.page, 'loan', uid, 'Amount: 100,000.00', 'Approved');

    // Credited: the balance moves, and the loan screen shows the repayment view.
    await page.goto('/user');
    await expect(page.getByTestId('hub-available-balance')).toHaveText('100,000.00');
    await page.goto('/user/loan');
    await expect(page.getByTestId('loan-owed')).toHaveText('100,000.00');
    await expect(page.getByText('No repayments yet')).toBeVisible();

    // Repay 30,000: the first click shows the slider, the second sends it.
    await expect(page.getByTestId('loan-repay-amount')).toHaveCount(0);
    await page.getByTestId('loan-repay').click();
    await expect(page.getByTestId('loan-repay-amount')).toBeVisible();
    await page.getByTestId('loan-repay').click();
    await expect(page.getByText('The repayment amount cannot be 0')).toBeVisible();
    await slideTo(page.getByTestId('loan-repay-amount'), 30000);
    await expect(page.getByTestId('loan-repay-amount-value')).toHaveText('30,000.00');
    await page.screenshot({ path: testInfo.outputPath('loan-repay.png') });
    await page.getByTestId('loan-repay').click();
    await expect(page.getByText('Submitted successfully, please wait for review')).toBeVisible();
    const record = page.getByTestId('loan-records').locator('li').first();
    await expect(record).toContainText('30,000.00');
    await expect(record).toContainText('Pending review');
    // The latest pending record's amount owed is shown; another repayment waits for this one.
    await expect(page.getByTestId('loan-owed')).toHaveText('70,000.00');
    await expect(page.getByTestId('loan-repay')).toBeDisabled();

    // Finance approves the repayment: the cash and the debt drop together.
    await approveIn(b.page, 'repayment', uid, 'Amount: 30,000.00', 'Approved');
    await b.context.close();
    await page.goto('/user/loan');
    await expect(page.getByTestId('loan-records').locator('li').first()).toContainText('Approved');
    await expect(page.getByTestId('loan-owed')).toHaveText('70,000.00');
    await expect(page.getByTestId('loan-repay')).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath('loan-repaid-part.png') });
    const loan = (await callApi(page, '/v1/waa/loan/check', session.token)).data as { dto: { amountOwed: string; status: number } };
    expect(loan.dto).toMatchObject({ amountOwed: '70000.00', status: 1 });
    await page.goto('/user');
    await expect(page.getByTestId('hub-available-balance')).toHaveText('70,000.00');
  } finally {
    await setLoanSwitch(page, false);
  }
  // The switch off: the hub hides the entry again.
  await page.goto('/user');
  await expect(page.getByTestId('hub-available-balance')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Loan', exact: true })).toHaveCount(0);
});

test('the loan screen reads in Thai, and a demo account neither sees the entry nor reaches the calls', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForApp(page);
  await setLoanSwitch(page, true);
  try {
    await page.getByRole('button', { name: /^(Language|ภาษา): / }).first().click();
    await page.getByRole('option', { name: 'ไทย' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'th');
    const session = await createSession(page);
    await adoptTokens(page, session);
    await page.goto('/user/loan');
    await expect(page.getByTestId('loan-amount-value')).toHaveText('50,000');
    await expect(page.getByTestId('loan-request-form')).toContainText('จำนวนเงินกู้');
    await expect(page.getByTestId('loan-days-value')).toHaveText('7 วัน');
    await expect(page.getByLabel('UID ผู้ค้ำประกัน')).toBeVisible();
    await page.getByTestId('loan-submit').click();
    await expect(page.getByText('กรุณากรอกผู้ค้ำประกัน')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('loan-request-th.png') });

    // The real account's hub has the entry; the demo account's has none, and the calls refuse its session.
    await page.goto('/user');
    await expect(page.locator('a[href="/user/loan"]')).toHaveCount(1);
    const demo = await demoSession(page);
    await page.goto('/user');
    await expect(page.getByTestId('hub-available-balance')).toBeVisible();
    await expect(page.locator('a[href="/user/loan"]')).toHaveCount(0);
    expect((await callApi(page, '/v1/waa/loan/check', demo.token)).code).toBe(1001);
  } finally {
    await setLoanSwitch(page, false);
  }
});
