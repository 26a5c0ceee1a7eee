import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { adoptTokens, callApi, createSession, e2eStaffMember, signInToConsole, waitForApp, type StaffCredentials } from './support';

/** The compliance member scripts/e2e-finance-staff.ts made for this layout's run. */
function complianceMember(project: string): StaffCredentials {
  return e2eStaffMember(`compliance-${project}`);
}

/** A photo as a phone would save it: a PNG with some texture, of the given shade. */
async function photo(shade: number): Promise<Buffer> {
  const width = 640;
  const height = 400;
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = (index * 13 + shade) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** The compliance member signs in to the console (authenticator code, then their own password), in a desktop window of its own. */
async function complianceConsole(browser: Browser, member: StaffCredentials): Promise<Page> {
  return (await signInToConsole(browser, member, 'compliance horse battery 7')).page;
}

/** Opens the customer's newest pending identity item in the console and checks its three images and the masked number. */
async function openPendingItem(staff: Page, uid: number, maskedNumber: string) {
  await staff.goto('/staff/queues/identity');
  const row = staff.getByRole('row').filter({ has: staff.getByRole('link', { name: String(uid), exact: true }) }).first();
  await row.getByRole('link', { name: /^#\d+$/ }).click();
  for (const name of ['1-cardImgFront.jpg', '2-cardImgReverse.jpg', '3-cardImgAvatar.jpg']) await expect(staff.getByRole('img', { name })).toBeVisible();
  await expect(staff.getByText(maskedNumber)).toBeVisible();
  await expect(staff.getByText('P1234567X9')).toHaveCount(0);
}

test('a full identity verification with three images: rejected by compliance, the notice live, resubmitted, approved, then the already-verified screen', async ({ page, browser }, testInfo) => {
  test.setTimeout(150_000);
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);
  const uid = ((await callApi(page, '/v1/waa/user/info', session.token)).data as { uid: number }).uid;
  // The customer's own number (one number verifies one account), masked as P1******X9.
  const idNumber = `P1${String(uid).padStart(6, '0')}X9`;

  // The hub offers it; the empty form answers every rule.
  await page.goto('/user');
  await page.getByRole('navigation', { name: 'Account menu' }).getByRole('link', { name: 'Identity verification' }).click();
  await expect(page.getByTestId('verify-form')).toHaveAttribute('data-status', '0');
  await expect(page.getByText('If you use the camera, please use the native camera first')).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();
  for (const message of [
    'Please enter your real name',
    'Please upload the front of your document',
    'Please upload the back of your document',
    'Please upload a selfie holding your document',
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await page.getByLabel('Real name').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Please enter your ID number')).toBeVisible();

  await page.getByLabel('ID number').fill(idNumber);
  await page.getByTestId('verify-front-input').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: await photo(1) });
  await page.getByTestId('verify-reverse-input').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: await photo(2) });
  await page.getByTestId('verify-avatar-input').setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: await photo(3) });
  for (const name of ['Front of the document', 'Back of the document', 'Selfie holding the document']) await expect(page.getByRole('img', { name })).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Submitted: we will review it shortly' })).toBeVisible();
  await expect(page.getByTestId('verify-form')).toHaveAttribute('data-status', '1');
  await expect(page.getByRole('button', { name: 'Authenticating' })).toBeVisible();
  await expect(page.getByText('Under review. You can still correct and resubmit.')).toBeVisible();

  // Compliance looks at the three images and the masked number, and rejects with a reason.
  const staff = await complianceConsole(browser, complianceMember(testInfo.project.name));
  await openPendingItem(staff, uid, 'P1******X9');
  await staff.getByRole('button', { name: 'Reject' }).click();
  const rejectDialog = staff.getByRole('dialog', { name: 'Reject' });
  await rejectDialog.getByLabel('Reason (kept in the audit trail)').fill('The selfie is blurred');
  await rejectDialog.getByRole('button', { name: 'Reject' }).click();
  await expect(staff.getByText('Rejection recorded')).toBeVisible();

  // The customer's open tab hears it at once, without a reload: the toast, and the form shows the reason and takes a resubmission.
  await expect(page.getByRole('status').filter({ hasText: 'Identity verification rejected' })).toBeVisible();
  await expect(page.getByTestId('verify-form')).toHaveAttribute('data-status', '3');
  await expect(page.getByTestId('verify-fail-reason')).toHaveText('Verification failed: The selfie is blurred');
  await expect(page.getByLabel('Real name')).toHaveValue('Ada Lovelace');
  // The earlier images stand (read back with the owner's token) until others are picked: only the selfie is new.
  for (const name of ['Front of the document', 'Back of the document', 'Selfie holding the document']) await expect(page.getByRole('img', { name })).toBeVisible();
  await page.getByLabel('ID number').fill(idNumber);
  await page.getByTestId('verify-avatar-input').setInputFiles({ name: 'selfie-sharp.png', mimeType: 'image/png', buffer: await photo(4) });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Submitted: we will review it shortly' })).toBeVisible();
  await expect(page.getByTestId('verify-form')).toHaveAttribute('data-status', '1');

  await openPendingItem(staff, uid, 'P1******X9');
  await staff.getByRole('button', { name: 'Approve' }).click();
  await staff.getByRole('dialog', { name: 'Approve' }).getByRole('button', { name: 'Approve' }).click();
  await expect(staff.getByText('Approval recorded')).toBeVisible();
  await staff.context().close();

  // Live again: the already-verified screen replaces the form; a reload shows it too.
  await expect(page.getByRole('status').filter({ hasText: 'Identity verified' })).toBeVisible();
  await expect(page.getByTestId('verify-already')).toBeVisible();
  await page.reload();
  const done = page.getByTestId('verify-already');
  await expect(done.getByRole('heading', { name: 'Identity verified' })).toBeVisible();
  await expect(done).toContainText('Ada Lovelace');
  await expect(done).toContainText('P1******X9');
  expect(((await callApi(page, '/v1/waa/user/info', session.token)).data as { verifiedStatus: number }).verifiedStatus).toBe(2);
});

test('the junior verification: name and number, then authenticating', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);
  await page.goto('/user/juniorVerified');
  await expect(page.getByTestId('junior-verify-form')).toHaveAttribute('data-status', '0');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Please enter your real name')).toBeVisible();
  await page.getByLabel('Real name').fill('Jun Ior');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Please enter your ID number')).toBeVisible();
  await page.getByLabel('ID number').fill('J-55667788');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Submitted: we will review it shortly' })).toBeVisible();
  await expect(page.getByTestId('junior-verify-form')).toHaveAttribute('data-status', '1');
  await expect(page.getByRole('button', { name: 'Authenticating' })).toBeVisible();
});
