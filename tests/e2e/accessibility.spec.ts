import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { adoptTokens, createSession, demoSession, isDesktop, waitForApp } from './support';

/** What axe checks: WCAG 2.0, 2.1 and 2.2 at A and AA, and its best practices. No rule is switched off. */
const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const visitorScreens = ['/', '/quotation', '/search', '/explore', '/BTCUSDT/chart', '/EURUSD/place', '/BTCUSDT/placeOption', '/login', '/register', '/forgot', '/user/service'];
const accountScreens = [
  '/position',
  '/history',
  '/user',
  '/user/account',
  '/user/changePassword',
  '/user/twoFactor',
  '/user/verified',
  '/user/juniorVerified',
  '/user/notification',
  '/user/myWallet',
  '/user/wallet',
  '/user/wallet/crypto',
  '/user/wallet/addCrypto',
  '/user/wallet/bankCard',
  '/user/wallet/addBankCard',
  '/user/wallet/transactionList',
  '/user/wallet/depositList',
  '/user/deposit',
  '/user/agreement',
  '/user/withdraw',
  '/user/invite',
  '/user/standards',
  '/user/privacy',
];

interface Finding {
  screen: string;
  rule: string;
  impact: string | null | undefined;
  nodes: string[];
}

async function scan(page: Page, screen: string, findings: Finding[]) {
  await page.goto(screen);
  await waitForApp(page);
  // Lists and balances fill in from the server: scan what the user reads, not the loading state.
  await expect(page.getByText('Loading…', { exact: true })).toHaveCount(0);
  const result = await new AxeBuilder({ page }).withTags(axeTags).analyze();
  for (const violation of result.violations) {
    findings.push({ screen, rule: violation.id, impact: violation.impact, nodes: violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`) });
  }
}

test('every screen meets WCAG 2.2 AA (axe-core) in light and dark, as a visitor and signed in', async ({ page }) => {
  test.setTimeout(240_000);
  const findings: Finding[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.goto('/BTCUSDT/chart');
    await waitForApp(page);
    if (scheme === 'dark') await page.getByRole('button', { name: 'Dark' }).first().click();
    for (const screen of visitorScreens) await scan(page, `${screen}`, findings);
    const session = await createSession(page);
    await adoptTokens(page, session);
    for (const screen of accountScreens) await scan(page, screen, findings);
    await page.evaluate(() => (window as unknown as { __tradeweb: { engine: { signOut(reason: string): Promise<unknown> } } }).__tradeweb.engine.signOut('logout'));
    findings.forEach((finding) => (finding.screen = finding.screen.startsWith('[') ? finding.screen : `[${scheme}] ${finding.screen}`));
  }
  const summary = findings.map((finding) => `${finding.screen} ${finding.rule} (${finding.impact}): ${finding.nodes.join(' | ')}`).join('\n');
  console.log(`${isDesktop(page) ? 'desktop' : 'mobile'} axe findings: ${findings.length}\n${summary}`);
  expect(findings, summary).toEqual([]);
});

/** Presses Tab until `target` has the focus: it is reachable by keyboard in the page's order (or the test fails). */
async function tabTo(page: Page, target: Locator, limit = 150) {
  for (let press = 0; press < limit; press += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reachable by Tab in ${limit} presses: ${target.toString()}`);
}

test('keyboard only: a market order placed, then closed from the positions grid with its confirmation, without the mouse @desktop', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  await page.goto('/BTCUSDT/place?direction=0');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Buy · Bitcoin');

  const volume = page.getByLabel('Volume (lots)');
  await tabTo(page, volume);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('0.10');
  await tabTo(page, page.getByRole('button', { name: 'Buy', exact: true }));
  await page.keyboard.press('Enter');
  const placed = page.getByRole('region', { name: 'Order placed' });
  await expect(placed.getByTestId('placed-order')).toHaveText(/^\d{16}$/);
  const orderNo = (await placed.getByTestId('placed-order').textContent()) ?? '';
  await tabTo(page, placed.getByRole('button', { name: 'View position' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/position$/);

  const close = page.getByRole('row', { name: new RegExp(orderNo) }).getByRole('button', { name: 'Close position' });
  await tabTo(page, close);
  await page.keyboard.press('Enter');
  // The confirmation takes the focus; Tab reaches Confirm inside it, Enter closes the position.
  const confirmation = page.getByRole('dialog', { name: 'Close position' });
  await tabTo(page, confirmation.getByRole('button', { name: 'Confirm' }), 6);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Operation successful')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(orderNo) })).toHaveCount(0);
});
