import { expect, test, type Page } from '@playwright/test';
import { adoptTokens, callApi, isDesktop, outboxCode, setBrandSwitch, waitForApp } from './support';

let serial = 0;

/** A customer signed up by phone (an SMS code) and signed in, without an e-mail. */
async function phoneCustomer(page: Page) {
  const phone = `861390013${String((Date.now() + (serial += 1)) % 10_000).padStart(4, '0')}`;
  const password = 'phone password 1';
  const post = async (path: string, data: unknown) => (await (await page.request.post(path, { data })).json()) as { code: number; msg: string; data: unknown };
  expect((await post('/v1/wa-na/sendPhone', { phone, type: '1', locale: 'en' })).code).toBe(0);
  const code = await outboxCode(page, phone);
  expect((await post('/v1/wa-na/register', { username: phone, password, type: 'P', code, locale: 'en' })).code).toBe(0);
  const login = await post('/v1/wa-na/login', { username: phone, password, type: 'P' });
  expect(login.code, login.msg).toBe(0);
  return { phone, password, ...(login.data as { token: string; refreshToken: string }) };
}

test('a phone-registered customer binds an e-mail with the code sent to it; the address then signs in, and the entry is gone', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  // The brand lets customers sign up by phone for this test only.
  await setBrandSwitch(page, 'PHONE_REGISTER', true);
  try {
    const customer = await phoneCustomer(page);
    await adoptTokens(page, customer);
    await page.goto('/user');
    const menu = page.getByRole('navigation', { name: 'Account menu' });
    await menu.getByRole('link', { name: 'Bind e-mail' }).click();
    await expect(page).toHaveURL(/\/user\/bindEmail$/);
    await expect(page.getByText('Link an e-mail address to your account.', { exact: false })).toBeVisible();

    // A malformed address is refused before anything is sent.
    const address = page.getByLabel('E-mail', { exact: true });
    await address.fill('not an address');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.locator('.field-error')).toBeVisible();

    const email = `bound-${Date.now().toString(36)}-${serial}@example.com`;
    await address.fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = await outboxCode(page, email);
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Bind e-mail' }).click();
    await expect(page.getByText('Updated successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/user$/);
    // Bound: the entry is no longer offered, and the address signs in with the same password.
    await expect(menu.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Bind e-mail' })).toHaveCount(0);
    const info = (await callApi(page, '/v1/waa/user/info', customer.token)).data as { email: string; registerType: string };
    expect(info).toMatchObject({ email, registerType: 'P' });
    const byEmail = (await (await page.request.post('/v1/wa-na/login', { data: { username: email, password: customer.password, type: 'E' } })).json()) as { code: number };
    expect(byEmail.code).toBe(0);
    await page.screenshot({ path: `test-results/screens/bind-email-done-${isDesktop(page) ? 1440 : 390}.png` });
  } finally {
    await setBrandSwitch(page, 'PHONE_REGISTER', false);
  }
});
