import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { totpCode } from '../../server/auth/totp';
import { callApi, staffApiToken } from './support';

/** The invitation link the development outbox holds for an address (it goes out after the answer: waited for). */
async function invitationLink(page: Page, to: string): Promise<URL> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const outbox = (await (await page.request.get(`/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { purpose?: string; code?: string }[];
      return (link = outbox.filter((message) => message.purpose === 'staff invitation').at(-1)?.code);
    })
    .toMatch(/\/staff\/enrol#[A-Za-z0-9_-]{40,}$/);
  return new URL(link ?? '');
}

test('a new staff member enrols from the invitation: their own password and authenticator, then a signed-in console @desktop', async ({ page }) => {
  test.setTimeout(120_000);
  // An admin invites a support member (as the Staff page does); the member's mail holds the link.
  const adminToken = await staffApiToken(page, 'enrol-admin', 'enrol admin horse battery 7');
  const email = `support-${crypto.randomBytes(4).toString('hex')}@e2e.example`;
  const invited = await callApi(page, '/v1/staff/staff/create', adminToken, { email, roles: ['support'] });
  expect(invited.code).toBe(0);
  expect(invited.data).toEqual({ staffId: expect.any(Number), invitationSentTo: email });
  const link = await invitationLink(page, email);

  // The link opens the console's enrolment page: a password of the member's own choosing.
  await page.goto(`${link.pathname}${link.hash}`);
  await expect(page.getByRole('heading', { name: 'Set up your staff account' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('enrolled horse battery 7');
  await page.getByLabel('New password again').fill('enrolled horse battery 7');
  await page.getByRole('button', { name: 'Continue' }).click();

  // The authenticator is the member's alone: its address and QR code, then a first code.
  await expect(page.getByRole('heading', { name: 'Add your authenticator' })).toBeVisible();
  await expect(page.getByRole('img', { name: /QR code of your authenticator address/ })).toBeVisible();
  const otpauthUrl = (await page.getByLabel('Authenticator address (otpauth)').textContent()) ?? '';
  const secret = new URL(otpauthUrl).searchParams.get('secret') ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+$/);
  await page.getByLabel('Authenticator code').fill(totpCode(secret, Date.now()));
  await page.getByRole('button', { name: 'Confirm and finish' }).click();
  await expect(page.getByRole('heading', { name: 'Your staff account is ready' })).toBeVisible();

  // The link is spent: opening it again is refused with its translated message.
  const again = await page.request.post('/v1/staff/enrol', { data: { token: link.hash.slice(1), password: 'another horse battery 8' } });
  expect(((await again.json()) as { code: number }).code).toBe(2010);

  // Sign-in with the new password and the next code (the confirming one is spent): the console, no forced password change.
  await page.getByRole('button', { name: 'Go to sign-in' }).click();
  await expect(page.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('enrolled horse battery 7');
  await page.getByLabel('Authenticator code').fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${email}` })).toBeVisible();
  const navigation = page.getByRole('navigation', { name: 'Console sections' });
  await expect(navigation.getByRole('link')).toHaveText(['Home', 'Customers', 'Notices', 'Declarations']);

  // A new member decides nothing before declaring their own identity document: Home says so and leads there.
  await expect(page.getByRole('status').filter({ hasText: 'You have not declared your identity document' })).toBeVisible();
  await page.getByRole('link', { name: 'Declare it now' }).click();
  await expect(page.getByRole('heading', { name: 'My declarations' })).toBeVisible();
  const documentCard = page.getByRole('region', { name: 'My identity document' });
  await documentCard.getByRole('button', { name: 'Declare document' }).click();
  await expect(documentCard.getByText('Enter the number as printed on the document (at least 4 characters).')).toBeVisible();
  const number = `E2E${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  await documentCard.getByLabel('Document number').fill(number);
  await documentCard.getByRole('button', { name: 'Declare document' }).click();
  const confirm = page.getByRole('dialog', { name: 'My identity document' });
  await expect(confirm).toContainText(`Declare ${number} as your own identity document? It cannot be changed afterwards.`);
  await confirm.getByRole('button', { name: 'Declare document' }).click();
  // Declared: only its mask is shown, and no form is left to change it.
  await expect(documentCard.getByText(`${number.slice(0, 2)}${'*'.repeat(number.length - 4)}${number.slice(-2)}`)).toBeVisible();
  await expect(documentCard.getByRole('button', { name: 'Declare document' })).toHaveCount(0);
  // A customer account of their own: an unknown UID is refused with the translated reason, and nothing is listed.
  const accounts = page.getByRole('region', { name: 'My customer accounts' });
  await accounts.getByLabel('Customer UID').fill('12ab');
  await accounts.getByRole('button', { name: 'Declare account' }).click();
  await expect(accounts.getByText("Enter the customer account's UID (digits only).")).toBeVisible();
  await expect(accounts.getByText('No customer account declared.')).toBeVisible();
});
