import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { waitForApp } from './support';

/** The desktop chart panel's failure and export paths: a failed history swallowed, and the JPEG screenshot. */

const chartOf = (page: Page) => page.getByRole('img', { name: 'Price chart of Bitcoin' });

test('a failed chart history is swallowed, as the specification says: no toast, no retry box, the chart left empty; the next visit loads it @desktop', async ({ page, context }) => {
  let refused = 0;
  // The engine fetches the history in its worker. Playwright cannot route a shared worker's requests, so this page
  // runs the engine's dedicated-worker fallback (as browsers without SharedWorker do), whose requests the context routes.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'SharedWorker', { value: undefined, configurable: true });
  });
  await context.route('**/market/history', async (route) => {
    refused += 1;
    await route.fulfill({ status: 503, contentType: 'text/plain', body: 'unavailable' });
  });
  await page.goto('/BTCUSDT/chart');
  await waitForApp(page);
  await expect.poll(() => refused).toBeGreaterThan(0);
  // Long enough for a toast or a box to have come, had one been raised.
  await page.waitForTimeout(1500);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  // No history: at most the bar the live ticks are forming.
  expect(Number(await chartOf(page).getAttribute('data-bars'))).toBeLessThanOrEqual(1);

  // The server answers again: the next visit (a new engine, nothing cached) fills the chart.
  await context.unroute('**/market/history');
  await page.reload();
  await waitForApp(page);
  await expect(chartOf(page)).toHaveAttribute('data-loaded', '1min');
  await expect.poll(async () => Number(await chartOf(page).getAttribute('data-bars'))).toBeGreaterThanOrEqual(300);
});

test('the chart screenshot downloads a JPEG named after the symbol, period and time @desktop', async ({ page }) => {
  await page.goto('/BTCUSDT/chart');
  await waitForApp(page);
  await expect(chartOf(page)).toHaveAttribute('data-loaded', '1min');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Screenshot' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^BTCUSDT-1min-\d{8}-\d{6}\.jpeg$/);
  const bytes = await readFile(await file.path());
  // A JPEG starts with the SOI marker and a segment marker (FF D8 FF) and ends with EOI (FF D9).
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
  // A picture of the chart, not an empty canvas: a 1440 px wide chart at quality 1 is well over 20 kB.
  expect(bytes.length).toBeGreaterThan(20_000);
});
