import { expect, test, type Locator, type Page } from '@playwright/test';
import { adoptTokens, isDesktop, waitForApp } from './support';

/**
 * Long lists at both sizes: 500 live quotation rows and 300 history rows, scrolled from top
 * to bottom and walked with the keyboard, with only a window of rows in the page. The 500
 * products come from a second server with the load-test catalogue
 * (MARKET_LOAD_SYMBOLS, the bench's 500 symbols), so the suite's own server, and what
 * `npm start` shows, keep the seeded catalogue; the history's orders are the suite's server's
 * (it needs no more than BTCUSDT).
 */
const suitePort = Number(process.env.E2E_PORT ?? 8181);
const loadPort = suitePort + 5;
const loadBase = `http://localhost:${loadPort}`;
const loadSymbols = 500;
const historyOrders = 300;
/** The specification's page of history (`historyPageSize`, history-kind.ts). */
const historyPageSize = 10;

const suiteHelper = `http://localhost:${suitePort + 2}`;

// The load catalogue's server is the run's (scripts/e2e-server.mjs starts it on the first ask and
// stops it with the suite's): asked for before the history test, its cold start (migrations, the
// 500 symbols) runs while the history is scrolled, and the second layout project finds it up.
test.beforeAll(async () => {
  expect((await fetch(`${suiteHelper}/load-catalogue?symbols=${loadSymbols}`, { method: 'POST' })).status).toBe(202);
});

/** The rendered rows' places in the whole list (1-based), in DOM order. */
async function placesOf(rows: Locator, attribute: 'aria-posinset' | 'aria-rowindex'): Promise<number[]> {
  return rows.evaluateAll((elements, name) => elements.map((element) => Number(element.getAttribute(name))), attribute);
}

/** Scrolls a scroller by one screenful; whether it had reached its end before. */
async function scrollOneScreen(scroller: Locator): Promise<boolean> {
  return scroller.evaluate((element) => {
    const atEnd = element.scrollTop + element.clientHeight >= element.scrollHeight - 1;
    element.scrollTop += element.clientHeight;
    return atEnd;
  });
}

/** The element is shown whole inside its scroller (to the pixel: a scroller's height may be fractional). */
async function expectShownWhole(element: Locator, scroller: Locator) {
  await expect
    .poll(async () => {
      const [box, frame] = await Promise.all([element.boundingBox(), scroller.boundingBox()]);
      if (!box || !frame) return false;
      return box.y >= frame.y - 1 && box.y + box.height <= frame.y + frame.height + 1;
    })
    .toBe(true);
}

/** Waits until a row's live bid moves away from what it shows now. */
async function expectLiveBid(page: Page, row: Locator) {
  const symbol = await row.getAttribute('data-symbol');
  const bid = page.getByTestId(`quote-bid-${symbol}`);
  await expect(bid).toHaveText(/^[\d,]+\.\d{2}$/);
  const before = await bid.textContent();
  await expect(bid).not.toHaveText(before ?? '', { timeout: 15_000 });
}

/** A history row: the list item on phones, the grid row on desktop. */
function historyRows(page: Page): { rows: Locator; place: 'aria-posinset' | 'aria-rowindex'; offset: number } {
  return isDesktop(page)
    ? { rows: page.getByRole('table', { name: 'Closed orders' }).locator('[role="row"][aria-rowindex]:not([aria-rowindex="1"])'), place: 'aria-rowindex', offset: 1 }
    : { rows: page.getByRole('list', { name: 'Closed orders' }).getByRole('listitem'), place: 'aria-posinset', offset: 0 };
}

/**
 * A demo account holding `count` closed market orders, made through the API once per run by
 * the suite's server script (scripts/e2e-server.mjs, `/history-account`) and shared by both
 * layout projects, which only read it: its sign-in and the order numbers in the order placed.
 */
interface HistoryAccount {
  email: string;
  password: string;
  orders: string[];
  /** The demo session the orders were placed in. */
  demo: { token: string; refreshToken: string };
}

