import { expect, test, type Page } from '@playwright/test';
import { adoptTokens, demoSession, waitForApp } from './support';

/**
 * The desktop top bar fits from 992 to 1920 px: secondary controls fold into "More" as the
 * bar runs out of room, the account switch, the user card and the trade mode never do.
 */

/** A known unread count, so the user card carries its badge whatever notices the server has. */
async function withUnreadNotices(page: Page, count: number) {
  await page.route('**/v1/waa/notice/unreadCount', (route) => route.fulfill({ json: { code: 0, msg: '', data: { count } } }));
}

/** The top bar's controls that overlap one another or leave the window, by their text or name. */
async function topBarMisfits(page: Page): Promise<string[]> {
  return page.locator('header.top-bar').evaluate((bar) => {
    const name = (element: Element) => (element.getAttribute('aria-label') ?? element.textContent ?? element.className).trim().slice(0, 40);
    const boxes = [...bar.children]
      // The row's controls; a dialog one of them opened floats over the page.
      .filter((child) => !child.classList.contains('top-bar-spacer') && !['fixed', 'absolute'].includes(getComputedStyle(child).position))
      .map((child) => ({ name: name(child), box: child.getBoundingClientRect() }))
      .filter((each) => each.box.width > 0);
    const misfits: string[] = [];
    for (const [index, each] of boxes.entries()) {
      if (each.box.left < 0 || each.box.right > window.innerWidth + 0.5) misfits.push(`${each.name}: off-screen`);
      for (const other of boxes.slice(index + 1)) {
        const apart = each.box.right <= other.box.left + 0.5 || other.box.right <= each.box.left + 0.5;
        if (!apart) misfits.push(`${each.name} overlaps ${other.name}`);
      }
    }
    // Text cut inside a control (a button or link narrower than what it holds).
    for (const control of bar.querySelectorAll('button, a')) {
      if (control.scrollWidth > control.clientWidth + 1) misfits.push(`${name(control)}: cut`);
    }
    return misfits;
  });
}

async function expectInsideWindowAndUncovered(page: Page, what: ReturnType<Page['getByRole']>) {
  await expect(what).toBeVisible();
  const box = (await what.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  // What is drawn at its centre is the control itself (or inside it): nothing lies on top.
  const covered = await what.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return top === null || !(element === top || element.contains(top));
  });
  expect(covered).toBe(false);
}

/**
 * Chooses a language from the bar's picker, or from "More" when the picker has folded. The bar
 * may fold the picker between a look and a click (the signed-in controls arrive after the first
 * paint), so each try is short and a try that lost the picker is made again the other way.
 */
async function chooseLanguage(page: Page, name: string) {
  const picker = page.getByRole('button', { name: /^(Language|Sprache|ภาษา|言語): / });
  const more = page.getByRole('button', { name: /^(More|Mehr|เพิ่มเติม|その他)$/ });
  await expect(async () => {
    await page.keyboard.press('Escape'); // a list or menu left open by a lost try
    if (await picker.isVisible()) {
      await picker.click({ timeout: 2_000 });
      await page.getByRole('option', { name }).click({ timeout: 2_000 });
    } else {
      await more.click({ timeout: 2_000 });
      await page.getByRole('menuitemradio', { name }).click({ timeout: 2_000 });
    }
  }).toPass({ timeout: 20_000 });
}

