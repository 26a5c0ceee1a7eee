import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { totpCode } from '../../server/auth/totp';
import { minimumDepositUsd } from '../../src/shared/money/deposit-rules';
import { formatMoney, money } from '../../src/shared/money/money';

interface EngineHandle {
  signIn(tokens: { token: string; refreshToken: string }): Promise<unknown>;
  signOut(reason: string): Promise<unknown>;
}

let accounts = 0;

/** The latest code the development outbox holds for an address or a phone number (it goes out after the answer: waited for). */
export async function outboxCode(page: Page, to: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const outbox = (await (await page.request.get(`/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { code?: string }[];
      return (code = outbox.filter((message) => message.code).at(-1)?.code);
    })
    .toMatch(/^\d{6}$/);
  return code ?? '';
}

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
  const code = await outboxCode(page, email);
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
  // A screen, or the desktop frame, whose code is still on its way shows a loading frame (a .page too).
  await expect(page.locator('.screen-loading')).toHaveCount(0);
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

/**
 * On the place form of a demo account (100,000 virtual): buys 0.10 lots as a user does, reads
 * the order number the confirmation names, and opens its position from there; answers the number.
 */
export async function buyFromPlaceFormAndViewPosition(page: Page): Promise<string> {
  await expect(page.getByTestId('place-available')).toHaveText('100,000.00');
  const volume = page.getByLabel('Volume (lots)');
  await volume.fill('0.10');
  await volume.blur();
  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  const placed = page.getByRole('region', { name: 'Order placed' });
  await expect(placed.getByTestId('placed-order')).toHaveText(/^\d{16}$/);
  const orderNo = (await placed.getByTestId('placed-order').textContent()) ?? '';
  await placed.getByRole('button', { name: 'View position' }).click();
  await expect(page).toHaveURL(/\/position$/);
  return orderNo;
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

const e2eDataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';

/** A staff member scripts/e2e-finance-staff.ts made for this run: the one-time password and the authenticator's otpauth URL. */
export interface StaffCredentials {
  email: string;
  oneTimePassword: string;
  otpauthUrl: string;
}

/** The staff member of that name in the run's `finance-staff.json`. */
export function e2eStaffMember(name: string): StaffCredentials {
  const all = JSON.parse(fs.readFileSync(path.join(e2eDataDir, 'finance-staff.json'), 'utf8')) as Record<string, StaffCredentials>;
  const member = all[name];
  if (!member) throw new Error(`no staff member "${name}" in finance-staff.json`);
  return member;
}

/** The member's current authenticator code. */
export function staffTotp(member: StaffCredentials): string {
  return totpCode(new URL(member.otpauthUrl).searchParams.get('secret') ?? '', Date.now());
}

/** When a JWT access token expires, in ms (its `exp` claim); the tests read it to refresh in time. */
function accessTokenExpiresAtMs(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
  return payload.exp * 1000;
}

/**
 * A staff member's API token: signed in once per run (the one-time password, the
 * authenticator's code, the forced password change) and kept in the data dir with its refresh
 * token, since a TOTP step is accepted only once. A run outlasts an access token (15 min), so a
 * token within two minutes of its end is rotated through `staff/refresh`, as the console does.
 */
export async function staffApiToken(page: Page, name: string, newPassword: string): Promise<string> {
  const sessionFile = path.join(e2eDataDir, `${name}-session.json`);
  if (fs.existsSync(sessionFile)) {
    const kept = JSON.parse(fs.readFileSync(sessionFile, 'utf8')) as { token: string; refreshToken: string };
    if (accessTokenExpiresAtMs(kept.token) - Date.now() > 120_000) return kept.token;
    const refreshed = (await (await page.request.post('/v1/staff/refresh', { data: { refreshToken: kept.refreshToken } })).json()) as {
      code: number;
      msg: string;
      data: { token: string; refreshToken: string };
    };
    expect(refreshed.code, `staff refresh: ${refreshed.msg}`).toBe(0);
    fs.writeFileSync(sessionFile, JSON.stringify(refreshed.data));
    return refreshed.data.token;
  }
  const member = e2eStaffMember(name);
  const login = (await (await page.request.post('/v1/staff/login', { data: { email: member.email, password: member.oneTimePassword, code: staffTotp(member) } })).json()) as {
    code: number;
    msg: string;
    data: { token: string; refreshToken: string };
  };
  expect(login.code, `staff login: ${login.msg}`).toBe(0);
  const changed = await callApi(page, '/v1/staff/password', login.data.token, { oldPassword: member.oneTimePassword, newPassword });
  expect(changed.code).toBe(0);
  fs.writeFileSync(sessionFile, JSON.stringify({ token: login.data.token, refreshToken: login.data.refreshToken }));
  return login.data.token;
}

/** The admin who changes the brand's switches for a test (made by scripts/e2e-finance-staff.ts for the loan spec first). */
const switchAdminToken = (page: Page) => staffApiToken(page, 'loan-admin', 'loan admin horse battery 7');

/** Turns one of the brand's switches on or off through the back office, as an operator would. */
export async function setBrandSwitch(page: Page, name: string, enable: boolean) {
  const answer = await callApi(page, '/v1/staff/config/setSwitch', await switchAdminToken(page), { name, enable });
  expect(answer.code, `setSwitch ${name}: ${JSON.stringify(answer.data)}`).toBe(0);
}

/** The finance member who approves the deposits that fund test accounts. */
const fundingReviewerToken = (page: Page) => staffApiToken(page, 'funding', 'funding horse battery 7');
/** The second funding approver, for a deposit four-eyes asks two of (FOUR_EYES_USD or more in 24 hours). */
const secondFundingReviewerToken = (page: Page) => staffApiToken(page, 'funding-b', 'funding horse battery 7');
/** The compliance member who approves the browser tests' junior verifications (a withdrawal needs one). */
const verificationReviewerToken = (page: Page) => staffApiToken(page, 'compliance-funding', 'compliance horse battery 7');

/** The customer's junior verification, submitted and approved by compliance: what a real-money withdrawal needs by default. */
export async function verifyJunior(page: Page, token: string) {
  const user = (await callApi(page, '/v1/waa/user/info', token)).data as { uid: number };
  const submitted = await idempotentCall(page, '/v1/waa/user/firstAuth/submit', token, { realName: 'Mina Park', idCard: `J-${user.uid}-${crypto.randomInt(1_000_000, 9_999_999)}`, locale: 'en' });
  expect(submitted.code, `firstAuth/submit: ${submitted.msg}`).toBe(0);
  const reviewer = await verificationReviewerToken(page);
  const queue = (await callApi(page, '/v1/staff/reviews/list', reviewer, { kind: 'juniorIdentity', status: 'pending', page: 1, limit: 50 })).data as { list: { id: number; uid: number }[] };
  const item = queue.list.find((entry) => entry.uid === user.uid);
  expect(item, 'the junior verification waits in the compliance queue').toBeDefined();
  const approved = await callApi(page, '/v1/staff/reviews/decide', reviewer, { kind: 'juniorIdentity', id: item!.id, decision: 'approve', requestId: crypto.randomUUID() });
  expect(approved.data).toEqual({ status: 'approved' });
}

/** A second finance member's approval of the customer's item that awaits one (four-eyes), through the back office's API. */
export async function approveAsSecondFinance(page: Page, uid: number, kind: 'deposit' | 'withdrawal') {
  const reviewer = await secondFundingReviewerToken(page);
  const queue = (await callApi(page, '/v1/staff/reviews/list', reviewer, { kind, status: 'awaiting_second', page: 1, limit: 50 })).data as { list: { id: number; uid: number }[] };
  const item = queue.list.find((entry) => entry.uid === uid);
  expect(item, `the ${kind} awaits a second approval`).toBeDefined();
  const approved = await callApi(page, '/v1/staff/reviews/decide', reviewer, { kind, id: item!.id, decision: 'approve', requestId: crypto.randomUUID() });
  expect(approved.data).toEqual({ status: 'approved' });
}

/** The support member who sends notices to customers. */
export const noticeSenderToken = (page: Page) => staffApiToken(page, 'notices', 'notice horse battery 7');

/**
 * A staff member signed in to the console in a desktop window of their own: the
 * authenticator's code, then the forced change to their own password.
 */
export async function signInToConsole(browser: Browser, member: StaffCredentials, newPassword: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/staff/');
  await page.getByLabel('E-mail').fill(member.email);
  await page.getByLabel('Password').fill(member.oneTimePassword);
  await page.getByLabel('Authenticator code').fill(staffTotp(member));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Choose your own password' })).toBeVisible();
  await page.getByLabel('Current password').fill(member.oneTimePassword);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('New password again').fill(newPassword);
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${member.email}` })).toBeVisible();
  return { context, page };
}

