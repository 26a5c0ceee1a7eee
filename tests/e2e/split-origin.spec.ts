import { expect, test } from '@playwright/test';
import { buyFromPlaceFormAndViewPosition, demoSession, expectMovingProfitThenClose, waitForApp } from './support';

/**
 * A brand that serves its app on one origin and its API, market and exchange roots on another
 * (config.json's roots), as white-label brands do: the suite's server starts a second server
 * on PORT+6 that serves the built app with such a config (scripts/e2e-server.mjs,
 * `/split-origin-app`), pointing at the suite's server on 127.0.0.1 — another origin than the
 * page's localhost. The suite's server lists the app's origin in ALLOWED_ORIGINS.
 */
const suitePort = Number(process.env.E2E_PORT ?? 8181);
const appOrigin = `http://localhost:${suitePort + 6}`;
const apiOrigin = `http://127.0.0.1:${suitePort}`;

test('the app on its own origin trades through the API and sockets on another: live prices, a market buy, the position live @mobile', async ({ page }) => {
  test.setTimeout(240_000);
  expect((await fetch(`http://localhost:${suitePort + 2}/split-origin-app`, { method: 'POST' })).status).toBe(202);
  await expect
    .poll(async () => (await fetch(`${appOrigin}/healthz`).catch(() => null))?.status ?? 0, { timeout: 180_000, intervals: [500] })
    .toBe(200);

  // What the browser refuses (a call CORS blocks, a socket the content security policy stops) it says in the console.
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /CORS|Content Security Policy|WebSocket/i.test(message.text())) refusals.push(message.text());
  });
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/') || url.pathname.startsWith('/exchange/') || url.pathname.startsWith('/market/')) apiCalls.push(url.origin);
  });

  await page.goto(`${appOrigin}/`);
  await waitForApp(page);
  await demoSession(page);
  await page.goto(`${appOrigin}/BTCUSDT/place?direction=0`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Buy · Bitcoin');
  // The price comes over the market socket to the other origin, and moves.
  const current = page.getByTestId('place-current');
  await expect(current).toHaveText(/^[\d,]+\.\d{2}$/);
  const first = await current.textContent();
  await expect(current).not.toHaveText(first ?? '', { timeout: 15_000 });
  // The balance and the order over the API on the other origin; the position arrives over the
  // exchange socket there, its profit moving, and is closed through the API there.
  const orderNo = await buyFromPlaceFormAndViewPosition(page);
  await expectMovingProfitThenClose(page, orderNo);

  expect(refusals).toEqual([]);
  expect(apiCalls.length).toBeGreaterThan(0);
  expect(new Set(apiCalls)).toEqual(new Set([apiOrigin]));
});
