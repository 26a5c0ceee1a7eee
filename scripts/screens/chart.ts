// Screenshots of the chart with the lines of what the trader holds (issue 33, part B): a demo
// account's BTCUSDT position with its stop loss and take profit, a pending order with its stop
// loss, and a running option (start price, end time, winning or losing), at 390×844, 360×640,
// 1280×720, 1440×900 and 1000×700, in English, German, Japanese and Thai, light and dark, written
// to .tmp/screens/chart/chart-<w>x<h>-<lang>-<theme>.png. Not a test: it asserts nothing, it shows.
//
//   node_modules/.bin/vite build --logLevel warn
//   npx tsx scripts/screens/chart.ts
//
// It starts scripts/e2e-server.mjs as the browser tests do and sets the language and the colour
// scheme through the app's stored preferences. Narrower runs: SIZES=390x844 LANGS=th
// THEMES=dark; PORT (8211: the server uses it and the next ones), CHROMIUM_PATH.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { formatMoney, money, moneyScale } from '../../src/shared/money/money';
import { chromium, type Browser, type Page } from '@playwright/test';

const port = Number(process.env.PORT ?? 8211);
const base = `http://localhost:${port}`;
const dataDir = `.tmp/e2e-data-screens-chart-${port}`;
const outDir = '.tmp/screens/chart';

const allSizes = [
  { width: 390, height: 844, phone: true },
  { width: 360, height: 640, phone: true },
  { width: 1280, height: 720, phone: false },
  { width: 1440, height: 900, phone: false },
  { width: 1000, height: 700, phone: false },
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
  return spawn('node', ['scripts/e2e-server.mjs'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), JWT_SECRET: 'e2e-only-signing-key-not-a-secret-0123456789', E2E_DATA_DIR: dataDir },
  });
}

async function waitForHealth() {
  for (let attempt = 0; attempt < 900; attempt += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(500);
  }
  throw new Error('the server did not start');
}

async function call<T = unknown>(apiPath: string, data: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(data),
  });
  const envelope = (await response.json()) as { code: number; msg: string; data: T };
  if (envelope.code !== 0) throw new Error(`${apiPath}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

interface Tokens {
  token: string;
  refreshToken: string;
}

/** A new customer switched to the demo account (100,000 virtual). */
async function demoCustomer(): Promise<Tokens> {
  const email = `screens-chart-${Date.now().toString(36)}@example.com`;
  const password = 'screens password 1';
  await call('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
  let code = '';
  for (let attempt = 0; attempt < 40 && !code; attempt += 1) {
    const mails = (await (await fetch(`${base}/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { code?: string }[];
    code = mails.find((mail) => /^\d{6}$/.test(mail.code ?? ''))?.code ?? '';
    if (!code) await sleep(250);
  }
  await call('/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
  const tokens = await call<Tokens>('/v1/wa-na/login', { username: email, password, type: 'E' });
  return call<Tokens>('/v1/waa/user/switch', {}, tokens.token);
}

/** What the chart shows lines of: a position with both levels, a pending order with a stop loss, a running option. */
async function holdings(tokens: Tokens) {
  const thumb = await call<{ price: string }>('/market/thumb/BTCUSDT', {});
  // Levels a few tenths of a percent from the price, exact to the cent (BTCUSDT's digits).
  const price = money(thumb.price);
  const cent = 10n ** BigInt(moneyScale - 2);
  const near = (perMille: bigint) => formatMoney(((price * perMille) / 1000n / cent) * cent, 2);
  const order = { tradePair: 'BTCUSDT', orderQuantity: '0.05', multiple: 20, orderType: 0 };
  await call('/exchange/addOrderMock', { ...order, price: '0', buyPoint: 2, stopPrice: near(997n), takeProfitPrice: near(1003n), clientOrderId: crypto.randomUUID() }, tokens.token);
  await call('/exchange/addOrderMock', { ...order, orderType: 1, price: near(1002n), buyPoint: 1, stopPrice: near(1004n), clientOrderId: crypto.randomUUID() }, tokens.token);
  const products = await call<{ optionsProducts: { id: number }[] }>('/v1/wa-na/option/findOptionsProduct', { productCode: 'BTCUSDT' });
  for (const timeLong of [300, 180, 120, 60, 30]) {
    try {
      await call('/exchange/addOptionOrderMock', { tradePair: 'BTCUSDT', optionsProductId: products.optionsProducts[0]?.id, price: thumb.price, timeLong, btime: Math.floor(Date.now() / 1000), rate: '0.8', amount: '20', orderType: 0, clientOrderId: crypto.randomUUID() }, tokens.token);
      return;
    } catch {
      // Not offered at this length: the next.
    }
  }
}

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
      // RSI beside the volume: the sub panes' readable height shows.
      const chart = { period: '1min', candleType: 'candle_solid', indicators: { main: ['MA'], sub: ['VOL', 'RSI'] } };
      await new Promise<void>((resolve, reject) => {
        const write = store.put({ ...(current ?? {}), language, colourScheme: theme, chart }, 'preferences');
        write.onsuccess = () => resolve();
        write.onerror = () => reject(write.error);
      });
      db.close();
    },
    { language, theme },
  );
}

async function shootSize(browser: Browser, size: Size, written: string[]) {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: size.width, height: size.height },
    ...(size.phone ? { isMobile: true, hasTouch: true } : {}),
    locale: 'en-US',
    timezoneId: 'Europe/Berlin',
  });
  const page = await context.newPage();
  try {
    await page.goto('/');
    const tokens = await demoCustomer();
    await holdings(tokens);
    await page.waitForFunction(() => '__tradeweb' in window);
    await page.evaluate((given) => (window as unknown as { __tradeweb: { engine: { signIn(tokens: unknown): Promise<unknown> } } }).__tradeweb.engine.signIn(given), tokens);
    for (const language of languages) {
      for (const theme of themes) {
        await page.goto('/');
        await choosePreferences(page, language, theme);
        await page.goto('/BTCUSDT/chart');
        await page.waitForFunction(({ language, theme }) => document.documentElement.lang === language && document.documentElement.dataset.scheme === theme, { language, theme });
        await page.locator('.kline-chart[data-loaded="1min"]').waitFor();
        await page.locator('[data-line-kind^="optionStart"], [data-line-kind="entry"]').first().waitFor({ state: 'attached' });
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        await sleep(600);
        const file = path.join(outDir, `chart-${size.width}x${size.height}-${language}-${theme}.png`);
        await page.screenshot({ path: file });
        written.push(file);
      }
    }
  } finally {
    await context.close();
  }
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  const server = startServer();
  const written: string[] = [];
  try {
    await waitForHealth();
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    for (const size of sizes) await shootSize(browser, size, written);
    await browser.close();
  } finally {
    server.kill('SIGTERM');
  }
  process.stdout.write(`${written.length} screenshots in ${outDir}\n`);
}

await main();
