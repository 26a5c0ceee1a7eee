import { expect, test, type Page } from '@playwright/test';
import { isDesktop, signInThroughEngine, waitForApp } from './support';

/**
 * The app under its own content security policy: every main screen, signed out and in,
 * with no `securitypolicyviolation` event and no CSP error in the console.
 */

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

function watchPolicy(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /content security policy|refused to (load|execute|connect|frame|apply|create)/i.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  return problems;
}

/** The violations the current document recorded (collected before each navigation). */
async function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__cspViolations ?? []);
}

test('home, chart, sign-in, customer service, two-factor set-up and the desktop workspace run under the content security policy without a violation', async ({ page }) => {
  test.setTimeout(90_000);
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  const problems = watchPolicy(page);
  const seen: string[] = [];

  // Home (phones) or the workspace (desktop): a live price arrives through the worker's socket.
  const home = await page.goto('/');
  const policy = home?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  await waitForApp(page);
  if (isDesktop(page)) {
    const chart = page.getByRole('region', { name: 'Bitcoin' }).getByRole('img', { name: 'Price chart of Bitcoin' });
    await expect(chart).toHaveAttribute('data-loaded', '1min');
    await expect(page.getByRole('region', { name: 'Quotation' }).getByRole('list', { name: 'Forex' })).toContainText('EUR/USD');
  } else {
    await expect(page.locator('.hot-card').first()).toBeVisible();
  }
  seen.push(...(await violations(page)));

  // The chart page: KLineChart draws history and the live bar.
  await page.goto('/BTCUSDT/chart');
  await waitForApp(page);
  const chart = page.getByRole('img', { name: 'Price chart of Bitcoin' });
  await expect(chart).toHaveAttribute('data-loaded', '1min');
  await expect.poll(async () => Number(await chart.getAttribute('data-bars'))).toBeGreaterThanOrEqual(300);
  const firstClose = await chart.getAttribute('data-last-close');
  await expect(chart).not.toHaveAttribute('data-last-close', firstClose ?? '', { timeout: 15_000 });
  await page.screenshot({ path: `test-results/screens/csp-chart-${page.viewportSize()?.width}.png` });
  seen.push(...(await violations(page)));

  // The sign-in page.
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  seen.push(...(await violations(page)));

  // Customer service with the chat open: the chat's origin, and only it, may be framed.
  await page.goto('/user/service');
  await page.getByRole('button', { name: 'Start chat' }).click();
  await expect(page.frameLocator('iframe[title="Online service"]').getByText('Support chat: how can we help?')).toBeVisible();
  seen.push(...(await violations(page)));

  // Signed in: the positions socket opens, and the two-factor set-up shows its QR code (a data: image).
  await signInThroughEngine(page);
  await page.goto('/user/twoFactor');
  await page.getByRole('button', { name: 'Set up' }).click();
  const qr = page.getByRole('img', { name: 'QR code to add this account to an authenticator app' });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect
    .poll(async () => ((await (await page.request.get('/healthz')).json()) as { positionsConnections: number }).positionsConnections)
    .toBeGreaterThan(0);
  seen.push(...(await violations(page)));

  if (isDesktop(page)) {
    // The workspace signed in: chart, order panel and the positions list.
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Positions' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Bitcoin' }).getByRole('img', { name: 'Price chart of Bitcoin' })).toHaveAttribute('data-loaded', '1min');
    await page.screenshot({ path: 'test-results/screens/csp-workspace-1440.png' });
    seen.push(...(await violations(page)));
  }

  expect([...seen, ...problems]).toEqual([]);
});
