import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { isDesktop, waitForApp } from './support';

/**
 * A newcomer's first minute on the server's defaults: a second server, started here with
 * no switches, no dev outbox and no test settings, so the seeded brand is what `npm start`
 * gives. The sign-up code is read where a newcomer finds it: the server's log.
 */
const port = Number(process.env.E2E_PORT ?? 8181) + 4;
const base = `http://localhost:${port}`;

let server: ChildProcess | null = null;
let dataDir = '';
const logLines: string[] = [];

test.beforeAll(async () => {
  // Beside the suite's own server on a shared machine, a cold start can take a while.
  test.setTimeout(150_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeweb-first-minute-'));
  const environment: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: path.resolve('dist') };
  server = spawn('node_modules/.bin/tsx', ['server/main.ts'], { env: environment, stdio: ['ignore', 'pipe', 'inherit'] });
  let partial = '';
  server.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    logLines.push(...lines);
  });
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status ?? 0, { timeout: 120_000 })
    .toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The code the server logged for an address (the development outbox line). */
async function loggedCode(to: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(() => {
      for (const line of logLines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { to?: string; code?: string };
        if (entry.to === to && entry.code) code = entry.code;
      }
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

const screen = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/first-minute-${name}-${page.viewportSize()?.width}.png` });

test('a newcomer signs up with the logged code, signs in, switches to demo from a refused real order, and trades a market order and an option', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const email = `newcomer-${testInfo.project.name}-${Date.now().toString(36)}@example.com`;
  const password = 'first minute 1';

  await page.goto(`${base}/`);
  await waitForApp(page);
  // The desktop header has "Let's sign in", whose page leads on to sign-up; the phone home has both.
  if (isDesktop(page)) {
    await page.getByRole('link', { name: "Let's sign in" }).click();
    await page.getByRole('link', { name: 'Sign up', exact: true }).click();
  } else {
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page.getByTestId('bid-BTCUSDT')).toHaveText(/\d/);
    await screen(page, 'visitor-home');
    await page.getByRole('link', { name: 'Sign up', exact: true }).click();
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Sign up' })).toBeVisible();
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Verification code').fill(await loggedCode(email));
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();

  // The specification's way on: sign-in with the new account filled in, then home.
  await expect(page.getByText('Your account is ready. Please sign in.')).toBeVisible();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  // Signed in at home; the visitor's buttons are gone.
  await expect(page).toHaveURL(`${base}/`);
  await expect(page.getByRole('link', { name: 'Sign up', exact: true })).toHaveCount(0);
  if (!isDesktop(page)) await screen(page, 'signed-in-home');

  // The real account holds 0.00: a buy is refused (203) with the ways forward.
  await page.goto(`${base}/BTCUSDT/place?direction=0`);
  await expect(page.getByTestId('place-available')).toHaveText('0.00');
  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Insufficient available balance on your real account (203)' });
  await expect(refusal.getByRole('button', { name: 'Deposit' })).toBeVisible();
  await screen(page, 'refused-real');
  await refusal.getByRole('button', { name: 'Switch to demo' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Switched to the Demo account')).toBeVisible();
  await expect(page.getByTestId('place-available')).toHaveText('100,000.00');

  // A market order on demo, seen in the positions.
  // The form takes one submission a second (the refused one was just now): press until it is taken.
  const placed = page.getByRole('region', { name: 'Order placed' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await expect(placed).toBeVisible({ timeout: 2_000 });
  }).toPass();
  const orderNo = (await placed.getByTestId('placed-order').textContent()) ?? '';
  expect(orderNo).toMatch(/^\d{16}$/);
  await placed.getByRole('button', { name: 'View position' }).click();
  if (isDesktop(page)) await expect(page.getByRole('table', { name: 'Opening' })).toContainText(orderNo);
  else await expect(page.getByRole('list', { name: 'Opening' }).getByRole('button', { name: new RegExp(orderNo) })).toHaveCount(1);

  // The default minimum holding time (180 s): the close says how long is left, counted on the
  // server's clock, so a device clock 5 minutes ahead does not offer a close the server refuses.
  await page.clock.install({ time: Date.now() + 5 * 60_000 });
  await page.reload();
  const holdText = /^Can close in [0-2]:[0-5]\d$/;
  if (isDesktop(page)) {
    const row = page.getByRole('table', { name: 'Opening' }).getByRole('row', { name: new RegExp(orderNo) });
    await expect(row.getByRole('button', { name: holdText })).toBeDisabled();
  } else {
    await page.getByRole('list', { name: 'Opening' }).getByRole('button', { name: new RegExp(orderNo) }).click();
    await expect(page.getByRole('dialog').getByRole('button', { name: holdText })).toBeDisabled();
  }
  await screen(page, 'hold-countdown');
  // The device's clock right again for the option's countdown.
  await page.clock.setSystemTime(Date.now());

  // An option, from the chart: option mode where the trade starts, then buy up for 30 s.
  await page.goto(`${base}/BTCUSDT/chart`);
  const modes = page.getByRole('group', { name: 'Trade mode' });
  await modes.getByRole('button', { name: 'Option' }).click();
  await expect(modes.getByRole('button', { name: 'Option' })).toHaveAttribute('aria-pressed', 'true');
  await screen(page, 'chart-option-mode');
  await page.getByRole('link', { name: 'Rise', exact: true }).click();
  await page.getByRole('radio', { name: /^30s Profit 80%$/ }).check();
  await page.getByLabel('Amount', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Rise', exact: true }).click();
  const running = page.getByRole('dialog', { name: 'Option in progress' });
  await expect(running.getByTestId('option-order-id')).toHaveText(/^\d{16,}$/);
  await expect(running.getByRole('progressbar', { name: 'Time left' })).toBeVisible();
});
