import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { totpCode } from '../../server/auth/totp';
import { adoptTokens, callApi, createSession, waitForApp } from './support';

/** What scripts/e2e-server.mjs kept of `npm run staff -- create` for the first admin. */
function firstAdmin(): { email: string; oneTimePassword: string; otpauthUrl: string } {
  const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
  return JSON.parse(fs.readFileSync(path.join(dataDir, 'first-admin.json'), 'utf8')) as { email: string; oneTimePassword: string; otpauthUrl: string };
}

test('the staff console: an admin signs in with TOTP, invites a finance member, prohibits a customer from trading, sends a notice and reads both (and its own reads) in the audit trail @desktop', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const admin = firstAdmin();
  const secret = new URL(admin.otpauthUrl).searchParams.get('secret') ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+$/);

  // A customer, signed up in another browser, trading on the demo account with the app open.
  const customerContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const customer = await customerContext.newPage();
  await customer.goto('/');
  await waitForApp(customer);
  const session = await createSession(customer);
  const switched = await callApi(customer, '/v1/waa/user/switch', session.token);
  expect(switched.code).toBe(0);
  await adoptTokens(customer, switched.data as { token: string; refreshToken: string });
  await customer.goto('/');
  await expect(customer.getByRole('region', { name: 'Bitcoin' })).toBeVisible();

  // Sign-in: e-mail, the one-time password and the authenticator's code; then the forced new password.
  await page.goto('/staff/');
  await expect(page.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.oneTimePassword);
  await page.getByLabel('Authenticator code').fill(totpCode(secret, Date.now()));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Choose your own password' })).toBeVisible();
  await page.getByLabel('Current password').fill(admin.oneTimePassword);
  await page.getByLabel('New password', { exact: true }).fill('admin horse battery 7');
  await page.getByLabel('New password again').fill('admin horse battery 7');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${admin.email}` })).toBeVisible();
  const navigation = page.getByRole('navigation', { name: 'Console sections' });
  await expect(navigation.getByRole('link')).toHaveText(['Home', 'Customers', 'Review queues', 'Notices', 'Audit trail', 'Configuration', 'Staff', 'Declarations']);

  // A finance member is invited: the admin is told where the invitation went and sees no credential.
  await navigation.getByRole('link', { name: 'Staff' }).click();
  await page.getByRole('button', { name: 'Add a staff member' }).click();
  const createDialog = page.getByRole('dialog', { name: 'Add a staff member' });
  await expect(createDialog).toContainText('You never see either.');
  await createDialog.getByLabel('E-mail').fill('finance@e2e.example');
  await createDialog.getByLabel('Finance').check();
  await createDialog.getByRole('button', { name: 'Add a staff member' }).click();
  await expect(createDialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Invitation sent to finance@e2e.example' })).toBeVisible();
  await expect(page.getByText(/otpauth:\/\//)).toHaveCount(0);
  const staffGrid = page.getByRole('table', { name: 'Staff' });
  await expect(staffGrid.getByRole('row', { name: /finance@e2e\.example/ })).toContainText('Finance');
  await expect(staffGrid.getByRole('row', { name: /finance@e2e\.example/ })).toContainText('Invited: has not enrolled yet');

  // The invitation is sent again (a lost or expired link): a new link, the first one voided.
  const invitationLinks = async () =>
    ((await (await page.request.get('/dev/outbox?to=finance%40e2e.example')).json()) as { purpose?: string; code?: string }[])
      .filter((message) => message.purpose === 'staff invitation')
      .map((message) => message.code ?? '');
  await expect.poll(async () => (await invitationLinks()).length).toBe(1);
  await staffGrid.getByRole('button', { name: 'Send the invitation to finance@e2e.example again' }).click();
  const resendDialog = page.getByRole('dialog', { name: 'Send the invitation again' });
  await expect(resendDialog).toContainText('the links sent before stop working');
  await resendDialog.getByRole('button', { name: 'Send the invitation again' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'A new invitation was sent to finance@e2e.example' })).toBeVisible();
  await expect.poll(async () => (await invitationLinks()).length).toBe(2);
  const [firstLink, secondLink] = await invitationLinks();
  expect(secondLink).not.toBe(firstLink);
  const replaced = await page.request.post('/v1/staff/enrol', { data: { token: firstLink!.slice(firstLink!.indexOf('#') + 1), password: 'finance horse battery 7' } });
  expect(((await replaced.json()) as { code: number }).code).toBe(2016);

  // The customer, found by e-mail; their page.
  await navigation.getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('searchbox', { name: 'UID, e-mail or phone' }).fill(session.email);
  await page.getByRole('button', { name: 'Search' }).click();
  const found = page.getByRole('table', { name: 'Customers found' }).getByRole('row', { name: new RegExp(session.email.replace(/[.+]/g, '\\$&')) });
  await expect(found).toContainText('Trading allowed');
  const uid = (await found.getByRole('link').textContent()) ?? '';
  expect(uid).toMatch(/^\d+$/);
  await found.getByRole('link', { name: uid }).click();
  await expect(page.getByRole('heading', { name: `Customer ${uid}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Balances' })).toContainText('100,000.00');

  // Prohibit trading: a reason is required, and kept.
  await page.getByRole('button', { name: 'Prohibit trading' }).click();
  const prohibitDialog = page.getByRole('dialog', { name: 'Prohibit trading' });
  await prohibitDialog.getByRole('button', { name: 'Prohibit trading' }).click();
  await expect(prohibitDialog.getByText('Give a reason: it is kept in the audit trail.')).toBeVisible();
  await prohibitDialog.getByLabel('Reason (kept in the audit trail)').fill('Chargeback under review');
  await prohibitDialog.getByRole('button', { name: 'Prohibit trading' }).click();
  await expect(prohibitDialog).toBeHidden();
  await expect(page.getByRole('region', { name: 'Profile' })).toContainText('Chargeback under review');
  await expect(page.getByRole('button', { name: 'Allow trading' })).toBeVisible();

  // The customer's next order is refused with its translated message.
  await customer.getByRole('region', { name: 'Bitcoin' }).getByRole('button', { name: 'Buy' }).click();
  const placePanel = customer.getByRole('region', { name: 'Place order · Bitcoin' });
  await placePanel.getByLabel('Volume (lots)').fill('0.10');
  await placePanel.getByRole('button', { name: 'Buy', exact: true }).last().click();
  await expect(customer.getByRole('alert').filter({ hasText: 'You are prohibited from trading (405)' })).toBeVisible();

  // A notice to this customer reaches the open tab: a toast with its title, and the unread count.
  await page.getByRole('button', { name: 'Send a notice' }).click();
  const noticeDialog = page.getByRole('dialog', { name: 'Send a notice' });
  await expect(noticeDialog.getByText(`To customer ${uid}`)).toBeVisible();
  await noticeDialog.getByLabel('Title').fill('Your account is under review');
  await noticeDialog.getByLabel('Message').fill('Trading is paused while we review a chargeback.');
  await noticeDialog.getByRole('button', { name: 'Send a notice' }).click();
  await expect(noticeDialog).toBeHidden();
  await expect(customer.getByRole('status').filter({ hasText: 'Your account is under review' })).toBeVisible();
  await expect(customer.getByRole('status', { name: 'Notifications: 1 unread' })).toHaveText('1');

  // The audit trail names both actions on this customer, with what changed.
  await navigation.getByRole('link', { name: 'Audit trail' }).click();
  await page.getByRole('textbox', { name: 'Customer UID' }).fill(uid);
  await page.getByRole('button', { name: 'Apply' }).click();
  const audit = page.getByRole('table', { name: 'Audit trail' });
  // The header row, the two actions and the admin's three reads of this customer (the search
  // that found them and the customer page, before and after the prohibition): nothing else was
  // done to or read of this customer (and the filtered answer has replaced the unfiltered one).
  await expect(audit.getByRole('row')).toHaveCount(6);
  await expect(audit.getByRole('row').filter({ hasText: 'Customers searched' })).toHaveCount(1);
  await expect(audit.getByRole('row').filter({ hasText: 'Customer viewed' })).toHaveCount(2);
  const prohibition = audit.getByRole('row').filter({ hasText: 'Trading prohibited or allowed' });
  await expect(prohibition).toContainText(admin.email);
  await expect(prohibition).toContainText(`Customer UID ${uid}`);
  await expect(prohibition).toContainText(/Trading prohibited:\s*No\s*→\s*Yes/);
  const notice = audit.getByRole('row').filter({ hasText: 'Notice sent' });
  await expect(notice).toContainText('Your account is under review');

  // In German the console's own words change too (fetched with the language), the audit's as well.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
  await expect(page.getByRole('navigation', { name: 'Bereiche der Konsole' }).getByRole('link', { name: 'Prüfprotokoll' })).toBeVisible();
  const germanAudit = page.getByRole('table', { name: 'Prüfprotokoll' });
  await expect(germanAudit.getByRole('row').filter({ hasText: 'Handel gesperrt oder erlaubt' })).toContainText(/Handel gesperrt:\s*Nein\s*→\s*Ja/);

  await customerContext.close();
});
