import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { totpCode } from '../../server/auth/totp';
import { isDesktop, signOutThroughEngine } from './support';

/** A fresh address per test and project, so runs and viewports never share an account. */
function uniqueEmail(testInfo: TestInfo, label: string): string {
  return `${label}-${testInfo.project.name}-${Date.now()}@example.com`;
}

function screen(page: Page, name: string) {
  return page.screenshot({ path: `test-results/screens/auth-${name}-${isDesktop(page) ? 'desktop' : 'mobile'}.png` });
}

/** The codes the server has sent to an address (the dev outbox), oldest first. */
async function outboxCodes(page: Page, email: string): Promise<string[]> {
  const response = await page.request.get(`/dev/outbox?to=${encodeURIComponent(email)}`);
  expect(response.ok()).toBe(true);
  const messages = (await response.json()) as { to: string; subject: string; text: string; code?: string }[];
  return messages.flatMap((message) => (message.code ? [message.code] : []));
}

/** Waits for a code beyond the `known` ones and answers the newest. */
async function nextCode(page: Page, email: string, known = 0): Promise<string> {
  let codes: string[] = [];
  await expect.poll(async () => (codes = await outboxCodes(page, email)).length).toBeGreaterThan(known);
  return codes[codes.length - 1] ?? '';
}

/** An account made through the API, for tests about what comes after sign-up. */
async function registerThroughApi(page: Page, email: string, password: string) {
  const sent = await page.request.post('/v1/wa-na/sendMail', { data: { email, type: '1', locale: 'en' } });
  expect((await sent.json()) as { code: number }).toMatchObject({ code: 0 });
  const code = await nextCode(page, email);
  const registered = await page.request.post('/v1/wa-na/register', { data: { username: email, password, type: 'E', code, locale: 'en' } });
  expect((await registered.json()) as { code: number }).toMatchObject({ code: 0 });
}

async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Reads the two IndexedDB stores of "remember password" as the page sees them. */
function readRememberedStores(page: Page) {
  return page.evaluate(async () => {
    const read = (database: string, store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open(database);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result as unknown[]);
          request.onerror = () => reject(request.error);
        };
      });
    const preferences = await read('tradeweb-preferences', 'preferences');
    const keys = await read('tradeweb-secrets', 'keys');
    const key = keys[0] as CryptoKey | undefined;
    return { preferences: JSON.stringify(preferences), keyType: key?.type, extractable: key?.extractable };
  });
}