async function historyAccount(count: number): Promise<HistoryAccount> {
  const response = await fetch(`${suiteHelper}/history-account?orders=${count}`, { method: 'POST' });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as HistoryAccount;
}

/**
 * What the history in a scroller shows, read at once: how many rows are loaded (the size every
 * list row tells, the table's row count less its header), how many are in the page, and
 * whether it says there are no more.
 */
async function historyState(scroller: Locator): Promise<{ loaded: number; inPage: number; atEnd: boolean }> {
  return scroller.evaluate((element) => {
    const table = element.closest('[role="table"]');
    const rows = element.querySelectorAll(table ? '[role="row"]:not([aria-rowindex="1"])' : 'li');
    const loaded = table ? Number(table.getAttribute('aria-rowcount')) - 1 : Number(rows[0]?.getAttribute('aria-setsize') ?? 0);
    return { loaded, inPage: rows.length, atEnd: (element.textContent ?? '').includes('No more orders.') };
  });
}

test('300 history rows load page by page as the list scrolls to its end, with only a window of rows in the page; the last row reads in full and the keyboard walks back', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await waitForApp(page);
  const account = await historyAccount(historyOrders);
  // The demo session the orders were placed in: a second switch to demo would be refused (701, demo only once).
  await adoptTokens(page, account.demo);
  const { orders } = account;

  await page.goto('/history');
  const { rows, place, offset } = historyRows(page);
  await expect(rows.first()).toContainText('Bitcoin');
  const scroller = page.locator('.history-scroller, .history-board .virtual-grid-scroller').first();
  // Down to the end: each time the end shows, the next page of 10 loads, until none is left.
  let state = await historyState(scroller);
  while (!state.atEnd) {
    const before = state.loaded;
    await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await expect
      .poll(
        async () => {
          state = await historyState(scroller);
          return state.atEnd || state.loaded > before;
        },
        { intervals: [100] },
      )
      .toBe(true);
    // Whole pages, never more than were placed, and only a window of them in the page.
    expect(state.loaded % historyPageSize).toBe(0);
    expect(state.loaded).toBeLessThanOrEqual(historyOrders);
    expect(state.inPage).toBeLessThan(60);
  }
  expect(state.loaded).toBe(historyOrders);
  // Rows are measured as they render, so the list can grow under a fling: scroll on to the end,
  // as a finger would, until the last row is in the page.
  let places: number[] = [];
  await expect
    .poll(async () => {
      await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      places = await placesOf(rows, place);
      return Math.max(...places) - offset;
    })
    .toBe(historyOrders);
  expect(places.length).toBeLessThan(60);
  // The last row is the first order placed (newest first), in view in full, its product and result readable.
  const last = rows.last();
  await expect(last).toHaveAttribute(place, String(historyOrders + offset));
  await expectShownWhole(last, scroller);
  const oldest = await lastOrderNumber(last);
  expect(orders.slice(0, 3)).toContain(oldest);
  await expect(last).toContainText('Bitcoin');
  await expect(page.getByTestId(`history-pnl-${oldest}`)).toHaveText(/^-?[\d,]+\.\d{2}$/);
  await page.screenshot({ path: `test-results/screens/long-history-end-${page.viewportSize()?.width}.png` });

  // The keyboard walks from the last row to the first and back, each one scrolled into view.
  const focusable = (row: Locator) => (isDesktop(page) ? row : row.getByRole('button'));
  await focusable(last).focus();
  await page.keyboard.press('Home');
  const first = focusable(page.locator(`[${place}="${1 + offset}"]`));
  await expect(first).toBeFocused();
  await expectShownWhole(first, scroller);
  await page.keyboard.press('End');
  const lastAgain = focusable(page.locator(`[${place}="${historyOrders + offset}"]`));
  await expect(lastAgain).toBeFocused();
  await expectShownWhole(lastAgain, scroller);
  await page.keyboard.press('ArrowUp');
  await expect(focusable(page.locator(`[${place}="${historyOrders - 1 + offset}"]`))).toBeFocused();
});

