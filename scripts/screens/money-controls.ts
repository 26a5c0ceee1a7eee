// Screenshots of issue 31's money-control screens, as a trader and an operator see them: every
// screen at 390×844, 360×640, 1280×720 and 1440×900, in English, German, Japanese and Thai, light
// and dark, written to .tmp/screens/money/<screen>-<w>x<h>-<lang>-<theme>.png, with contact sheets
// (ImageMagick `montage`) in .tmp/screens/money/sheets/. Not a test: it asserts nothing, it shows.
//
//   node_modules/.bin/vite build --logLevel warn
//   npx tsx scripts/screens/money-controls.ts
//
// It starts scripts/e2e-server.mjs as the browser tests do (the built app, a fresh embedded
// database, the staff it makes, codes from the dev outbox) with the withdrawals' cooling-off put
// back (E2E_WITHDRAWAL_HOLD_SECONDS), and sets the language and the colour scheme the app's own
// way: its stored preferences (src/app/preferences/preferences.ts), read by the app and the
// console at start. Narrower runs: SCREENS=withdraw-hold,staff-proposals SIZES=390x844
// LANGS=th THEMES=dark; PORT (8401: the server uses it, +1 and +2), CHROMIUM_PATH.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { totpCode } from '../../server/auth/totp';
import { encodeField } from '../../src/shared/money/encoded-field';
import { readAccessToken } from '../../src/shared/session/token';

const port = Number(process.env.PORT ?? 8401);
const base = `http://localhost:${port}`;
const dataDir = `.tmp/e2e-data-screens-${port}`;
const outDir = '.tmp/screens/money';
/** The cooling-off of this run: long enough for a hold to show, short enough that the accounts made first are past theirs later. */
const holdSeconds = 240;

const allSizes = [
  { width: 390, height: 844, phone: true },
  { width: 360, height: 640, phone: true },
  { width: 1280, height: 720, phone: false },
  { width: 1440, height: 900, phone: false },
];
const allLanguages = ['en', 'de', 'ja', 'th'] as const;
const allThemes = ['light', 'dark'] as const;
type Language = (typeof allLanguages)[number];
type Theme = (typeof allThemes)[number];
type Size = (typeof allSizes)[number];

const chosen = (name: string) => process.env[name]?.split(',').map((value) => value.trim()).filter(Boolean) ?? null;
const sizes = allSizes.filter((size) => chosen('SIZES')?.includes(`${size.width}x${size.height}`) ?? true);
const languages = allLanguages.filter((language) => chosen('LANGS')?.includes(language) ?? true);
const themes = allThemes.filter((theme) => chosen('THEMES')?.includes(theme) ?? true);
const wanted = (screen: string) => chosen('SCREENS')?.includes(screen) ?? true;

// ── The server and its API ─────────────────────────────────────────────────────────────

function startServer(): ChildProcess {
  const server = spawn('node', ['scripts/e2e-server.mjs'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), JWT_SECRET: 'e2e-only-signing-key-not-a-secret-0123456789', E2E_DATA_DIR: dataDir, E2E_WITHDRAWAL_HOLD_SECONDS: String(holdSeconds) },
  });
  // A server gone mid-run fails every later shot: say when and how it went.
  server.on('exit', (code, signal) => process.stderr.write(`e2e-server exited (code ${code}, signal ${signal}) at ${new Date().toISOString()}\n`));
  return server;
}