// Each account costs a code, and the server limits codes per address: one account per test.
test('sign up by e-mail (ends at sign-in with the account filled in), sign in (home, then the page asked for), remember the account', async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, 'signup');
  const password = 'correct horse 7';

  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign up' })).toBeVisible();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  // Phone sign-up is off by default: no contact tabs.
  await expect(page.getByRole('button', { name: 'Phone', exact: true })).toHaveCount(0);
  await page.getByLabel('E-mail', { exact: true }).fill(`  ${email}  `);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(`A verification code was sent to ${email}`)).toBeVisible();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await expect(page.getByText(/^Resend in \d+ s$/)).toBeVisible();

  // Digits only (letters and separators dropped, a paste keeps six), checked before sending.
  const codeField = page.getByLabel('Verification code');
  await codeField.fill('12a-3');
  await expect(codeField).toHaveValue('123');
  await page.getByLabel('Password', { exact: true }).fill('abc123');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter the 6-digit verification code' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'The password must be more than six characters' })).toBeVisible();
  await codeField.fill('98 76 54 32');
  await expect(codeField).toHaveValue('987654');

  const code = await nextCode(page, email);
  await codeField.fill(code);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await expect(page.getByLabel('Invitation code (optional)')).toBeVisible();
  await screen(page, 'register-step-2');
  await page.getByRole('button', { name: 'Create account' }).click();

  // Sign-up ends at sign-in with the new account filled in (the specification), not signed in.
  await expect(page).toHaveURL(/\/login\?account=/);
  await expect(page.getByText('Your account is ready. Please sign in.')).toBeVisible();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();

  // A wrong password: the server's message, and the form stays usable.
  await page.getByLabel('Password', { exact: true }).fill('not-the-right-one');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Incorrect account or password (1003)')).toBeVisible();
  await expect(page).toHaveURL(/\/login(\?account=[^&]+)?$/);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();

  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByText('Signed in successfully')).toBeVisible();
  await expect(page.getByText('You are already signed in')).toHaveCount(0);

  // A protected page keeps its path through sign-in; this time the account is remembered.
  await signOutThroughEngine(page);
  await page.goto('/position');
  await expect(page).toHaveURL('/login?to=%2Fposition');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Remember password').check();
  await expect(page.getByLabel('Remember account')).toBeChecked();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL('/position');
  await expect(page.getByRole('heading', { level: 1, name: 'Position' })).toBeVisible();
  await expect(page.getByText('You are already signed in')).toHaveCount(0);

  // The password is kept only as AES-GCM ciphertext, under a key that cannot be read out.
  const stored = await readRememberedStores(page);
  expect(stored.preferences).toContain('"rememberedPassword"');
  expect(stored.preferences).not.toContain(password);
  expect(stored).toMatchObject({ keyType: 'secret', extractable: false });

  await signOutThroughEngine(page);
  await page.goto('/login');
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue(password);
  await screen(page, 'login-remembered');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');

  // Unticking "remember account" forgets both at the next sign-in.
  await page.getByLabel('Remember account').uncheck();
  await expect(page.getByLabel('Remember password')).not.toBeChecked();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL('/');
  expect((await readRememberedStores(page)).preferences).not.toContain('"ciphertext"');
  await signOutThroughEngine(page);
  await page.goto('/login');
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
});

test('fields are checked before anything is sent', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill('not-an-address');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter a valid e-mail address or phone number' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter your password' })).toBeVisible();
  await expect(page.getByLabel('E-mail', { exact: true })).toBeFocused();
  await screen(page, 'login-errors');

  await page.goto('/register');
  await page.getByLabel('E-mail', { exact: true }).fill('someone@nowhere');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter a valid e-mail address' })).toBeVisible();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();

  await page.goto('/forgot');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter a valid e-mail address' })).toBeVisible();
});