/** The order number a history row names (its label is the product and the number). */
async function lastOrderNumber(row: Locator): Promise<string> {
  const label = (await row.getAttribute('aria-label')) ?? (await row.getByRole('button').getAttribute('aria-label')) ?? '';
  return /(\d{16})$/.exec(label)?.[1] ?? '';
}

test.describe('the load catalogue', () => {
  test.use({ baseURL: loadBase });

  test.beforeAll(async () => {
    // Beside the suite's own server on a shared machine, a cold start can take a few minutes.
    test.setTimeout(240_000);
    await expect
      .poll(async () => (await fetch(`${loadBase}/healthz`).catch(() => null))?.status ?? 0, { timeout: 210_000 })
      .toBe(200);
  });

  test('500 live quotation rows scroll from top to bottom with only a window of rows in the page; the keyboard reaches the last and the first', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/quotation');
    await waitForApp(page);
    await page.getByRole('tablist', { name: 'Product types' }).getByRole('tab', { name: 'Cryptos' }).click();
    const list = page.getByRole('list', { name: 'Cryptos' });
    const rows = list.getByRole('listitem');
    await expect(rows.first()).toContainText('Bitcoin');
    // Screen readers hear the whole list's size on every row, not the rendered few.
    const total = Number(await rows.first().getAttribute('aria-setsize'));
    expect(total).toBeGreaterThanOrEqual(loadSymbols);
    await expect(rows.first()).toHaveAttribute('aria-posinset', '1');

    const scroller = page.locator('.quote-scroller');
    const seen = new Set<number>();
    let screens = 0;
    for (;;) {
      const places = await placesOf(rows, 'aria-posinset');
      // A window: a screenful and the overscan, consecutive, whatever the list's length.
      expect(places.length).toBeLessThan(40);
      expect(places).toEqual(places.map((_, index) => places[0]! + index));
      for (const place of places) seen.add(place);
      // Halfway down, the rows in view still take live quotes.
      if (screens === 20) await expectLiveBid(page, rows.filter({ hasText: /Load \d{3}/ }).nth(4));
      if (await scrollOneScreen(scroller)) break;
      screens += 1;
      // The rows of the new screen are drawn before the next look.
      const shownUpTo = Math.max(...places);
      await expect.poll(async () => Math.max(...(await placesOf(rows, 'aria-posinset')))).toBeGreaterThan(Math.min(shownUpTo, total - 1));
    }
    // Every row was on screen once on the way down, the last one is in view and reads in full.
    expect(seen.size).toBe(total);
    const last = rows.last();
    await expect(last).toHaveAttribute('aria-posinset', String(total));
    await expectShownWhole(last, scroller);
    await expect(last).toContainText(`Load ${String(loadSymbols).padStart(3, '0')}`);
    await expectLiveBid(page, last);
    await page.screenshot({ path: `test-results/screens/long-quotation-end-${page.viewportSize()?.width}.png` });

    // The keyboard: Home goes to the first row, End to the last, the arrows one by one, each scrolled into view.
    await last.getByRole('button').focus();
    await page.keyboard.press('Home');
    const first = list.locator('li[aria-posinset="1"]').getByRole('button');
    await expect(first).toBeFocused();
    await expectShownWhole(first, scroller);
    await page.keyboard.press('ArrowDown');
    await expect(list.locator('li[aria-posinset="2"]').getByRole('button')).toBeFocused();
    await page.keyboard.press('End');
    const end = list.locator(`li[aria-posinset="${total}"]`).getByRole('button');
    await expect(end).toBeFocused();
    await expectShownWhole(end, scroller);
    expect((await placesOf(rows, 'aria-posinset')).length).toBeLessThan(40);
  });
});
