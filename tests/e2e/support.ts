import { expect, type Page } from '@playwright/test';

interface EngineHandle {
  signIn(tokens: { token: string; refreshToken: string }): Promise<unknown>;
  signOut(reason: string): Promise<unknown>;
}

let accounts = 0;

/**
 * A real account and session: signs up by e-mail through the API (the code read from
 * the dev outbox) and signs in, answering the tokens the server issued.
 */
export async function createSession(page: Page): Promise<{ email: string; password: string; token: string; refreshToken: string }> {
  const email = `e2e-${Date.now().toString(36)}-${(accounts += 1)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'e2e password 1';
  const api = page.request;
  const envelope = async (path: string, data: unknown) => {
    const answer = (await (await api.post(path, { data })).json()) as { code: number; msg: string; data: unknown };
    expect(answer.code, `${path}: ${answer.msg}`).toBe(0);
    return answer.data;
  };
  await envelope('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
  // The code goes out after the answer: wait until the outbox has it.
  let code: string | undefined;
  await expect
    .poll(async () => {
      const outbox = (await (await api.get(`/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { code?: string }[];
      return (code = outbox.filter((message) => message.code).at(-1)?.code);
    })
    .toMatch(/^\d{6}$/);
  await envelope('/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
  const tokens = (await envelope('/v1/wa-na/login', { username: email, password, type: 'E' })) as { token: string; refreshToken: string };
  return { email, password, ...tokens };
}

/** Signs the browser in through the data engine with a real session, as the sign-in screen does once it succeeds. */
export async function signInThroughEngine(page: Page): Promise<{ email: string; uid: number }> {
  const session = await createSession(page);
  await page.waitForFunction(() => '__tradeweb' in window);
  const snapshot = (await page.evaluate(
    (tokens) => (window as unknown as { __tradeweb: { engine: EngineHandle } }).__tradeweb.engine.signIn(tokens),
    { token: session.token, refreshToken: session.refreshToken },
  )) as { uid: number };
  return { email: session.email, uid: snapshot.uid };
}

export async function signOutThroughEngine(page: Page) {
  await page.evaluate(() =>
    (window as unknown as { __tradeweb: { engine: EngineHandle } }).__tradeweb.engine.signOut('logout'),
  );
}

export function isDesktop(page: Page): boolean {
  return (page.viewportSize()?.width ?? 0) >= 992;
}

/** The app has booted when a page (or the desktop workspace) is on screen. */
export async function waitForApp(page: Page) {
  await expect(page.locator('.page-header, .page, .workspace').first()).toBeVisible();
}

/**
 * BTCUSDT's live price where the start page shows it: the hot card's sell price on
 * phones, the chart panel's price on the desktop workspace (BTCUSDT by default).
 */
export function startPagePrice(page: Page) {
  return isDesktop(page) ? page.getByRole('region', { name: 'Bitcoin' }).getByTestId('chart-price') : page.getByTestId('bid-BTCUSDT');
}

/** Adopts tokens in this tab's engine (every tab follows), as the sign-in screen does. */
export async function adoptTokens(page: Page, tokens: { token: string; refreshToken: string }) {
  await page.waitForFunction(() => '__tradeweb' in window);
  await page.evaluate((given) => (window as unknown as { __tradeweb: { engine: EngineHandle } }).__tradeweb.engine.signIn(given), tokens);
}

/** A signed-in call through the page's request context, answering the envelope. */
export async function callApi(page: Page, path: string, token: string, data: unknown = {}) {
  return (await (await page.request.post(path, { data, headers: { authorization: `Bearer ${token}` } })).json()) as { code: number; data: unknown };
}

/** A new account switched to its demo account (100,000 virtual), adopted by the engine. */
export async function demoSession(page: Page): Promise<{ token: string; refreshToken: string }> {
  const session = await createSession(page);
  const switched = await callApi(page, '/v1/waa/user/switch', session.token);
  expect(switched.code).toBe(0);
  const tokens = switched.data as { token: string; refreshToken: string };
  await adoptTokens(page, tokens);
  return tokens;
}

/**
 * On /position: the order's profit shows and moves with the price (crypto quotes round the
 * clock), then the order is closed from its drawer with the confirmation.
 */
export async function expectMovingProfitThenClose(page: Page, orderNo: string) {
  const pnl = page.getByTestId(new RegExp(`^(grid-)?pnl-${orderNo}$`));
  await expect(pnl).toHaveText(/^-?[\d,]+\.\d{2,8}$/);
  const first = await pnl.textContent();
  await expect(pnl).not.toHaveText(first ?? '', { timeout: 20_000 });
  await page.getByRole(isDesktop(page) ? 'row' : 'button', { name: new RegExp(orderNo) }).click();
  await page.getByRole('dialog', { name: /Order details/ }).getByRole('button', { name: 'Close position' }).click();
  await page.getByRole('dialog', { name: 'Close position' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Operation successful')).toBeVisible();
}

/** A history entry: a list row's button on phones, a grid row on desktop. */
export function historyEntry(page: Page, orderNo: string) {
  return page.getByRole(isDesktop(page) ? 'row' : 'button', { name: new RegExp(orderNo) });
}

/** A demo order placed through the API (market BTCUSDT 0.01 unless overridden); its number. */
export async function placeDemo(page: Page, token: string, order: Record<string, unknown>): Promise<string> {
  const answer = await callApi(page, '/exchange/addOrderMock', token, {
    tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: crypto.randomUUID(), ...order,
  });
  expect(answer.code).toBe(0);
  return answer.data as string;
}