/** A money call with a fresh Idempotency-Key, as the app sends it. */
async function idempotentCall(page: Page, apiPath: string, token: string, data: unknown) {
  const response = await page.request.post(apiPath, { data, headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() } });
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

/**
 * Funds a customer's real trading account with exactly `amount` USD the way the product does: a
 * USDT deposit with a small proof image, approved by the funding finance member, then a transfer
 * of `amount` USDT from the wallet into the trading account (USDT is pegged to the USD without a
 * transfer fee, which the quote confirms). The deposit is made in German, whose minimum (30) is
 * the lowest; a smaller amount leaves the rest in the USDT wallet.
 */
export async function fundTradingAccount(page: Page, token: string, amount: string) {
  const wanted = money(amount);
  const minimum = money(minimumDepositUsd('de'));
  const deposit = formatMoney(wanted > minimum ? wanted : minimum);
  const user = (await callApi(page, '/v1/waa/user/info', token)).data as { uid: number };
  const networks = ((await callApi(page, '/v1/waa/wallet/coinNetworks', token)).data as { dtoList: { id: number; currencyId: number; currency: string; protocol: string; said: string }[] }).dtoList;
  const coin = networks.find((network) => network.currency === 'USDT' && network.protocol === 'TRC20')!;
  const proof = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer();
  const submitted = (await (
    await page.request.post('/v1/waa/deposit/submit', {
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
      multipart: {
        metaData: JSON.stringify({ coinId: coin.id, said: coin.said, locale: 'de', amt: deposit }),
        depositProof: { name: 'transfer.png', mimeType: 'image/png', buffer: proof },
      },
    })
  ).json()) as { code: number; msg: string };
  expect(submitted.code, `deposit/submit: ${submitted.msg}`).toBe(0);

  const reviewer = await fundingReviewerToken(page);
  const queue = (await callApi(page, '/v1/staff/reviews/list', reviewer, { kind: 'deposit', status: 'pending', page: 1, limit: 50 })).data as { list: { id: number; uid: number }[] };
  const item = queue.list.find((entry) => entry.uid === user.uid);
  expect(item, 'the funding deposit waits in the finance queue').toBeDefined();
  const approved = await callApi(page, '/v1/staff/reviews/decide', reviewer, { kind: 'deposit', id: item!.id, decision: 'approve', requestId: crypto.randomUUID() });
  expect(approved.code).toBe(0);
  if ((approved.data as { status: string }).status === 'awaiting_second') {
    const second = await callApi(page, '/v1/staff/reviews/decide', await secondFundingReviewerToken(page), { kind: 'deposit', id: item!.id, decision: 'approve', requestId: crypto.randomUUID() });
    expect(second.data).toEqual({ status: 'approved' });
  }

  const transfer = { curr: 'USDT', currId: coin.currencyId, type: 0, num: amount };
  const quote = (await callApi(page, '/v1/waa/wallet/transformCalculate', token, transfer)).data as { fee: string; practical: string };
  expect(money(quote.practical), 'USDT moves into the trading account one to one').toBe(wanted);
  const moved = await idempotentCall(page, '/v1/waa/wallet/transform', token, { ...transfer, ...quote });
  expect(moved.code, `wallet/transform: ${moved.msg}`).toBe(0);
}

/** A price as the app shows it in English: grouped, at its digits (the rows' one formatter). */
export function shownPrice(value: string, digits = (value.split('.')[1] ?? '').length): string {
  return Number(value).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
