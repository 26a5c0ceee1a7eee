// Screenshots of issue 33's rows and option ticket: market history, option history (a void and
// long names added to the server's answer, as tests/e2e/rows-fit.spec.ts does), positions and the
// option ticket, at 390×844, 360×640, 1280×720 and 1440×900, in English, German, Japanese and Thai,
// light and dark, written to .tmp/screens/rows/<screen>-<w>x<h>-<lang>-<theme>.png. Not a test:
// it asserts nothing, it shows.
//
//   node_modules/.bin/vite build --logLevel warn
//   npx tsx scripts/screens/rows.ts
//
// It starts scripts/e2e-server.mjs as the browser tests do (the built app, a fresh embedded
// database) and sets the language, the colour scheme and the trade mode the app's own way: its
// stored preferences (src/app/preferences/preferences.ts). Narrower runs: SCREENS=history,ticket
// SIZES=390x844 LANGS=th THEMES=dark; PORT (8221: the server uses it and the next ones), CHROMIUM_PATH.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { roundDecimal } from '../../src/shared/format/amount';
import { formatMoney, money } from '../../src/shared/money/money';

const port = Number(process.env.PORT ?? 8221);
const base = `http://localhost:${port}`;
const dataDir = `.tmp/e2e-data-screens-rows-${port}`;
const outDir = '.tmp/screens/rows';

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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(): ChildProcess {
  const server = spawn('node', ['scripts/e2e-server.mjs'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), JWT_SECRET: 'e2e-only-signing-key-not-a-secret-0123456789', E2E_DATA_DIR: dataDir },
  });
  server.on('exit', (code, signal) => process.stderr.write(`e2e-server exited (code ${code}, signal ${signal}) at ${new Date().toISOString()}\n`));
  return server;
}

/** Up to 15 minutes: on a loaded machine the server's start (migrations, the staff it makes) takes minutes. */
async function waitForHealth() {
  for (let attempt = 0; attempt < 1800; attempt += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(500);
  }
  throw new Error('the server did not start');
}

interface Tokens {
  token: string;
  refreshToken: string;
}

async function call<T = unknown>(apiPath: string, data: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}${apiPath}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(data) });
  const answer = (await response.json()) as { code: number; msg: string; data: T };
  if (answer.code !== 0) throw new Error(`${apiPath}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

async function outboxCode(to: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const outbox = (await (await fetch(`${base}/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { code?: string }[];
    const code = outbox.filter((message) => message.code && /^\d{6}$/.test(message.code)).at(-1)?.code;
    if (code) return code;
    await sleep(100);
  }
  throw new Error(`no code reached ${to}`);
}

