import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { demoSession, waitForApp } from './support';

/**
 * Issue 33: the ticket's submit is in sight and not covered at every supported size (phone
 * 360×640 and up, desktop 1280×720 and up, both desktop templates), in English, German and
 * Japanese; after placing, no toast covers the submit or the result card's buttons; the
 * account strip shows the margin level.
 */
const languages = ['en', 'de', 'ja'] as const;
type Language = (typeof languages)[number];
const locales = Object.fromEntries(
  languages.map((language) => [language, JSON.parse(fs.readFileSync(`src/shared/i18n/locales/${language}.json`, 'utf8')) as Record<string, Record<string, string>>]),
) as Record<Language, Record<string, Record<string, string>>>;

/** A string of the language's file (the app's own words, so the test reads what the trader reads). */
function say(language: Language, key: string): string {
  const [area = '', name = ''] = key.split('.');
  const value = locales[language][area]?.[name];
  if (value === undefined) throw new Error(`no ${key} in ${language}`);
  return value;
}

/** The app's stored preferences (idb-keyval, as preferences.ts names them) with this language. */
async function chooseLanguage(page: Page, language: Language) {
  await page.evaluate(async (language) => {
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
      const write = store.put({ ...(current ?? {}), language }, 'preferences');
      write.onsuccess = () => resolve();
      write.onerror = () => reject(write.error);
    });
    db.close();
  }, language);
}

/** Fully inside the viewport, and the element at its centre is itself or inside it (nothing lies over it). */
async function expectReachable(page: Page, target: Locator, what: string) {
  const box = await target.boundingBox();
  expect(box, `${what} has a box`).not.toBeNull();
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  if (!box) return;
  expect(box.x, `${what}: left edge in view`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what}: top edge in view`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge in view`).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box.y + box.height, `${what}: bottom edge in view`).toBeLessThanOrEqual(viewport.height + 0.5);
  const onTop = await target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
  expect(onTop, `${what}: the element at its centre`).toBe(true);
}

/** No toast on screen overlaps any of `targets` (the toasts read in one go: one may leave meanwhile). */
async function expectNoToastOver(page: Page, targets: Locator[], what: string) {
  const boxes = [];
  for (const target of targets) {
    const box = await target.boundingBox();
    if (box) boxes.push({ ...box, name: (await target.textContent()) ?? '' });
  }
  const covered = await page.evaluate((boxes) => {
    const toasts = [...document.querySelectorAll('.toast-host > *')].map((toast) => ({ rect: toast.getBoundingClientRect(), text: toast.textContent ?? '' }));
    const overlaps: string[] = [];
    for (const { rect, text } of toasts) {
      for (const box of boxes) {
        if (rect.left < box.x + box.width && box.x < rect.right && rect.top < box.y + box.height && box.y < rect.bottom) overlaps.push(`"${text}" over ${box.name}`);
      }
    }
    return overlaps;
  }, boxes);
  expect(covered, `${what}: toasts over the ticket's buttons`).toEqual([]);
}

/** Places a buy from the ticket on screen and checks what the brief asks of the submit, the toasts and the result card. */
async function placeAndCheck(page: Page, ticket: Locator, language: Language, what: string) {
  const submit = ticket.getByRole('button', { name: say(language, 'market.buy'), exact: true }).last();
  await expect(submit).toBeEnabled();
  await expectReachable(page, submit, `${what}: the submit`);
  await submit.click();
  const placed = ticket.getByRole('region', { name: say(language, 'trade.placed_title') });
  await expect(placed.getByTestId('placed-price')).toHaveText(/\d/);
  // The success toast says the same as the card; wait for it so that the check below sees it.
  await expect(page.locator('.toast-host').getByRole('status').first()).toBeVisible();
  const cardButtons = [placed.getByRole('button', { name: say(language, 'common.close') }), placed.getByRole('button', { name: say(language, 'trade.view_position') })];
  for (const button of cardButtons) await expectReachable(page, button, `${what}: the result card's ${await button.textContent()}`);
  await expectReachable(page, submit, `${what}: the submit after placing`);
  await expectNoToastOver(page, [submit, ...cardButtons], what);
}

/** The strip's margin level: a percentage once a position uses margin. */
async function expectMarginLevel(page: Page, language: Language) {
  const strip = page.getByRole('region', { name: say(language, 'strip.label') });
  await expect(strip.getByText(say(language, 'strip.margin_level'), { exact: true })).toBeVisible();
  await expect(strip.getByTestId('strip-margin-level')).toHaveText(/^[\d,.]+ %$/);
}

const phoneSizes = [
  { width: 390, height: 844 },
  { width: 360, height: 640 },
];

test('@mobile the phone ticket: the submit in sight and not covered, the result card and its buttons clear of toasts, the margin level in the strip', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  for (const size of phoneSizes) {
    await page.setViewportSize(size);
    for (const language of languages) {
      const what = `${size.width}×${size.height} ${language}`;
      await chooseLanguage(page, language);
      await page.goto('/BTCUSDT/place?direction=0');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await placeAndCheck(page, page.locator('main'), language, what);
      await expectMarginLevel(page, language);
    }
  }
});

const desktopCases = [
  { width: 1280, height: 720, template: 0 },
  { width: 1280, height: 720, template: 1 },
  { width: 1440, height: 900, template: 0 },
] as const;

test('@desktop the workspace ticket in both templates: the submit in sight and not covered, the result card clear of toasts, the margin level in the strip', async ({ page }) => {
  test.setTimeout(300_000);
  let template: 0 | 1 = 0;
  await page.route('**/config.json', async (route) => {
    const answer = await route.fetch();
    await route.fulfill({ response: answer, json: { ...((await answer.json()) as object), desktopTemplate: template } });
  });
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  for (const size of desktopCases) {
    template = size.template;
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const language of languages) {
      const what = `${size.width}×${size.height} template ${size.template} ${language}`;
      await chooseLanguage(page, language);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator(`.desktop-layout.template-${size.template}`)).toBeVisible();
      // The chart's big Buy opens the ticket beside it.
      const chart = page.getByRole('region', { name: 'Bitcoin' });
      await chart.getByRole('button', { name: say(language, 'market.buy'), exact: true }).click();
      const ticket = page.getByRole('region', { name: `${say(language, 'page.place')} · Bitcoin` });
      await expect(ticket).toBeVisible();
      await placeAndCheck(page, ticket, language, what);
      await expectMarginLevel(page, language);
    }
  }
});
