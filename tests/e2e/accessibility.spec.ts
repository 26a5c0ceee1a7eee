import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { adoptTokens, callApi, createSession, demoSession, e2eStaffMember, fundTradingAccount, isDesktop, staffTotp, waitForApp } from './support';

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

/** States behind an interaction on a screen of the walk, scanned after the screen itself: dialogs and drawers while open. */
const opened: Record<string, { state: string; open: (page: Page) => Promise<void> }> = {
  '/user/myWallet': {
    state: 'transfer drawer',
    open: async (page) => {
      await page.getByRole('button', { name: 'Transfer in' }).first().click();
      await expect(page.getByRole('dialog', { name: /^Transfer .* into the trading account$/ })).toBeVisible();
    },
  },
};

async function scan(page: Page, screen: string, findings: Finding[]) {
  await page.goto(screen);
  await waitForApp(page);
  // A screen's code arrives on demand, and lists and balances fill in from the server: scan
  // what the user reads, not the loading states.
  await expect(page.getByRole('progressbar', { name: 'Loading…' })).toHaveCount(0);
  await expect(page.getByText('Loading…', { exact: true })).toHaveCount(0);
  await analyze(page, screen, findings);
  const interaction = opened[screen];
  if (interaction) {
    await interaction.open(page);
    await analyze(page, `${screen} (${interaction.state})`, findings);
  }
}

async function analyze(page: Page, screen: string, findings: Finding[]) {
  const result = await new AxeBuilder({ page }).withTags(axeTags).analyze();
  for (const violation of result.violations) {
    findings.push({ screen, rule: violation.id, impact: violation.impact, nodes: violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`) });
  }
}

test('every screen meets WCAG 2.2 AA (axe-core) in light and dark, as a visitor and signed in', async ({ page }) => {
  test.setTimeout(360_000);
  const findings: Finding[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.goto('/BTCUSDT/chart');
    await waitForApp(page);
    if (scheme === 'dark') {
      // The phone's one-row chart toolbar keeps the scheme under More.
      const dark = page.getByRole('button', { name: 'Dark' }).first();
      if (!(await dark.isVisible())) await page.getByRole('button', { name: 'More', exact: true }).first().click();
      await dark.click();
    }
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

/** The console's screens, reached through its own menu and links as an admin would. */
async function scanConsole(page: Page, screen: string, findings: Finding[]) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByText('Loading…', { exact: true })).toHaveCount(0);
  const result = await new AxeBuilder({ page }).withTags(axeTags).analyze();
  for (const violation of result.violations) {
    findings.push({ screen: `[console] ${screen}`, rule: violation.id, impact: violation.impact, nodes: violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`) });
  }
}

