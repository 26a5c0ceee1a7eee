// Screenshots of issue 33's terminal screens (the ticket within reach, the account strip): home,
// chart, the market and option tickets, positions and the desktop workspace (templates 0 and 1)
// at 390×844, 360×640, 1280×720 and 1440×900, in English, German, Japanese and Thai, light and
// dark, into .tmp/screens/terminal/<screen>-<w>x<h>-<lang>-<theme>.png (one-click trading on in
// chart-one-click and workspace-one-click). Not a test: it shows.
//
//   node_modules/.bin/vite build --logLevel warn
//   npx tsx scripts/screens/terminal.ts
//
// It starts scripts/e2e-server.mjs as the browser tests do, signs a demo account in with an open
// position (so the strip shows a margin level), and sets the language and colour scheme through
// the app's stored preferences. Narrower runs: SCREENS=place,workspace SIZES=390x844 LANGS=th
// THEMES=dark; PORT (8201: the server uses it and the nine after), CHROMIUM_PATH.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';

const port = Number(process.env.PORT ?? 8201);
const base = `http://localhost:${port}`;
const dataDir = `.tmp/e2e-data-screens-${port}`;
const outDir = '.tmp/screens/terminal';

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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(): ChildProcess {
  const server = spawn('node', ['scripts/e2e-server.mjs'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), JWT_SECRET: 'e2e-only-signing-key-not-a-secret-0123456789', E2E_DATA_DIR: dataDir },
  });
  server.on('exit', (code, signal) => process.stderr.write(`e2e-server exited (code ${code}, signal ${signal})\n`));
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

async function call<T = unknown>(apiPath: string, data: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(data),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: T };
  if (answer.code !== 0) throw new Error(`${apiPath}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

interface Tokens {
  token: string;
  refreshToken: string;
}

/** A new customer switched to the demo account, with one BTCUSDT position open. */
async function demoTrader(): Promise<Tokens> {
  const email = `screens-terminal-${Date.now().toString(36)}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const password = 'screens password 1';
  await call('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
  let code: string | undefined;
  for (let attempt = 0; attempt < 100 && !code; attempt += 1) {
    const outbox = (await (await fetch(`${base}/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { code?: string }[];
    code = outbox.filter((message) => message.code && /^\d{6}$/.test(message.code)).at(-1)?.code;
    if (!code) await sleep(100);
  }
  await call('/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
  const real = await call<Tokens>('/v1/wa-na/login', { username: email, password, type: 'E' });
  const demo = await call<Tokens>('/v1/waa/user/switch', {}, real.token);
  await call('/exchange/addOrderMock', { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.5', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: crypto.randomUUID() }, demo.token);
  return demo;
}

async function choosePreferences(page: Page, language: Language, theme: Theme, extra: Record<string, unknown> = {}) {
  await page.evaluate(
    async ({ language, theme, extra }) => {
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
        const write = store.put({ ...(current ?? {}), oneClickTrading: false, ...extra, language, colourScheme: theme }, 'preferences');
        write.onsuccess = () => resolve();
        write.onerror = () => reject(write.error);
      });
      db.close();
    },
    { language, theme, extra },
  );
}

interface Screen {
  name: string;
  path: string;
  phone?: boolean;
  desktop?: boolean;
  /** The desktop template the brand's config.json is answered with. */
  template?: 0 | 1;
  /** What is done on the screen before the shot (the workspace's ticket opened). */
  then?: (page: Page) => Promise<void>;
  /** Stored preferences beside the language and scheme (one-click trading on). */
  preferences?: Record<string, unknown>;
}

/** The workspace's ticket, opened from the chart's big Buy button. */
async function openWorkspaceTicket(page: Page) {
  await page.locator('.chart-panel .trade-buttons .button.buy').click();
  await page.locator('.place-panel .place-submit').waitFor();
}

const screens: Screen[] = [
  { name: 'home', path: '/', desktop: false },
  { name: 'workspace', path: '/', phone: false },
  { name: 'workspace-ticket', path: '/', phone: false, then: openWorkspaceTicket },
  { name: 'workspace-template-1-ticket', path: '/', phone: false, template: 1, then: openWorkspaceTicket },
  { name: 'chart', path: '/BTCUSDT/chart' },
  { name: 'chart-one-click', path: '/BTCUSDT/chart', phone: true, desktop: false, preferences: { oneClickTrading: true } },
  { name: 'workspace-one-click', path: '/', phone: false, preferences: { oneClickTrading: true } },
  { name: 'place', path: '/BTCUSDT/place?direction=0' },
  { name: 'place-option', path: '/BTCUSDT/placeOption' },
  { name: 'position', path: '/position' },
];

async function run(browser: Browser, screen: Screen, size: Size, tokens: Tokens) {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: size.width, height: size.height },
    ...(size.phone ? { isMobile: true, hasTouch: true } : {}),
    locale: 'en-US',
    timezoneId: 'Europe/Berlin',
  });
  const page = await context.newPage();
  if (screen.template !== undefined) {
    const template = screen.template;
    await page.route('**/config.json', async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, json: { ...((await answer.json()) as object), desktopTemplate: template } });
    });
  }
  try {
    await page.goto('/');
    await page.waitForFunction(() => '__tradeweb' in window);
    await page.evaluate((given) => (window as unknown as { __tradeweb: { engine: { signIn(tokens: unknown): Promise<unknown> } } }).__tradeweb.engine.signIn(given), tokens);
    for (const language of languages) {
      for (const theme of themes) {
        const file = path.join(outDir, `${screen.name}-${size.width}x${size.height}-${language}-${theme}.png`);
        try {
          await choosePreferences(page, language, theme, screen.preferences);
          await page.goto(screen.path);
          await page.waitForFunction(({ language, theme }) => document.documentElement.lang === language && document.documentElement.dataset.scheme === theme, { language, theme }, { timeout: 20_000 });
          await page.locator('.screen-loading').waitFor({ state: 'detached', timeout: 20_000 }).catch(() => undefined);
          await page.evaluate(() => document.fonts.ready.then(() => undefined));
          await sleep(1200);
          await screen.then?.(page);
          await page.screenshot({ path: file });
        } catch (error) {
          process.stderr.write(`${screen.name} ${size.width}x${size.height} ${language} ${theme}: ${(error as Error).message.split('\n')[0]}\n`);
        }
      }
    }
  } finally {
    await context.close();
  }
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const server = startServer();
  try {
    await waitForHealth();
    const tokens = await demoTrader();
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    try {
      for (const screen of screens.filter((each) => wanted(each.name))) {
        for (const size of sizes) {
          if ((size.phone && screen.phone === false) || (!size.phone && screen.desktop === false)) continue;
          await run(browser, screen, size, tokens);
        }
        process.stdout.write(`shot ${screen.name}\n`);
      }
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
  }
}

await main();