test('reset a forgotten password and sign in with the new one', async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, 'forgot');
  await registerThroughApi(page, email, 'old-password-1');
  const known = (await outboxCodes(page, email)).length;

  // The page's clock runs normally; the test moves it on to see the resend link appear.
  await page.clock.install();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password' }).click();
  await expect(page).toHaveURL('/forgot');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(`Enter the code we sent to ${email}`)).toBeVisible();
  await expect(page.getByText(/^Resend in \d+ s$/)).toBeVisible();

  // Back from step 2: step 1 again, with the contact cleared.
  await page.getByRole('button', { name: 'Back', exact: true }).last().click();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue('');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText('Step 2 of 2')).toBeVisible();

  const code = await nextCode(page, email, known);
  await page.getByLabel('Verification code').fill(code);
  await page.getByLabel('New password', { exact: true }).fill('new-password-2');
  await page.getByLabel('Confirm the new password').fill('new-password-3');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The confirmation password is inconsistent with the login password!' })).toBeVisible();
  await page.getByLabel('Confirm the new password').fill('new-password-2');
  await expect(page.getByText(/^Resend in 5\d s$/)).toBeVisible();
  await screen(page, 'forgot-step-2');
  await expect(page.getByRole('button', { name: 'Resend code' })).toHaveCount(0);
  await page.clock.fastForward(61_000);
  await expect(page.getByRole('button', { name: 'Resend code' })).toBeVisible();
  await expect(page.getByText(/^Resend in \d+ s$/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Reset password' }).click();

  await expect(page).toHaveURL(`/login?account=${encodeURIComponent(email)}`);
  await expect(page.getByText('Your password has been reset. Please sign in.')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('new-password-2');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL('/');
  await signOutThroughEngine(page);
});

test('two-factor: set up with a QR code, then sign in with the authenticator code', async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, 'totp');
  const password = 'second-factor-9';
  await registerThroughApi(page, email, password);
  await page.goto('/login?to=%2Fuser%2FtwoFactor');
  await fillSignIn(page, email, password);
  await expect(page).toHaveURL('/user/twoFactor');
  await expect(page.getByText('Two-factor authentication is off')).toBeVisible();

  await page.getByRole('button', { name: 'Set up' }).click();
  await expect(page.getByRole('img', { name: 'QR code to add this account to an authenticator app' })).toBeVisible();
  const secret = (await page.getByLabel('Setup key').inputValue()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await screen(page, 'two-factor-setup');
  // A code is spent once (its 30 s step): each use below takes a later step, all within the ±1 step the server allows.
  await page.getByLabel('Authenticator code').fill(totpCode(secret, Date.now() - 30_000));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Two-factor authentication is on', { exact: true })).toBeVisible();

  await signOutThroughEngine(page);
  await page.goto('/login');
  await fillSignIn(page, email, password);
  await expect(page.getByRole('heading', { name: 'Two-factor verification' })).toBeVisible();
  const codeField = page.getByLabel('Authenticator code');
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  await screen(page, 'login-second-factor');

  // A wrong code (six digits submit at once) is refused: the field empties and keeps the focus.
  const now = Date.now();
  const valid = new Set([-30_000, 0, 30_000].map((drift) => totpCode(secret, now + drift)));
  let wrong = '000000';
  for (let candidate = 0; valid.has(wrong); candidate += 1) wrong = String(candidate).padStart(6, '0');
  await codeField.fill(wrong);
  await expect(page.getByText('Invalid verification code (1020)')).toBeVisible();
  await expect(codeField).toHaveValue('');
  await expect(codeField).toBeFocused();

  await codeField.fill(totpCode(secret, Date.now()));
  await expect(page).toHaveURL('/');
  await expect(page.getByText('Signed in successfully')).toBeVisible();

  // Turning it off asks for a code too.
  await page.goto('/user/twoFactor');
  await expect(page.getByText('Two-factor authentication is on', { exact: true })).toBeVisible();
  await page.getByLabel('Authenticator code').fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText('Two-factor authentication is off', { exact: true })).toBeVisible();
  await signOutThroughEngine(page);
});

test('phone sign-up without SMS uses the image captcha, with a refresh cooldown', async ({ page }) => {
  // This brand lets people sign up by phone without SMS verification.
  await page.route('**/v1/wa-na/system/systemConfig/getAllConfigStatusWeb', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { code: number; msg: string; data: { items: { name: string; enable: boolean }[] } };
    const overrides: Record<string, boolean> = { PHONE_REGISTER: true, PHONE_REGISTER_SMS_VERIFICATION: false, hideRegisterInviteCode: true };
    const items = body.data.items.filter((item) => !(item.name in overrides));
    for (const [name, enable] of Object.entries(overrides)) items.push({ name, enable });
    await route.fulfill({ response, json: { ...body, data: { items } } });
  });

  await page.goto('/login');
  await page.getByRole('button', { name: 'Phone', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Country or region' })).toHaveValue('US');
  await screen(page, 'login-phone');

  await page.goto('/register');
  await page.getByRole('button', { name: 'Phone', exact: true }).click();
  await page.getByLabel('Phone', { exact: true }).fill('12');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter a valid phone number for the chosen country' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Country or region' }).selectOption('GB');
  await page.getByLabel('Phone', { exact: true }).fill('07400 123456');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Signing up as +44 7400 123456')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Characters to type' })).toBeVisible();
  await expect(page.getByLabel('Invitation code (optional)')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show another image' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Too many requests, please try again in [1-3] s/ })).toBeVisible();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter the characters shown in the image' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'The password must be more than six characters' })).toBeVisible();
  await screen(page, 'register-captcha');
});
