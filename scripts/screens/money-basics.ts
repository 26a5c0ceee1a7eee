// Screenshots of issue 33's money screens, symbol identity and search (part D): deposit (the
// QR code and the minimum on step 1), withdraw (the available balance and Max), the wallet's
// totals, the quotes list with the symbols' logos and names, and search's start (recent and
// popular), at 390×844, 360×640, 1280×720 and 1440×900, in English, German, Japanese and Thai,
// light and dark, into .tmp/screens/money/basics-<screen>-<w>x<h>-<lang>-<theme>.png. Not a test:
// it asserts nothing, it shows.
//
//   node_modules/.bin/vite build --logLevel warn
//   npx tsx scripts/screens/money-basics.ts
//
// It starts scripts/e2e-server.mjs as the browser tests do and sets the language and colour
// scheme through the app's stored preferences. Narrower runs: SCREENS=deposit,search
// SIZES=390x844 LANGS=th THEMES=dark; PORT (8232: the server uses it, +1 and +2), CHROMIUM_PATH.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { totpCode } from '../../server/auth/totp';
import { encodeField } from '../../src/shared/money/encoded-field';
import { readAccessToken } from '../../src/shared/session/token';

const port = Number(process.env.PORT ?? 8232);
const base = `http://localhost:${port}`;
const dataDir = `.tmp/e2e-data-screens-basics-${port}`;
const outDir = '.tmp/screens/money';

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
    env: { ...process.env, PORT: String(port), JWT_SECRET: 'e2e-only-signing-key-not-a-secret-0123456789', E2E_DATA_DIR: dataDir },
  });
  // A server gone mid-run fails every later shot: say when and how it went.
  server.on('exit', (code, signal) => process.stderr.write(`e2e-server exited (code ${code}, signal ${signal}) at ${new Date().toISOString()}\n`));
  return server;
}

async function waitForHealth() {
  for (let attempt = 0; attempt < 1200; attempt += 1) {
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
  const file = path.join(outDir, `basics-${screen}-${size.width}x${size.height}-${language}-${theme}.png`);
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
            await page.screenshot({ path: path.join(outDir, 'failed', `basics-${screen.name}-${size.width}x${size.height}-${language}-${theme}.png`) }).catch(() => undefined);
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

/** Search's recent symbols in the stored preferences, as opening them from search keeps them. */
async function rememberRecent(page: Page, symbols: string[]) {
  await page.evaluate(async (recent) => {
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
    await new Promise<void>((resolve) => {
      const write = store.put({ ...(current ?? {}), recentSymbols: recent }, 'preferences');
      write.onsuccess = () => resolve();
    });
    db.close();
  }, symbols);
}

async function main() {
  fs.mkdirSync(path.join(outDir, 'failed'), { recursive: true });
  const server = startServer();
  try {
    await waitForHealth();
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

    // One funded, verified customer: 900 USDT deposited (under four-eyes), 300 of it moved into the trading account, an address saved.
    const trader = await signUp('basics');
    await deposit(trader, '900', 1);
    const coin = await usdtTrc20(trader);
    const transfer = { curr: 'USDT', currId: coin.currencyId, type: 0, num: '300' };
    const quote = await call<{ fee: string; practical: string }>('/v1/waa/wallet/transformCalculate', transfer, trader.tokens.token);
    await moneyCall('/v1/waa/wallet/transform', { ...transfer, ...quote }, trader.tokens.token);
    await verifyJunior(trader);
    await saveAddress(trader);
    const customer = () => trader;

    const screens: Screen[] = [
      {
        name: 'deposit',
        prepare: signedIn(customer),
        open: async (page) => {
          await page.goto('/user/deposit');
          await page.getByTestId('deposit-qr').locator('img').waitFor({ timeout: 20_000 });
        },
      },
      {
        name: 'withdraw',
        prepare: signedIn(customer),
        open: async (page) => {
          await page.goto('/user/withdraw');
          await page.getByTestId('withdraw-network-picker').click();
          await page.getByRole('option', { name: 'USDT · TRC20' }).click();
          await page.getByTestId('withdraw-address-picker').waitFor();
          await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="withdraw-available"]')?.textContent ?? ''), undefined, { timeout: 20_000 });
          await page.getByTestId('withdraw-max').click();
          await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="withdraw-fee"]')?.textContent ?? ''), undefined, { timeout: 20_000 });
        },
      },
      {
        name: 'wallet',
        prepare: signedIn(customer),
        open: async (page) => {
          await page.goto('/user/myWallet');
          await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="wallet-total"]')?.textContent ?? ''), undefined, { timeout: 20_000 });
        },
      },
      {
        name: 'quotes',
        open: async (page) => {
          await page.goto('/quotation');
          await page.locator('.quote-row').first().waitFor({ timeout: 20_000 });
          await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.quote-logo')].slice(0, 5).every((image) => image.complete), undefined, { timeout: 20_000 });
        },
      },
      {
        name: 'search',
        open: async (page) => {
          await rememberRecent(page, ['BTCUSDT', 'USDJPY', 'XAUUSD']);
          await page.goto('/search');
          await page.locator('.search-start .quote-row').first().waitFor({ timeout: 20_000 });
        },
      },
    ];
    for (const screen of screens) await runScreen(browser, screen);
    await browser.close();
    process.stdout.write(`${written.length} screenshots in ${outDir}\n`);
  } finally {
    server.kill('SIGTERM');
  }
}

await main();
