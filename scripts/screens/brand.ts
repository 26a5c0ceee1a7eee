// Screenshots of issue 34's white-label screens: the staff console (audit trail, a review queue
// with its status select, a review with its proof image, the staff list) at 1280×720 and
// 1440×900 in German and Japanese, and the example brand (brands/example: its home, sign-in and
// trading rules page) at 390×844, 360×640, 1280×720 and 1440×900 in English, Japanese and German,
// light and dark, into .tmp/screens/brand/<screen>-<w>x<h>-<lang>-<theme>.png. Not a test: it
// asserts nothing, it shows.
//
//   node_modules/.bin/vite build --logLevel warn
//   npx tsx scripts/screens/brand.ts
//
// It starts scripts/e2e-server.mjs as the browser tests do (the built app, a fresh embedded
// database, the staff it makes) and, through it, the example brand's server on PORT+7; the
// language and colour scheme are set the app's own way, its stored preferences
// (src/app/preferences/preferences.ts). Narrower runs: SCREENS=staff-audit,brand-home
// SIZES=390x844 LANGS=ja THEMES=dark; PORT (8241: the server uses it to +9), CHROMIUM_PATH.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { totpCode } from '../../server/auth/totp';

const port = Number(process.env.PORT ?? 8241);
const base = `http://localhost:${port}`;
const brandBase = `http://localhost:${port + 7}`;
const dataDir = `.tmp/e2e-data-screens-brand-${port}`;
const outDir = '.tmp/screens/brand';

interface Size {
  width: number;
  height: number;
  phone: boolean;
}
const phones: Size[] = [
  { width: 390, height: 844, phone: true },
  { width: 360, height: 640, phone: true },
];
const desktops: Size[] = [
  { width: 1280, height: 720, phone: false },
  { width: 1440, height: 900, phone: false },
];
type Language = 'en' | 'de' | 'ja';
type Theme = 'light' | 'dark';

const chosen = (name: string) => process.env[name]?.split(',').map((value) => value.trim()).filter(Boolean) ?? null;
const sizeChosen = (size: Size) => chosen('SIZES')?.includes(`${size.width}x${size.height}`) ?? true;
const languageChosen = (language: Language) => chosen('LANGS')?.includes(language) ?? true;
const themes = (['light', 'dark'] as const).filter((theme) => chosen('THEMES')?.includes(theme) ?? true);
const wanted = (screen: string) => chosen('SCREENS')?.includes(screen) ?? true;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ── The servers and their API ──────────────────────────────────────────────────────────

function startServer(): ChildProcess {
  const server = spawn('node', ['scripts/e2e-server.mjs'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), JWT_SECRET: 'e2e-only-signing-key-not-a-secret-0123456789', E2E_DATA_DIR: dataDir },
  });
  server.on('exit', (code, signal) => process.stderr.write(`e2e-server exited (code ${code}, signal ${signal})\n`));
  return server;
}

async function waitForHealth(origin: string) {
  // Up to ten minutes: on a shared machine under load the first start (staff, seeded bars) takes long.
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    if ((await fetch(`${origin}/healthz`).catch(() => null))?.ok) return;
    await sleep(500);
  }
  throw new Error(`${origin} did not start`);
}

interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

async function call<T = unknown>(origin: string, apiPath: string, data: unknown, token?: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${origin}${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(data),
  });
  const answer = (await response.json()) as Envelope<T>;
  if (answer.code !== 0) throw new Error(`${apiPath}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

async function outboxCode(origin: string, to: string, pattern: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const outbox = (await (await fetch(`${origin}/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { code?: string }[];
    const code = outbox.filter((message) => message.code && pattern.test(message.code)).at(-1)?.code;
    if (code) return code;
    await sleep(100);
  }
  throw new Error(`no code reached ${to}`);
}

interface Tokens {
  token: string;
  refreshToken: string;
}
interface Customer {
  email: string;
  password: string;
  uid: number;
  tokens: Tokens;
}