// The console is a desktop tool (its issue: desktop, English first), scanned in its light and dark schemes.
test('the staff console meets WCAG 2.2 AA (axe-core): sign-in, the forced password change, every section, a customer, a review item and the dialogs @desktop', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const findings: Finding[] = [];
  // A customer with a decided deposit, so that a customer page and a review item have content.
  await page.goto('/');
  await waitForApp(page);
  const customer = await createSession(page);
  await fundTradingAccount(page, customer.token, '10');

  const member = e2eStaffMember('a11y-admin');
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const office = await context.newPage();
  await office.goto('/staff/');
  await expect(office.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  await scanConsole(office, 'sign-in', findings);
  await office.getByLabel('E-mail').fill(member.email);
  await office.getByLabel('Password').fill(member.oneTimePassword);
  await office.getByLabel('Authenticator code').fill(staffTotp(member));
  await office.getByRole('button', { name: 'Sign in' }).click();
  await expect(office.getByRole('heading', { name: 'Choose your own password' })).toBeVisible();
  await scanConsole(office, 'forced password change', findings);
  await office.getByLabel('Current password').fill(member.oneTimePassword);
  await office.getByLabel('New password', { exact: true }).fill('a11y admin horse battery 7');
  await office.getByLabel('New password again').fill('a11y admin horse battery 7');
  await office.getByRole('button', { name: 'Save the new password' }).click();
  await expect(office.getByRole('heading', { name: `Welcome, ${member.email}` })).toBeVisible();
  await scanConsole(office, 'home', findings);

  const navigation = office.getByRole('navigation', { name: 'Console sections' });
  await navigation.getByRole('link', { name: 'Declarations' }).click();
  await expect(office.getByRole('region', { name: 'My customer accounts' })).toBeVisible();
  await scanConsole(office, 'declarations', findings);
  await navigation.getByRole('link', { name: 'Customers' }).click();
  await office.getByRole('searchbox', { name: 'UID, e-mail or phone' }).fill(customer.email);
  await office.getByRole('button', { name: 'Search' }).click();
  const found = office.getByRole('table', { name: 'Customers found' }).getByRole('row', { name: new RegExp(customer.email.replace(/[.+]/g, '\\$&')) });
  await expect(found).toBeVisible();
  await scanConsole(office, 'customers found', findings);
  await found.getByRole('link').click();
  await expect(office.getByRole('region', { name: 'Balances' })).toBeVisible();
  await scanConsole(office, 'customer', findings);
  await office.getByRole('button', { name: 'Prohibit trading' }).click();
  await expect(office.getByRole('dialog', { name: 'Prohibit trading' })).toBeVisible();
  await scanConsole(office, 'prohibit dialog', findings);
  await office.keyboard.press('Escape');
  await expect(office.getByRole('dialog')).toHaveCount(0);

  await navigation.getByRole('link', { name: 'Review queues' }).click();
  await expect(office).toHaveURL(/\/staff\/queues\/deposit/);
  await scanConsole(office, 'deposit queue', findings);
  // The decided funding deposit's page, with its proof image and decision history.
  const uid = ((await callApi(page, '/v1/waa/user/info', customer.token)).data as { uid: number }).uid;
  const tokens = JSON.parse((await office.evaluate(() => sessionStorage.getItem('tradeweb-staff-tokens'))) ?? '{}') as { token: string };
  const decided = (await callApi(office, '/v1/staff/reviews/list', tokens.token, { kind: 'deposit', status: 'approved', page: 1, limit: 50 })).data as { list: { id: number; uid: number }[] };
  const item = decided.list.find((entry) => entry.uid === uid);
  expect(item, 'the funding deposit is in the approved list').toBeDefined();
  await office.goto(`/staff/queues/deposit/${item!.id}`);
  await expect(office.getByRole('img').first()).toBeVisible();
  await scanConsole(office, 'review item', findings);

  for (const [section, screen] of [['Notices', 'notices'], ['Audit trail', 'audit trail'], ['Configuration', 'configuration'], ['Staff', 'staff members']] as const) {
    await navigation.getByRole('link', { name: section }).click();
    await scanConsole(office, screen, findings);
  }
  await office.getByRole('button', { name: 'Add a staff member' }).click();
  await expect(office.getByRole('dialog', { name: 'Add a staff member' })).toBeVisible();
  await scanConsole(office, 'add staff dialog', findings);
  await office.keyboard.press('Escape');
  await office.getByRole('link', { name: 'Change password' }).click();
  await scanConsole(office, 'change password', findings);
  // The same sections in the console's dark scheme.
  await office.getByRole('button', { name: 'Dark', exact: true }).click();
  await expect(office.locator('html')).toHaveAttribute('data-scheme', 'dark');
  await scanConsole(office, '[dark] change password', findings);
  for (const [section, screen] of [['Notices', 'notices'], ['Audit trail', 'audit trail'], ['Configuration', 'configuration'], ['Staff', 'staff members']] as const) {
    await navigation.getByRole('link', { name: section }).click();
    await scanConsole(office, `[dark] ${screen}`, findings);
  }
  await context.close();

  const summary = findings.map((finding) => `${finding.screen} ${finding.rule} (${finding.impact}): ${finding.nodes.join(' | ')}`).join('\n');
  console.log(`console axe findings: ${findings.length}\n${summary}`);
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

/** The focused control shows a ring: its own outline of 2 px or more, or its field's focus shadow. */
async function expectFocusRing(target: Locator) {
  const ring = await target.evaluate((element) => {
    const own = getComputedStyle(element);
    const field = element.closest('.field-control');
    return {
      outline: own.outlineStyle !== 'none' && Number.parseInt(own.outlineWidth, 10) >= 2,
      fieldShadow: field !== null && getComputedStyle(field).boxShadow !== 'none',
    };
  });
  expect(ring.outline || ring.fieldShadow, `no visible focus ring on ${target.toString()}`).toBe(true);
}

test('keyboard only: a market order placed, then closed from the positions grid with its confirmation, without the mouse @desktop', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  await page.goto('/BTCUSDT/place?direction=0');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Buy · Bitcoin');
  // The traded price is spoken once when the form opens, not at every tick.
  const announced = page.getByTestId('announced-once');
  await expect(announced).toHaveText(/^Bitcoin, Buy price now: [\d,]+\.\d+$/);
  const spoken = await announced.textContent();
  const shown = await page.getByTestId('place-current').textContent();
  await expect(page.getByTestId('place-current')).not.toHaveText(shown ?? '', { timeout: 20_000 });
  await expect(announced).toHaveText(spoken ?? '');

  const volume = page.getByLabel('Volume (lots)');
  await tabTo(page, volume);
  await expectFocusRing(volume);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('0.10');
  const buy = page.getByRole('button', { name: 'Buy', exact: true });
  await tabTo(page, buy);
  await expectFocusRing(buy);
  await page.keyboard.press('Enter');
  const placed = page.getByRole('region', { name: 'Order placed' });
  await expect(placed.getByTestId('placed-order')).toHaveText(/^\d{16}$/);
  const orderNo = (await placed.getByTestId('placed-order').textContent()) ?? '';
  await tabTo(page, placed.getByRole('button', { name: 'View position' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/position$/);

  const close = page.getByRole('row', { name: new RegExp(orderNo) }).getByRole('button', { name: 'Close position' });
  await tabTo(page, close);
  await expectFocusRing(close);
  await page.keyboard.press('Enter');
  // The confirmation takes the focus; Tab reaches Confirm inside it, Enter closes the position.
  const confirmation = page.getByRole('dialog', { name: 'Close position' });
  await expect(confirmation).toBeVisible();
  const findings: Finding[] = [];
  await analyze(page, 'close confirmation', findings);
  expect(findings).toEqual([]);
  await tabTo(page, confirmation.getByRole('button', { name: 'Confirm' }), 6);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Operation successful')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(orderNo) })).toHaveCount(0);
});

test('keyboard only: search, open a product, a pending order, an option, and the switch from demo to real @desktop', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);

  // Search and open a product: the desktop workspace takes it.
  await page.goto('/search');
  const keyword = page.getByRole('searchbox', { name: 'Keyword' });
  await tabTo(page, keyword);
  await page.keyboard.type('BTC');
  await page.keyboard.press('Enter');
  const result = page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: 'Bitcoin BTCUSDT' });
  await tabTo(page, result);
  await expectFocusRing(result);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  const chartPanel = page.getByRole('region', { name: 'Bitcoin', exact: true });
  await tabTo(page, chartPanel.getByRole('button', { name: 'Buy' }));
  await page.keyboard.press('Enter');

  // A pending buy order at 80 % of the price: the price type by keyboard, the price typed.
  const panel = page.getByRole('region', { name: 'Place order · Bitcoin' });
  await tabTo(page, panel.getByRole('button', { name: 'Pending order' }));
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('button', { name: 'Pending order' })).toHaveAttribute('aria-pressed', 'true');
  await expect(panel.getByTestId('place-current')).toHaveText(/\d/);
  const ask = Number(((await panel.getByTestId('place-current').textContent()) ?? '').replace(/,/g, ''));
  await tabTo(page, panel.getByLabel('Pending price'));
  await page.keyboard.type(String(Math.floor(ask * 0.8)));
  await tabTo(page, panel.getByLabel('Volume (lots)'));
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('0.10');
  await tabTo(page, panel.getByRole('button', { name: 'Buy', exact: true }).last());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Order placed' }).getByTestId('placed-order')).toHaveText(/^\d{16}$/);

  // An option: the delivery time is a radio (Space picks it), the amount typed, Enter places it; Escape closes its drawer.
  await page.goto('/BTCUSDT/placeOption?direction=0');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rise · Bitcoin');
  const thirty = page.getByRole('radio', { name: /^30s Profit 80%$/ });
  await tabTo(page, thirty);
  await page.keyboard.press('Space');
  await expect(thirty).toBeChecked();
  await tabTo(page, page.getByLabel('Amount', { exact: true }));
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('20');
  await tabTo(page, page.getByRole('button', { name: 'Rise', exact: true }));
  await page.keyboard.press('Enter');
  const progress = page.getByRole('dialog', { name: 'Option in progress' });
  await expect(progress.getByTestId('option-order-id')).toHaveText(/^\d{16,}$/);
  // On desktop it floats beside the page without taking it over: the keyboard reaches its Close.
  await tabTo(page, progress.getByRole('button', { name: 'Close' }));
  await page.keyboard.press('Enter');
  await expect(progress).toHaveCount(0);

  // Demo to real: the account switch and its confirmation, by keyboard.
  await page.goto('/');
  await waitForApp(page);
  const accountSwitch = page.getByRole('group', { name: 'Account' });
  await tabTo(page, accountSwitch.getByRole('button', { name: 'Real' }));
  await page.keyboard.press('Enter');
  const confirmation = page.getByRole('dialog', { name: 'Switch account' });
  await expect(confirmation).toContainText('Switch to the real account?');
  await tabTo(page, confirmation.getByRole('button', { name: 'Confirm' }), 6);
  await page.keyboard.press('Enter');
  await expect(accountSwitch.getByRole('button', { name: 'Real' })).toHaveAttribute('aria-pressed', 'true');
});