/** A new customer's demo account with two positions, a closed order and a pending buy. */
async function demoTrader(): Promise<Tokens> {
  const email = `screens-rows-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const password = 'screens password 1';
  await call('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
  await call('/v1/wa-na/register', { username: email, password, type: 'E', code: await outboxCode(email), locale: 'en' });
  const real = await call<Tokens>('/v1/wa-na/login', { username: email, password, type: 'E' });
  const demo = await call<Tokens>('/v1/waa/user/switch', {}, real.token);
  const place = (order: Record<string, unknown>) =>
    call<string>('/exchange/addOrderMock', { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: crypto.randomUUID(), ...order }, demo.token);
  await place({ orderQuantity: '1.25' });
  await place({ orderQuantity: '0.75', orderType: 1 });
  await place({ tradePair: 'ETHUSDT', orderQuantity: '3.00' });
  const closing = await place({ orderQuantity: '0.10' });
  await call('/exchange/closeOrderMock', { orderId: closing }, demo.token);
  const bid = (await call<{ bidPrice: string }>('/market/thumb/BTCUSDT', {}, demo.token)).bidPrice;
  await place({ buyPoint: 1, price: roundDecimal(formatMoney((money(bid) * 8n) / 10n), 2), orderQuantity: '2.00' });
  return demo;
}

const longName = 'Brent Crude Oil Spot (Rolling Contract, ICE Futures Europe)';

/** Settled options added to the server's answer: a void (amount and fee refunded), a win and a loss, two with long names. */
function settledOptions() {
  const at = Date.now() - 600_000;
  const option = (uid: string, productName: string, result: 'void' | 'win' | 'loss') => ({
    id: Number(uid.slice(-6)), uid, orderType: result === 'loss' ? 1 : 0, tradePair: 'BTCUSDT', productName, optionsProductId: 1, price: '66886.04', priceTime: at,
    priceEnd: result === 'void' ? null : '66990.1', priceEndTime: result === 'void' ? null : at + 300_000, feeAmount: '2.5', timeLong: 300, beginTime: at,
    endTime: at + 300_000, completeTime: at + 301_000, amount: '250', rate: '0.875', winLost: result === 'void' ? '0' : result === 'win' ? '218.75' : '-250',
    status: 1, result, voidReason: result === 'void' ? 'no-price' : null,
  });
  return [option('9100000000000001', longName, 'void'), option('9100000000000002', 'Bitcoin', 'win'), option('9100000000000003', '日経平均株価二二五先物期近ミニ', 'loss'), option('9100000000000004', 'Ethereum', 'void')];
}

async function choosePreferences(page: Page, change: { language: Language; colourScheme: Theme; tradeMode: 'market' | 'option' }) {
  await page.evaluate(async (given) => {
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
      const write = store.put({ ...(current ?? {}), ...given }, 'preferences');
      write.onsuccess = () => resolve();
      write.onerror = () => reject(write.error);
    });
    db.close();
  }, change);
}

interface Screen {
  name: string;
  path: string;
  mode: 'market' | 'option';
  /** What shows once the screen has its content. */
  ready: string;
}

const allScreens: Screen[] = [
  { name: 'history', path: '/history', mode: 'market', ready: '.history-row, .virtual-grid-body .virtual-grid-row' },
  { name: 'history-option', path: '/history', mode: 'option', ready: '[data-testid="option-history-result-9100000000000001"]' },
  { name: 'positions', path: '/position', mode: 'market', ready: '.order-row, .virtual-grid-body .virtual-grid-row' },
  { name: 'ticket', path: '/BTCUSDT/placeOption?direction=0', mode: 'option', ready: '.option-form svg.mini-chart[data-points]:not([data-points="0"])' },
];
const screens = allScreens.filter((screen) => chosen('SCREENS')?.includes(screen.name) ?? true);

async function shootSize(browser: Browser, size: Size, demo: Tokens) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: size.width, height: size.height }, ...(size.phone ? { isMobile: true, hasTouch: true } : {}), locale: 'en-US', timezoneId: 'Europe/Berlin' });
  const page = await context.newPage();
  await page.route('**/v1/waa/option/orderList', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { code: number; data: { items: unknown[] } };
    if (json.code === 0 && (route.request().postDataJSON() as { positionStatus?: number }).positionStatus === 1) json.data.items.unshift(...settledOptions());
    await route.fulfill({ response, json });
  });
  try {
    await page.goto('/');
    await page.waitForFunction(() => '__tradeweb' in window);
    await page.evaluate((given) => (window as unknown as { __tradeweb: { engine: { signIn(tokens: unknown): Promise<unknown> } } }).__tradeweb.engine.signIn(given), demo);
    for (const screen of screens) {
      for (const language of languages) {
        for (const theme of themes) {
          const file = path.join(outDir, `${screen.name}-${size.width}x${size.height}-${language}-${theme}.png`);
          try {
            await choosePreferences(page, { language, colourScheme: theme, tradeMode: screen.mode });
            await page.goto(screen.path);
            await page.waitForFunction(({ language, theme }) => document.documentElement.lang === language && document.documentElement.dataset.scheme === theme, { language, theme }, { timeout: 20_000 });
            await page.locator(screen.ready).first().waitFor({ timeout: 20_000 });
            await page.evaluate(() => document.fonts.ready.then(() => undefined));
            await sleep(500);
            await page.screenshot({ path: file });
          } catch (error) {
            process.stderr.write(`${screen.name} ${size.width}x${size.height} ${language} ${theme}: ${(error as Error).message.split('\n')[0]}\n`);
            await page.screenshot({ path: path.join(outDir, 'failed', path.basename(file)) }).catch(() => undefined);
          }
        }
      }
    }
  } finally {
    await context.close();
  }
}

async function main() {
  fs.mkdirSync(path.join(outDir, 'failed'), { recursive: true });
  const server = startServer();
  try {
    await waitForHealth();
    const demo = await demoTrader();
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    try {
      for (const size of sizes) await shootSize(browser, size, demo);
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
  }
}

await main();