async function signUp(origin: string, label: string): Promise<Customer> {
  const email = `screens-${label}-${Date.now().toString(36)}@example.com`;
  const password = 'screens password 1';
  await call(origin, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
  const code = await outboxCode(origin, email, /^\d{6}$/);
  await call(origin, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
  const tokens = await call<Tokens>(origin, '/v1/wa-na/login', { username: email, password, type: 'E' });
  const { uid } = await call<{ uid: number }>(origin, '/v1/waa/user/info', {}, tokens.token);
  return { email, password, uid, tokens };
}

const staffTokens = new Map<string, Tokens>();
/** A staff member of finance-staff.json signed in once (their code, then their own password). */
async function staffSignIn(name: string): Promise<Tokens> {
  const known = staffTokens.get(name);
  if (known) return known;
  const members = JSON.parse(fs.readFileSync(path.join(dataDir, 'finance-staff.json'), 'utf8')) as Record<string, { email: string; oneTimePassword: string; otpauthUrl: string }>;
  const member = members[name];
  if (!member) throw new Error(`no staff member ${name}`);
  const code = totpCode(new URL(member.otpauthUrl).searchParams.get('secret') ?? '', Date.now());
  const tokens = await call<Tokens>(base, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code });
  await call(base, '/v1/staff/password', { oldPassword: member.oneTimePassword, newPassword: 'screens horse battery 7' }, tokens.token);
  staffTokens.set(name, tokens);
  return tokens;
}

/** A USDT deposit with a proof image, left in the finance queue. */
async function pendingDeposit(customer: Customer): Promise<void> {
  const networks = (await call<{ dtoList: { id: number; currency: string; protocol: string; said: string }[] }>(base, '/v1/waa/wallet/coinNetworks', {}, customer.tokens.token)).dtoList;
  const coin = networks.find((network) => network.currency === 'USDT' && network.protocol === 'TRC20');
  if (!coin) throw new Error('no USDT · TRC20 network');
  // A transfer's screenshot as a customer uploads one: tall, so the review page must show it in view.
  const proof = await sharp({ create: { width: 360, height: 720, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer();
  const form = new FormData();
  form.append('metaData', JSON.stringify({ coinId: coin.id, said: coin.said, locale: 'de', amt: '1200' }));
  form.append('depositProof', new Blob([new Uint8Array(proof)], { type: 'image/png' }), 'transfer.png');
  const answer = (await (await fetch(`${base}/v1/waa/deposit/submit`, { method: 'POST', headers: { authorization: `Bearer ${customer.tokens.token}`, 'idempotency-key': crypto.randomUUID() }, body: form })).json()) as Envelope;
  if (answer.code !== 0) throw new Error(`deposit/submit: ${answer.code} ${answer.msg}`);
}

// ── The browser ────────────────────────────────────────────────────────────────────────

/** The app's stored preferences (idb-keyval: database and store as preferences.ts names them). */
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

interface Screen {
  name: string;
  origin: string;
  sizes: Size[];
  languages: Language[];
  /** Once per context (a signed-in customer or staff member). */
  prepare?: (page: Page) => Promise<void>;
  open: (page: Page) => Promise<void>;
  /** The page the preferences are written on. */
  home: string;
}

async function runScreen(browser: Browser, screen: Screen) {
  if (!wanted(screen.name)) return;
  for (const size of screen.sizes.filter(sizeChosen)) {
    const context = await browser.newContext({
      baseURL: screen.origin,
      viewport: { width: size.width, height: size.height },
      ...(size.phone ? { isMobile: true, hasTouch: true } : {}),
      locale: 'en-US',
      timezoneId: 'Europe/Berlin',
    });
    const page = await context.newPage();
    try {
      await page.goto(screen.home);
      await screen.prepare?.(page);
      for (const language of screen.languages.filter(languageChosen)) {
        for (const theme of themes) {
          const file = `${screen.name}-${size.width}x${size.height}-${language}-${theme}.png`;
          try {
            await page.goto(screen.home);
            await choosePreferences(page, language, theme);
            await screen.open(page);
            await page.waitForFunction(({ language, theme }) => document.documentElement.lang === language && document.documentElement.dataset.scheme === theme, { language, theme }, { timeout: 20_000 });
            await page.locator('.screen-loading').waitFor({ state: 'detached', timeout: 20_000 }).catch(() => undefined);
            await page.evaluate(() => document.fonts.ready.then(() => undefined));
            await sleep(500);
            await page.screenshot({ path: path.join(outDir, file) });
          } catch (error) {
            process.stderr.write(`${file}: ${(error as Error).message.split('\n')[0]}\n`);
            await page.screenshot({ path: path.join(outDir, 'failed', file) }).catch(() => undefined);
          }
        }
      }
    } finally {
      await context.close();
    }
  }
  process.stdout.write(`shot ${screen.name}\n`);
}

/** The console signed in as a staff member: their tokens in this tab's sessionStorage, as the console keeps them. */
function staffSignedIn(name: string) {
  return async (page: Page) => {
    const tokens = await staffSignIn(name);
    await page.evaluate((given) => sessionStorage.setItem('tradeweb-staff-tokens', JSON.stringify(given)), tokens);
  };
}

/** The console may have refreshed the member's tokens: keep the newest. */
async function keepStaffTokens(page: Page, name: string) {
  const kept = await page.evaluate(() => sessionStorage.getItem('tradeweb-staff-tokens'));
  if (kept) staffTokens.set(name, JSON.parse(kept) as Tokens);
}

// ── The run ────────────────────────────────────────────────────────────────────────────

async function main() {
  if (!chosen('SCREENS')) fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(path.join(outDir, 'failed'), { recursive: true, force: true });
  fs.mkdirSync(path.join(outDir, 'failed'), { recursive: true });
  const server = startServer();
  process.on('SIGINT', () => {
    server.kill('SIGTERM');
    process.exit(130);
  });
  try {
    await waitForHealth(base);
    const started = await fetch(`http://localhost:${port + 2}/example-brand`, { method: 'POST' });
    if (started.status !== 202) throw new Error(`/example-brand: ${started.status}`);
    await waitForHealth(brandBase);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

    // The console's rows: a customer prohibited from trading (a customer target in the audit), a deposit waiting with its proof.
    const customer = await signUp(base, 'console');
    await pendingDeposit(customer);
    const admin = await staffSignIn('enrol-admin');
    await call(base, '/v1/staff/customers/setTradingProhibited', { uid: customer.uid, prohibited: true, reason: 'Screens: a prohibition in the audit trail' }, admin.token);
    const finance = await staffSignIn('funding');
    const queue = await call<{ list: { id: number; uid: number }[] }>(base, '/v1/staff/reviews/list', { kind: 'deposit', status: 'pending', page: 1, limit: 50 }, finance.token);
    const review = queue.list.find((item) => item.uid === customer.uid);
    if (!review) throw new Error('the deposit is not in the queue');
    // The example brand's customer, for its signed-in static page.
    const brandCustomer = await signUp(brandBase, 'example');

    const consoleLanguages: Language[] = ['de', 'ja'];
    const brandLanguages: Language[] = ['en', 'ja', 'de'];
    const screens: Screen[] = [
      {
        name: 'staff-audit',
        origin: base,
        sizes: desktops,
        languages: consoleLanguages,
        home: '/staff/',
        prepare: staffSignedIn('enrol-admin'),
        open: async (page) => {
          await page.goto('/staff/audit');
          await page.locator('table tbody tr').first().waitFor();
          await keepStaffTokens(page, 'enrol-admin');
        },
      },
      {
        name: 'staff-queue',
        origin: base,
        sizes: desktops,
        languages: consoleLanguages,
        home: '/staff/',
        prepare: staffSignedIn('funding'),
        open: async (page) => {
          await page.goto('/staff/queues/deposit');
          await page.locator('table tbody tr').filter({ hasText: String(customer.uid) }).first().waitFor();
          await keepStaffTokens(page, 'funding');
        },
      },
      {
        name: 'staff-review',
        origin: base,
        sizes: desktops,
        languages: consoleLanguages,
        home: '/staff/',
        prepare: staffSignedIn('funding'),
        open: async (page) => {
          await page.goto(`/staff/queues/deposit/${review.id}`);
          await page.locator('img').first().waitFor();
          await keepStaffTokens(page, 'funding');
        },
      },
      {
        name: 'staff-members',
        origin: base,
        sizes: desktops,
        languages: consoleLanguages,
        home: '/staff/',
        prepare: staffSignedIn('enrol-admin'),
        open: async (page) => {
          await page.goto('/staff/staff-members');
          await page.locator('table tbody tr').first().waitFor();
          await keepStaffTokens(page, 'enrol-admin');
        },
      },
      {
        name: 'brand-home',
        origin: brandBase,
        sizes: [...phones, ...desktops],
        languages: brandLanguages,
        home: '/',
        open: async (page) => {
          await page.goto('/');
          await page.locator('.page-header, .workspace').first().waitFor();
        },
      },
      {
        name: 'brand-sign-in',
        origin: brandBase,
        sizes: [...phones, ...desktops],
        languages: brandLanguages,
        home: '/',
        open: async (page) => {
          await page.goto('/login');
          await page.locator('.auth-brand, .auth-phone-brand').first().waitFor();
        },
      },
      {
        name: 'brand-standards',
        origin: brandBase,
        sizes: [...phones, ...desktops],
        languages: brandLanguages,
        home: '/',
        prepare: async (page) => {
          const tokens = await call<Tokens>(brandBase, '/v1/wa-na/login', { username: brandCustomer.email, password: brandCustomer.password, type: 'E' });
          await page.waitForFunction(() => '__tradeweb' in window);
          await page.evaluate((given) => (window as unknown as { __tradeweb: { engine: { signIn(tokens: unknown): Promise<unknown> } } }).__tradeweb.engine.signIn(given), tokens);
        },
        open: async (page) => {
          await page.goto('/user/standards');
          await page.locator('.static-text h2').first().waitFor();
        },
      },
    ];
    for (const screen of screens) await runScreen(browser, screen);
    await browser.close();
  } finally {
    server.kill('SIGTERM');
  }
}

await main();