async function waitForHealth() {
  for (let attempt = 0; attempt < 360; attempt += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(500);
  }
  throw new Error('the server did not start');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

async function post<T = unknown>(apiPath: string, data: unknown, token?: string, headers: Record<string, string> = {}): Promise<Envelope<T>> {
  const response = await fetch(`${base}${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(data),
  });
  return (await response.json()) as Envelope<T>;
}

async function call<T = unknown>(apiPath: string, data: unknown, token?: string, headers: Record<string, string> = {}): Promise<T> {
  const answer = await post<T>(apiPath, data, token, headers);
  if (answer.code !== 0) throw new Error(`${apiPath}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

const moneyCall = <T = unknown>(apiPath: string, data: unknown, token: string) => call<T>(apiPath, data, token, { 'idempotency-key': crypto.randomUUID() });

async function outbox(to: string): Promise<{ code?: string; purpose?: string }[]> {
  return (await (await fetch(`${base}/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { code?: string; purpose?: string }[];
}

async function outboxCode(to: string, pattern: RegExp, purpose?: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const code = (await outbox(to)).filter((message) => message.code && pattern.test(message.code) && (!purpose || message.purpose === purpose)).at(-1)?.code;
    if (code) return code;
    await sleep(100);
  }
  throw new Error(`no code reached ${to}`);
}

// ── Customers ──────────────────────────────────────────────────────────────────────────

interface Tokens {
  token: string;
  refreshToken: string;
}
interface Customer {
  email: string;
  password: string;
  uid: number;
  /** The session the set-up calls use. */
  tokens: Tokens;
  /** Sessions made before the authenticator was turned on (a sign-in then needs its code, one per 30 s), one per browser context. */
  spareSessions?: Tokens[];
}

let accountCount = 0;
async function signUp(label: string): Promise<Customer> {
  const email = `screens-${label}-${Date.now().toString(36)}-${(accountCount += 1)}@example.com`;
  const password = 'screens password 1';
  await call('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
  const code = await outboxCode(email, /^\d{6}$/);
  await call('/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
  const tokens = await call<Tokens>('/v1/wa-na/login', { username: email, password, type: 'E' });
  const { uid } = await call<{ uid: number }>('/v1/waa/user/info', {}, tokens.token);
  return { email, password, uid, tokens };
}

/** A session of its own for one browser context (each context's engine refreshes its own family). */
const signInAgain = async (customer: Customer) => customer.spareSessions?.pop() ?? call<Tokens>('/v1/wa-na/login', { username: customer.email, password: customer.password, type: 'E' });

const staffPasswords = 'screens horse battery 7';
const staffTokens = new Map<string, Tokens>();
interface StaffMember {
  email: string;
  oneTimePassword: string;
  otpauthUrl: string;
}
const staffMembers = (): Record<string, StaffMember> => JSON.parse(fs.readFileSync(path.join(dataDir, 'finance-staff.json'), 'utf8')) as Record<string, StaffMember>;

/** A staff member of finance-staff.json signed in once (their code, then their own password): the tokens. */
async function staffSignIn(name: string): Promise<Tokens> {
  const known = staffTokens.get(name);
  if (known) return known;
  const member = staffMembers()[name];
  if (!member) throw new Error(`no staff member ${name}`);
  const code = totpCode(new URL(member.otpauthUrl).searchParams.get('secret') ?? '', Date.now());
  const tokens = await call<Tokens>('/v1/staff/login', { email: member.email, password: member.oneTimePassword, code });
  await call('/v1/staff/password', { oldPassword: member.oneTimePassword, newPassword: staffPasswords }, tokens.token);
  staffTokens.set(name, tokens);
  return tokens;
}

/** A finance member invited and enrolled through the API who has declared nothing yet, signed in once: kept as 'undeclared'. */
async function undeclaredMember(): Promise<Tokens> {
  const known = staffTokens.get('undeclared');
  if (known) return known;
  const email = `screens-undeclared-${crypto.randomBytes(4).toString('hex')}@e2e.example`;
  await call('/v1/staff/staff/create', { email, roles: ['finance'] }, (await staffSignIn('enrol-admin')).token);
  const token = new URL(await outboxCode(email, /\/staff\/enrol#/, 'staff invitation')).hash.slice(1);
  const { otpauthUrl } = await call<{ otpauthUrl: string }>('/v1/staff/enrol', { token, password: staffPasswords });
  const secret = new URL(otpauthUrl).searchParams.get('secret') ?? '';
  await call('/v1/staff/enrol/confirm', { token, code: totpCode(secret, Date.now()) });
  const tokens = await call<Tokens>('/v1/staff/login', { email, password: staffPasswords, code: totpCode(secret, Date.now() + 30_000) });
  staffTokens.set('undeclared', tokens);
  return tokens;
}

async function decideReview(memberName: string, kind: string, uid: number, status: string) {
  const { token } = await staffSignIn(memberName);
  const queue = await call<{ list: { id: number; uid: number }[] }>('/v1/staff/reviews/list', { kind, status, page: 1, limit: 50 }, token);
  const item = queue.list.find((entry) => entry.uid === uid);
  if (!item) throw new Error(`no ${status} ${kind} of ${uid}`);
  return call<{ status: string }>('/v1/staff/reviews/decide', { kind, id: item.id, decision: 'approve', requestId: crypto.randomUUID() }, token);
}

async function verifyJunior(customer: Customer) {
  await moneyCall('/v1/waa/user/firstAuth/submit', { realName: 'Mina Park', idCard: `J-${customer.uid}-${crypto.randomInt(1_000_000, 9_999_999)}`, locale: 'en' }, customer.tokens.token);
  await decideReview('compliance-funding', 'juniorIdentity', customer.uid, 'pending');
}

interface Network {
  id: number;
  currencyId: number;
  currency: string;
  protocol: string;
  said: string;
}
async function usdtTrc20(customer: Customer): Promise<Network> {
  const networks = (await call<{ dtoList: Network[] }>('/v1/waa/wallet/coinNetworks', {}, customer.tokens.token)).dtoList;
  const found = networks.find((network) => network.currency === 'USDT' && network.protocol === 'TRC20');
  if (!found) throw new Error('no USDT · TRC20 network');
  return found;
}

const proofImage = () => sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer();

/** A USDT deposit into the wallet, with a proof image; approved by one finance member, or two when four-eyes asks. */
async function deposit(customer: Customer, amount: string, approvals: 0 | 1 | 2) {
  const coin = await usdtTrc20(customer);
  const form = new FormData();
  form.append('metaData', JSON.stringify({ coinId: coin.id, said: coin.said, locale: 'de', amt: amount }));
  form.append('depositProof', new Blob([await proofImage()], { type: 'image/png' }), 'transfer.png');
  const answer = (await (await fetch(`${base}/v1/waa/deposit/submit`, { method: 'POST', headers: { authorization: `Bearer ${customer.tokens.token}`, 'idempotency-key': crypto.randomUUID() }, body: form })).json()) as Envelope;
  if (answer.code !== 0) throw new Error(`deposit/submit: ${answer.code} ${answer.msg}`);
  if (approvals >= 1) await decideReview('funding', 'deposit', customer.uid, 'pending');
  if (approvals === 2) await decideReview('funding-b', 'deposit', customer.uid, 'awaiting_second');
}

const aesKeyOf = (tokens: Tokens) => readAccessToken(tokens.token)?.aesKey ?? '';

/** A TRON address (base58check of 0x41 and 20 random bytes): valid on TRC20, new each time. */
function tronAddress(): string {
  const payload = Buffer.concat([Buffer.from([0x41]), crypto.randomBytes(20)]);
  const checksum = crypto.createHash('sha256').update(crypto.createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  let value = BigInt(`0x${Buffer.concat([payload, checksum]).toString('hex')}`);
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text;
}

async function saveAddress(customer: Customer, address = tronAddress()) {
  const coin = await usdtTrc20(customer);
  await moneyCall('/v1/waa/wallet/crypto/insert', { currencyId: coin.id, cryptocurrencyAddress: encodeField(address, aesKeyOf(customer.tokens)) }, customer.tokens.token);
  return address;
}

async function saveCard(customer: Customer, card: { bankName: string; name: string; account: string; phone: string }) {
  const key = aesKeyOf(customer.tokens);
  await moneyCall('/v1/waa/bankCard/insert', { bankName: card.bankName, name: encodeField(card.name, key), account: encodeField(card.account, key), phoneNumber: encodeField(card.phone, key) }, customer.tokens.token);
}

/** The authenticator turned on for the customer: answers its secret. */
async function enableSecondFactor(customer: Customer): Promise<string> {
  const { secret } = await call<{ secret: string }>('/v1/waa/user/twoFactor/setup', {}, customer.tokens.token);
  await call('/v1/waa/user/twoFactor/enable', { code: totpCode(secret, Date.now()) }, customer.tokens.token);
  return secret;
}

/** Wrong passwords from elsewhere until the account is held back for a new browser (1033 for the right password). */
async function holdBack(customer: Customer) {
  for (let tries = 0; tries < 30; tries += 1) {
    await post('/v1/wa-na/login', { username: customer.email, password: 'wrong password', type: 'E' });
    if (tries >= 11) {
      const right = await post('/v1/wa-na/login', { username: customer.email, password: customer.password, type: 'E' });
      if (right.code === 1033) return;
    }
  }
  throw new Error('the account is not held back');
}

// ── The browser ────────────────────────────────────────────────────────────────────────

async function newContext(browser: Browser, size: Size): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: base,
    viewport: { width: size.width, height: size.height },
    ...(size.phone ? { isMobile: true, hasTouch: true } : {}),
    locale: 'en-US',
    timezoneId: 'Europe/Berlin',
  });
}

/** The app's stored preferences (idb-keyval: database and store as preferences.ts names them), changed as its pickers change them. */
async function choosePreferences(page: Page, language: Language, theme: Theme) {
  await page.evaluate(
    async ({ language, theme }) => {
      const open = indexedDB.open('tradeweb-preferences');
      open.onupgradeneeded = () => open.result.createObjectStore('preferences');
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const store = db.transaction('preferences', 'readwrite').objectStore('preferences');
      const current = await new Promise<Record<string, unknown> | undefined>((resolve) => {
        const read = store.get('preferences');
        read.onsuccess = () => resolve(read.result as Record<string, unknown> | undefined);
      });
      await new Promise<void>((resolve, reject) => {
        const write = store.put({ ...(current ?? {}), language, colourScheme: theme }, 'preferences');
        write.onsuccess = () => resolve();
        write.onerror = () => reject(write.error);
      });
      db.close();
    },
    { language, theme },
  );
}

async function expectShown(page: Page, language: Language, theme: Theme) {
  await page.waitForFunction(({ language, theme }) => document.documentElement.lang === language && document.documentElement.dataset.scheme === theme, { language, theme }, { timeout: 20_000 });
  await page.locator('.screen-loading').waitFor({ state: 'detached', timeout: 20_000 }).catch(() => undefined);
}

async function settle(page: Page) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await sleep(400);
}

const written: string[] = [];
async function shoot(page: Page, screen: string, size: Size, language: Language, theme: Theme) {
  await settle(page);
  const file = path.join(outDir, `${screen}-${size.width}x${size.height}-${language}-${theme}.png`);
  await page.screenshot({ path: file });
  written.push(file);
}

/** A screen shot in every chosen language and scheme, in one context per size: `open` loads and prepares it (the preferences are set before). */
interface Screen {
  name: string;
  /** What the context needs once (a signed-in customer, a staff session). */
  prepare?: (page: Page, size: Size) => Promise<void>;
  /** Before each size's shots (a fresh hold, a held-back account). */
  beforeSize?: () => Promise<void>;
  open: (page: Page, language: Language, theme: Theme) => Promise<void>;
  /** The page the preferences are written on (same origin): '/' unless the screen says otherwise. */
  home?: string;
  /** Fewer sizes or languages than the run's (a step the server lets one address reach only so often). */
  only?: { sizes?: readonly Size[]; languages?: readonly Language[] };
}

async function runScreen(browser: Browser, screen: Screen) {
  if (!wanted(screen.name)) return;
  for (const size of sizes.filter((candidate) => screen.only?.sizes?.includes(candidate) ?? true)) {
    await screen.beforeSize?.();
    const context = await newContext(browser, size);
    const page = await context.newPage();
    try {
      await page.goto(screen.home ?? '/');
      await screen.prepare?.(page, size);
      for (const language of languages.filter((candidate) => screen.only?.languages?.includes(candidate) ?? true)) {
        for (const theme of themes) {
          try {
            await page.goto(screen.home ?? '/');
            await choosePreferences(page, language, theme);
            await screen.open(page, language, theme);
            await expectShown(page, language, theme);
            await shoot(page, screen.name, size, language, theme);
          } catch (error) {
            process.stderr.write(`${screen.name} ${size.width}x${size.height} ${language} ${theme}: ${(error as Error).message.split('\n')[0]}\n`);
            await page.screenshot({ path: path.join(outDir, 'failed', `${screen.name}-${size.width}x${size.height}-${language}-${theme}.png`) }).catch(() => undefined);
          }
        }
      }
    } finally {
      await context.close();
    }
  }
  process.stdout.write(`shot ${screen.name}\n`);
}

/** Signs the context's engine in with a session of its own, as the sign-in screen does. */
function signedIn(customer: () => Customer) {
  return async (page: Page) => {
    const tokens = await signInAgain(customer());
    await page.waitForFunction(() => '__tradeweb' in window);
    await page.evaluate((given) => (window as unknown as { __tradeweb: { engine: { signIn(tokens: unknown): Promise<unknown> } } }).__tradeweb.engine.signIn(given), tokens);
  };
}

/** The console signed in as a staff member: their tokens in this tab's sessionStorage, as the console keeps them. */
function staffSignedIn(name: string) {
  return async (page: Page) => {
    const tokens = await staffSignIn(name);
    await page.evaluate((given) => sessionStorage.setItem('tradeweb-staff-tokens', JSON.stringify(given)), tokens);
  };
}

/** After each console page, the tokens it may have refreshed become the member's (a refresh rotates them). */
async function keepStaffTokens(page: Page, name: string) {
  const kept = await page.evaluate(() => sessionStorage.getItem('tradeweb-staff-tokens'));
  if (kept) staffTokens.set(name, JSON.parse(kept) as Tokens);
}

async function openWithdraw(page: Page, amount: string | null) {
  await page.goto('/user/withdraw');
  await page.locator('[data-testid="withdraw-allowance"], [data-testid="withdraw-blocked"]').first().waitFor({ timeout: 20_000 });
  if (amount === null) return;
  await page.getByTestId('withdraw-network-picker').click();
  await page.getByRole('option', { name: 'USDT · TRC20' }).click();
  await page.getByTestId('withdraw-address-picker').waitFor();
  await page.locator('.money-form input[inputmode="decimal"]').fill(amount);
  await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="withdraw-fee"]')?.textContent ?? ''), undefined, { timeout: 20_000 });
}

// ── The run ────────────────────────────────────────────────────────────────────────────

async function main() {
  // A narrower run re-shoots its screens and keeps the others' shots for the sheets.
  if (!chosen('SCREENS')) fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(path.join(outDir, 'failed'), { recursive: true, force: true });
  fs.mkdirSync(path.join(outDir, 'failed'), { recursive: true });
  fs.mkdirSync(path.join(outDir, 'sheets'), { recursive: true });
  const server = startServer();
  const stop = () => server.kill('SIGTERM');
  process.on('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    await waitForHealth();
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

    // Accounts whose cooling-off must be over by the time they are shot: made first.
    const t0 = Date.now();
    const limits = await signUp('limits');
    await verifyJunior(limits);
    await deposit(limits, '900', 1);
    await saveAddress(limits);
    const secondFactor = await signUp('second-factor');
    await verifyJunior(secondFactor);
    await deposit(secondFactor, '900', 1);
    await saveAddress(secondFactor);
    secondFactor.spareSessions = await Promise.all(allSizes.map(() => signInAgain(secondFactor)));
    await enableSecondFactor(secondFactor);
    // The four-eyes queue: a large withdrawal (once its hold is over) and a large deposit, each approved once.
    const large = await signUp('four-eyes');
    await verifyJunior(large);
    await deposit(large, '1500', 2);
    const largeAddress = await saveAddress(large);
    const largeDeposit = await signUp('four-eyes-deposit');
    await deposit(largeDeposit, '1200', 1);
    const smallDeposit = await signUp('one-approver');
    await deposit(smallDeposit, '120', 0);
    const readyAt = t0 + holdSeconds * 1000 + 10_000;

    const hold = await signUp('hold');
    await verifyJunior(hold);
    await deposit(hold, '900', 1);
    const blocked = await signUp('blocked');
    const destinations = await signUp('destinations');
    await saveCard(destinations, { bankName: 'Northwind Bank', name: 'Ada Trader', account: 'GB29NWBK60161331926819', phone: '+447400123456' });
    await saveCard(destinations, { bankName: 'Sparkasse Köln Bonn', name: 'Ada Trader', account: 'DE89370400440532013000', phone: '+4915112345678' });
    await saveAddress(destinations, 'TAzNLU555pAZSmv5NiusS4AihvBgpMwbKY');
    await saveAddress(destinations);
    const depositor = await signUp('deposit');
    const heldBack = await signUp('held-back');

    // Dual control: a limits change proposed by one admin (shown to the other), and one of the viewer's own.
    const proposer = await staffSignIn('proposals-admin');
    const viewer = await staffSignIn('enrol-admin');
    const proposed = (raise: string) => ({
      none: { dailyWithdrawUsd: '1000.00', monthlyWithdrawUsd: '5000.00', depositMaxUsd: '10000.00' },
      junior: { dailyWithdrawUsd: raise, monthlyWithdrawUsd: '50000.00', depositMaxUsd: '100000.00' },
      full: { dailyWithdrawUsd: '100000.00', monthlyWithdrawUsd: '1000000.00', depositMaxUsd: '1000000.00' },
    });
    await call('/v1/staff/config/setLimits', { limits: proposed('20000.00') }, proposer.token);
    await call('/v1/staff/config/setLimits', { limits: proposed('15000.00') }, viewer.token);

    const proofPath = path.join(dataDir, 'proof.png');
    fs.writeFileSync(proofPath, await proofImage());

    const screens: Screen[] = [
      {
        name: 'withdraw-hold',
        // A new destination just now: the hold runs for the whole size's shots.
        beforeSize: async () => void (await saveAddress(hold)),
        prepare: signedIn(() => hold),
        open: async (page) => {
          await openWithdraw(page, '500');
          await page.getByTestId('withdraw-hold').waitFor();
        },
      },
      { name: 'withdraw-blocked', prepare: signedIn(() => blocked), open: (page) => openWithdraw(page, null) },
      {
        name: 'destinations-cards',
        prepare: signedIn(() => destinations),
        open: async (page) => {
          await page.goto('/user/wallet/bankCard');
          await page.getByTestId('bank-card-list').getByText('Northwind Bank').waitFor();
        },
      },
      {
        name: 'destinations-addresses',
        prepare: signedIn(() => destinations),
        open: async (page) => {
          await page.goto('/user/wallet/crypto');
          await page.getByTestId('crypto-wallet-list').getByText('TAzNLU555pAZSmv5NiusS4AihvBgpMwbKY').waitFor();
        },
      },
      {
        name: 'deposit-maximum',
        prepare: signedIn(() => depositor),
        open: async (page) => {
          await page.goto('/user/deposit');
          await page.getByTestId('deposit-step-1').locator('.button.primary').click();
          await page.locator('[data-testid="deposit-step-2"] input[inputmode="decimal"]').fill('25000');
          await page.getByTestId('deposit-proof-input').setInputFiles(proofPath);
          await page.locator('.deposit-proof img').waitFor();
          await page.locator('.deposit-agreement input[type="checkbox"]').check();
          await page.getByTestId('deposit-done').click();
          await page.locator('.toast, [role="alert"]').filter({ hasText: /\d/ }).first().waitFor({ timeout: 15_000 });
        },
      },
      {
        name: 'sign-in-code',
        beforeSize: () => holdBack(heldBack),
        open: async (page) => {
          await page.goto('/login');
          await page.locator('input[type="email"], input[inputmode="email"]').first().fill(heldBack.email);
          await page.locator('input[autocomplete="current-password"]').fill(heldBack.password);
          await page.locator('button[type="submit"]').click();
          await page.locator('input[autocomplete="one-time-code"], .auth-step-title').first().waitFor();
          await page.getByText(heldBack.email, { exact: false }).first().waitFor();
        },
      },
      {
        name: 'staff-enrol',
        home: '/staff/',
        open: async (page) => {
          const email = `screens-support-${crypto.randomBytes(4).toString('hex')}@e2e.example`;
          await call('/v1/staff/staff/create', { email, roles: ['support'] }, (await staffSignIn('enrol-admin')).token);
          const link = new URL(await outboxCode(email, /\/staff\/enrol#/, 'staff invitation'));
          await page.goto(`${link.pathname}${link.hash}`);
          await page.locator('input[type="password"]').first().waitFor();
        },
      },
      {
        name: 'staff-enrol-authenticator',
        home: '/staff/',
        // Each shot spends an invitation's password step, ten an address may take per 15 minutes (LOGIN_ATTEMPTS_PER_15_MIN):
        // the console's sizes, in English and Thai (its own words are English in every language).
        only: { sizes: allSizes.filter((size) => !size.phone), languages: ['en', 'th'] },
        open: async (page) => {
          const email = `screens-support-${crypto.randomBytes(4).toString('hex')}@e2e.example`;
          await call('/v1/staff/staff/create', { email, roles: ['support'] }, (await staffSignIn('enrol-admin')).token);
          const link = new URL(await outboxCode(email, /\/staff\/enrol#/, 'staff invitation'));
          await page.goto(`${link.pathname}${link.hash}`);
          const fields = page.locator('input[type="password"]');
          await fields.nth(0).fill('enrolled horse battery 7');
          await fields.nth(1).fill('enrolled horse battery 7');
          await page.locator('button[type="submit"]').first().click();
          await page.locator('img[src^="data:image/svg"]').waitFor();
        },
      },
      {
        name: 'staff-limits',
        home: '/staff/',
        prepare: staffSignedIn('enrol-admin'),
        open: async (page) => {
          await page.goto('/staff/config?tab=limits');
          await page.getByTestId('limits-junior').waitFor();
          await keepStaffTokens(page, 'enrol-admin');
        },
      },
      {
        name: 'staff-proposals',
        home: '/staff/',
        prepare: staffSignedIn('enrol-admin'),
        open: async (page) => {
          await page.goto('/staff/config?tab=proposals');
          await page.locator('.staff-proposal').first().waitFor();
          await keepStaffTokens(page, 'enrol-admin');
        },
      },
      {
        // A finance member's conflict-of-interest declarations: their document's mask and an account of their own.
        name: 'staff-declarations',
        home: '/staff/',
        prepare: async (page) => {
          await staffSignedIn('loan-desktop-b')(page);
          const { token } = await staffSignIn('loan-desktop-b');
          await call('/v1/staff/me/declareAccount', { uid: limits.uid }, token);
        },
        open: async (page) => {
          await page.goto('/staff/declarations');
          await page.getByRole('cell', { name: String(limits.uid), exact: true }).waitFor();
          await keepStaffTokens(page, 'loan-desktop-b');
        },
      },
      {
        // A member who has declared no document yet: the form, the one thing they can do before deciding.
        name: 'staff-declarations-missing',
        home: '/staff/',
        prepare: async (page) => {
          await undeclaredMember();
          await staffSignedIn('undeclared')(page);
        },
        open: async (page) => {
          await page.goto('/staff/declarations');
          await page.locator('.staff-warning').first().waitFor();
          await keepStaffTokens(page, 'undeclared');
        },
      },
      {
        // The admin's staff list: whose document is declared and which customer accounts are whose.
        name: 'staff-members',
        home: '/staff/',
        prepare: staffSignedIn('enrol-admin'),
        open: async (page) => {
          await page.goto('/staff/staff-members');
          await page.locator('table tbody tr').first().waitFor();
          await keepStaffTokens(page, 'enrol-admin');
        },
      },
      {
        name: 'staff-audit',
        home: '/staff/',
        prepare: staffSignedIn('enrol-admin'),
        open: async (page) => {
          await page.goto('/staff/audit');
          await page.locator('.staff-change-field').first().waitFor();
          await keepStaffTokens(page, 'enrol-admin');
        },
      },
      {
        name: 'staff-four-eyes-deposits',
        home: '/staff/',
        prepare: staffSignedIn('desktop-a'),
        open: async (page) => {
          await page.goto('/staff/queues/deposit');
          await page.locator('table tbody tr').filter({ hasText: String(largeDeposit.uid) }).first().waitFor();
          await keepStaffTokens(page, 'desktop-a');
        },
      },
    ];
    const afterHold: Screen[] = [
      {
        name: 'staff-four-eyes',
        home: '/staff/',
        prepare: staffSignedIn('desktop-a'),
        open: async (page) => {
          await page.goto('/staff/queues/withdrawal');
          await page.locator('table tbody tr').filter({ hasText: String(large.uid) }).first().waitFor();
          await keepStaffTokens(page, 'desktop-a');
        },
      },
      { name: 'withdraw-limits', prepare: signedIn(() => limits), open: (page) => openWithdraw(page, '500') },
      {
        name: 'withdraw-second-factor',
        prepare: signedIn(() => secondFactor),
        open: async (page) => {
          await openWithdraw(page, '500');
          await page.locator('input[autocomplete="one-time-code"]').waitFor();
        },
      },
    ];

    for (const screen of screens) await runScreen(browser, screen);
    if (afterHold.some((screen) => wanted(screen.name))) {
      if (Date.now() < readyAt) process.stdout.write(`waiting ${Math.round((readyAt - Date.now()) / 1000)} s for the first accounts' cooling-off to end\n`);
      await sleep(readyAt - Date.now());
      // The large withdrawal, approved once: it waits for a second finance member.
      const coin = await usdtTrc20(large);
      const quote = await call<{ practical: string }>('/v1/waa/withdraw/walletCalculate', { currencyId: coin.currencyId, coinId: coin.id, num: '1200' }, large.tokens.token);
      await moneyCall('/v1/waa/withdraw/submit', { num: '1200', practicalNum: quote.practical, currencyId: coin.currencyId, coinId: coin.id, paymentAddress: encodeField(largeAddress, aesKeyOf(large.tokens)), locale: 'en' }, large.tokens.token);
      await decideReview('mobile-a', 'withdrawal', large.uid, 'pending');
      for (const screen of afterHold) await runScreen(browser, screen);
    }
    await browser.close();
  } finally {
    stop();
  }
  contactSheets();
  process.stdout.write(`${written.length} screenshots in ${outDir}, contact sheets in ${outDir}/sheets\n`);
}

/** One sheet per screen and layout: the phones' sizes, then the desktop's, each shot labelled by size, language and scheme. */
function contactSheets() {
  const byScreen = new Map<string, string[]>();
  const shots = fs.readdirSync(outDir).filter((name) => name.endsWith('.png')).map((name) => path.join(outDir, name));
  // By size, then language, then scheme: a sheet's rows read as the sizes.
  const rank = (file: string) => {
    const [, width, language, theme] = /-(\d+)x\d+-(\w+)-(\w+)\.png$/.exec(file) ?? [];
    return allSizes.findIndex((size) => String(size.width) === width) * 100 + allLanguages.indexOf(language as Language) * 10 + allThemes.indexOf(theme as Theme);
  };
  shots.sort((a, b) => rank(a) - rank(b));
  for (const file of shots) {
    const screen = path.basename(file).replace(/-\d+x\d+-.*$/, '');
    byScreen.set(screen, [...(byScreen.get(screen) ?? []), file]);
  }
  for (const [screen, files] of byScreen) {
    for (const [layout, phone] of [['phone', true], ['desktop', false]] as const) {
      const shots = files.filter((file) => Number(/-(\d+)x/.exec(file)?.[1]) < 992 === phone);
      if (shots.length === 0) continue;
      const labelled = shots.flatMap((file) => ['-label', path.basename(file, '.png').replace(`${screen}-`, ''), file]);
      const result = spawnSync('montage', [...labelled, '-tile', phone ? '8x' : '4x', '-geometry', phone ? '300x+6+6' : '560x+6+6', '-pointsize', '14', path.join(outDir, 'sheets', `${screen}-${layout}.png`)], { encoding: 'utf8' });
      if (result.status !== 0) process.stderr.write(`montage ${screen}: ${result.stderr}\n`);
    }
  }
}

await main();