test('at 1024×768 and 1280×800 signed in, the account switch, the user card and its badge are on screen and uncovered, and folded controls work from "More" @desktop', async ({ page }) => {
  test.setTimeout(90_000);
  await withUnreadNotices(page, 12);
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Bitcoin' })).toBeVisible();
    if ((await page.locator('html').getAttribute('lang')) !== 'en') await chooseLanguage(page, 'English');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    const bar = page.locator('header.top-bar');
    const accountSwitch = bar.getByRole('group', { name: 'Account' });
    const userCard = bar.locator('.user-card');
    const badge = bar.getByRole('status', { name: 'Notifications: 12 unread' });
    await expect(badge).toHaveText('12');
    await expect(accountSwitch.getByRole('button', { name: 'Demo' })).toHaveAttribute('aria-pressed', 'true');
    for (const control of [accountSwitch.getByRole('button', { name: 'Real' }), accountSwitch.getByRole('button', { name: 'Demo' }), userCard, badge, bar.getByRole('button', { name: 'Option' })]) {
      await expectInsideWindowAndUncovered(page, control);
    }
    expect(await topBarMisfits(page)).toEqual([]);

    // The theme, phone view and language have given way to "More", a menu that still does their work.
    await expect(bar.getByRole('button', { name: 'Phone view' })).toHaveCount(0);
    const more = bar.getByRole('button', { name: 'More' });
    await expect(more).toHaveAttribute('aria-haspopup', 'menu');
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.click();
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('menu', { name: 'More' });
    await expect(menu.getByRole('menuitem', { name: 'Phone view' })).toBeVisible();
    await page.screenshot({ path: `test-results/screens/top-bar-${size.width}-more-menu.png` });
    await expect(page.locator('html')).toHaveAttribute('data-scheme', 'light');
    await menu.getByRole('menuitem', { name: 'Dark' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-scheme', 'dark');
    await expect(menu).toBeHidden();
    await expect(more).toBeFocused();

    // The keyboard reaches every item; Escape closes and returns to the button.
    await more.press('Enter');
    const items = menu.locator('[role^="menuitem"]');
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('End');
    await expect(items.last()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(more).toBeFocused();

    // The indicator dialog opens from the bar or, folded, from the menu, and stays open: a dialog takes no room in the bar.
    const indicators = bar.getByRole('button', { name: 'Indicators' });
    if (await indicators.isVisible()) await indicators.click();
    else {
      await more.click();
      await menu.getByRole('menuitem', { name: 'Indicators' }).click();
    }
    const indicatorDialog = page.getByRole('dialog', { name: 'Indicators' });
    const ema = indicatorDialog.getByRole('group', { name: 'Main indicators' }).getByRole('switch', { name: 'EMA' });
    const emaBefore = await ema.getAttribute('aria-checked');
    await ema.click();
    await expect(ema).toHaveAttribute('aria-checked', emaBefore === 'true' ? 'false' : 'true');
    expect(await topBarMisfits(page)).toEqual([]);
    await indicatorDialog.getByRole('button', { name: 'Close' }).click();
    await expect(indicatorDialog).toBeHidden();

    // Back to light through the menu, then German from it: the bar fits again in the longer words.
    await more.click();
    await menu.getByRole('menuitem', { name: 'Light' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-scheme', 'light');
    await chooseLanguage(page, 'Deutsch');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(bar.getByRole('status', { name: /12/ })).toBeVisible();
    await expectInsideWindowAndUncovered(page, bar.getByRole('group', { name: 'Konto' }));
    await expectInsideWindowAndUncovered(page, userCard);
    expect(await topBarMisfits(page)).toEqual([]);
    await page.screenshot({ path: `test-results/screens/top-bar-${size.width}-de.png` });
  }
});

test('from 992 to 1920 px, in English, German, Thai and Japanese, signed out and in, on the terminal and the quotation page, nothing in the top bar is cut, overlapped or off screen @desktop', async ({ page }) => {
  test.setTimeout(180_000);
  await withUnreadNotices(page, 3);
  await page.goto('/');
  await waitForApp(page);
  const widths = [992, 1024, 1100, 1280, 1366, 1440, 1600, 1920];
  const languages = [
    ['en', 'English'],
    ['de', 'Deutsch'],
    ['th', 'ไทย'],
    ['ja', '日本語'],
  ] as const;
  for (const signedIn of [false, true]) {
    if (signedIn) {
      await adoptTokens(page, await demoSession(page));
    }
    for (const [code, name] of languages) {
      await page.setViewportSize({ width: 1440, height: 800 });
      await page.goto('/');
      await waitForApp(page);
      if ((await page.locator('html').getAttribute('lang')) !== code) await chooseLanguage(page, name);
      await expect(page.locator('html')).toHaveAttribute('lang', code);
      for (const path of ['/', '/quotation']) {
        if (path !== '/') await page.getByRole('navigation').first().getByRole('link').nth(1).click();
        for (const width of widths) {
          await page.setViewportSize({ width, height: 800 });
          await expect.poll(() => topBarMisfits(page), { message: `${code} ${signedIn ? 'signed in' : 'signed out'} ${path} at ${width}` }).toEqual([]);
          if (signedIn) await expect(page.locator('header.top-bar .user-card')).toBeVisible();
          if ([1024, 1280, 1440].includes(width) && ['en', 'de', 'th'].includes(code) && path === '/') {
            await page.screenshot({ path: `test-results/screens/top-bar-${signedIn ? 'in' : 'out'}-${code}-${width}.png`, clip: { x: 0, y: 0, width, height: 120 } });
          }
        }
      }
    }
  }
});
