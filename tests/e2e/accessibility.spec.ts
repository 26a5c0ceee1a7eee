import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { adoptTokens, createSession, isDesktop, waitForApp } from './support';

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
