import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { isDesktop } from './support';

/**
 * Finding 5 of issue 31 on the sign-in screen: while an attacker's failures hold an account
 * back, the owner on a browser the account does not know is offered a sign-in code sent to
 * the address, and gets in with it; the browser then carries the account's device cookie.
 */
const password = 'correct horse 7';

function uniqueEmail(testInfo: TestInfo, label: string): string {
  return `${label}-${testInfo.project.name}-${Date.now()}@example.com`;
}

function screen(page: Page, name: string) {
  return page.screenshot({ path: `test-results/screens/sign-in-code-${name}-${isDesktop(page) ? 'desktop' : 'mobile'}.png` });
}

async function envelope(api: APIRequestContext, path: string, data: unknown) {
  return (await (await api.post(path, { data })).json()) as { code: number; msg: string; data: unknown };
}

/** The newest code of one purpose the development outbox holds for an address. */
async function outboxCode(api: APIRequestContext, email: string, pattern: RegExp): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const messages = (await (await api.get(`/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { code?: string }[];
      return (code = messages.filter((message) => message.code && pattern.test(message.code)).at(-1)?.code);
    })
    .toMatch(pattern);
  return code ?? '';
}

/** An account made through the API (its own request context: no cookie of it reaches the browser). */
async function register(api: APIRequestContext, email: string) {
  expect((await envelope(api, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
  const code = await outboxCode(api, email, /^\d{6}$/);
  expect((await envelope(api, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' })).code).toBe(0);
}

/**
 * The attacker: wrong passwords, each as soon as the account's delay lets one through, until
 * the next wait is at least `seconds` (five free failures, then 1 s, 2 s, 4 s … from
 * LOGIN_FAILURES_BEFORE_DELAY's defaults). A refused try is not made: every try counts
 * against the address's window too, which the owner's browser shares here.
 */
async function holdTheAccountBack(api: APIRequestContext, email: string, seconds: number) {
  for (let tries = 0; tries < 20; tries += 1) {
    const answer = await envelope(api, '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' });
    expect(answer.code).toBe(1003);
    if (tries >= 4) {
      const wait = 2 ** (tries - 4);
      if (wait >= seconds) return;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
    }
  }
}

async function chooseThai(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: /^(Language|ภาษา): / }).first().click();
  await page.getByRole('option', { name: 'ไทย' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
}

test('a held-back account: the sign-in screen offers an e-mailed code, and the owner signs in with it', async ({ page, playwright }, testInfo) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const email = uniqueEmail(testInfo, 'held');
  await register(api, email);
  await holdTheAccountBack(api, email, 16);

  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  await expect(page.getByText(`We can send a sign-in code to ${email}`, { exact: false })).toBeVisible();
  // The step is the answer: no toast of the wait ("retry in 16 seconds") says otherwise or covers its buttons.
  await expect(page.getByText(/Requests are too frequent/)).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await screen(page, 'en');

  // Checked before it is sent: eight characters of the code's alphabet.
  await page.getByLabel('Sign-in code', { exact: true }).fill('1234');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Enter the 8 characters of the code we sent')).toBeVisible();

  await page.getByRole('button', { name: 'Send me a sign-in code' }).click();
  await expect(page.getByText(/^Resend in \d+ s$/)).toBeVisible();
  const code = await outboxCode(api, email, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  await page.getByLabel('Sign-in code', { exact: true }).fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  // The browser now carries the account's device cookie: for the sign-in call only, unreadable by scripts.
  const device = (await page.context().cookies()).find((cookie) => cookie.name.startsWith('tw_device_'));
  expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/wa-na/login' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('tw_device_');
  await api.dispose();
});

test('the sign-in code step reads in Thai', async ({ page, playwright }, testInfo) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const email = uniqueEmail(testInfo, 'thai');
  await register(api, email);
  await holdTheAccountBack(api, email, 16);
  await chooseThai(page);
  await page.goto('/login');
  await page.locator('input[type="email"], input[inputmode="email"]').first().fill(email);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('heading', { name: 'ยืนยันว่าเป็นคุณ' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'ส่งรหัสเข้าสู่ระบบให้ฉัน' })).toBeVisible();
  await screen(page, 'th');
  await api.dispose();
});
