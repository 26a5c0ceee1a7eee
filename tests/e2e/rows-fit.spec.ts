import { expect, test, type Page } from '@playwright/test';
import { roundDecimal } from '../../src/shared/format/amount';
import { formatMoney, money } from '../../src/shared/money/money';
import { callApi, demoSession, isDesktop, placeDemo, waitForApp } from './support';

/**
 * History and positions rows never clip: in English, German, Japanese and Thai, on the phone
 * (390×844) and on desktops (1280×720, 1440×900), every text in a row fits its box and stays
 * inside its row and the viewport, with long product names and a void's long result present.
 * The long names and the void come added to the server's own history answers (no product is
 * named that long, and a void needs a settlement without a price); positions and pending
 * orders are the demo account's real ones.
 */

const languages = ['en', 'de', 'ja', 'th'] as const;
type Language = (typeof languages)[number];

const longName = 'Brent Crude Oil Spot (Rolling Contract, ICE Futures Europe)';
const longJapaneseName = '日経平均株価二二五先物期近ミニ取引所証拠金取引';

interface Misfit {
  text: string;
  problem: 'clipped' | 'outside-row' | 'off-screen';
}

/**
 * Every element of a row with text of its own (a name, a price, a result's words): its box
 * (the nearest that is not inline) must not scroll its content (scrollWidth ≤ clientWidth),
 * and its text must sit inside its row and inside the viewport. A grid row wider than its
 * panel scrolls sideways on purpose: there only what is in view is held to the viewport.
 */
function misfitsInRows(page: Page): Promise<Misfit[]> {
  return page.evaluate(() => {
    const misfits: { text: string; problem: 'clipped' | 'outside-row' | 'off-screen' }[] = [];
    const rows = document.querySelectorAll<HTMLElement>('.history-row, .order-row, .virtual-grid-body .virtual-grid-row');
    for (const row of rows) {
      const rowRect = row.getBoundingClientRect();
      const scroller = row.closest<HTMLElement>('.virtual-grid-scroller');
      const visible = scroller ? scroller.getBoundingClientRect() : { left: 0, right: window.innerWidth };
      for (const element of row.querySelectorAll<HTMLElement>('*')) {
        const ownText = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join('').trim();
        if (ownText === '' || element.closest('.visually-hidden')) continue;
        const rect = element.getBoundingClientRect();
        if (rect.width === 0) continue;
        let box: HTMLElement | null = element;
        while (box && getComputedStyle(box).display === 'inline') box = box.parentElement;
        if (box && box.scrollWidth > box.clientWidth + 0.5) misfits.push({ text: ownText, problem: 'clipped' });
        // Each box up to the row holds it: a cell that hides what overflows must not hide this text.
        for (let outer = element.parentElement; outer && outer !== row.parentElement; outer = outer.parentElement) {
          const bounds = outer.getBoundingClientRect();
          if (rect.left < bounds.left - 0.5 || rect.right > bounds.right + 0.5 || rect.top < bounds.top - 0.5 || rect.bottom > bounds.bottom + 0.5) {
            misfits.push({ text: ownText, problem: 'outside-row' });
            break;
          }
        }
        if (rect.bottom > rowRect.bottom + 0.5) misfits.push({ text: ownText, problem: 'outside-row' });
        const inView = rect.right > visible.left && rect.left < visible.right;
        if (inView && !scroller && (rect.left < -0.5 || rect.right > window.innerWidth + 0.5)) misfits.push({ text: ownText, problem: 'off-screen' });
      }
    }
    return misfits;
  });
}

/** The app's stored preferences (idb-keyval, as preferences.ts names them): the language and the trade mode, read at start. */
async function choosePreferences(page: Page, change: { language: Language; tradeMode: 'market' | 'option' }) {
  await page.evaluate(async (given) => {
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
      const write = store.put({ ...(current ?? {}), ...given }, 'preferences');
      write.onsuccess = () => resolve();
      write.onerror = () => reject(write.error);
    });
    db.close();
  }, change);
}

async function open(page: Page, path: string, change: { language: Language; tradeMode: 'market' | 'option' }) {
  await choosePreferences(page, change);
  await page.goto(path);
  await waitForApp(page);
  await page.waitForFunction((language) => document.documentElement.lang === language, change.language);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** A closed market order as `order/historyMock` answers one, with a long name and a large loss. */
function closedOrder(uid: string, productName: string) {
  const at = Date.now() - 60_000;
  return {
    id: Number(uid.slice(-6)), uid, orderType: 1, buyPoint: 2, status: 3, positionStatus: 3, tradePair: 'BTCUSDT', productName, orderQuantity: '12.50', lever: 20,
    securityDepositInitial: '123456.78', openingPrice: '66886.04', limitPrice: null, currentPrice: null, closingPrice: '67901.5', stopPrice: '70000',
    takeProfitPrice: '60000', profitLoss: '-123456.78', feeAmount: '1234.56', overnightFee: '0.00', closeReason: 'stop_out', orderTime: at, orderTimeTs: at, transactionTime: at, transactionTimeTs: at,
    closingTimeTs: at + 30_000, closableAfterTime: null,
  };
}

/** A settled option as `option/orderList` answers one: a void (amount and fee refunded) or a win. */
function settledOption(uid: string, productName: string, result: 'void' | 'win') {
  const at = Date.now() - 120_000;
  return {
    id: Number(uid.slice(-6)), uid, orderType: result === 'void' ? 1 : 0, tradePair: 'BTCUSDT', productName, optionsProductId: 1, price: '66886.04', priceTime: at,
    priceEnd: result === 'void' ? null : '66990.1', priceEndTime: result === 'void' ? null : at + 300_000, feeAmount: '250', timeLong: 300, beginTime: at,
    endTime: at + 300_000, completeTime: at + 301_000, amount: '25000', rate: '0.875', winLost: result === 'void' ? '0' : '21875',
    status: 1, positionStatus: 1, result, voidReason: result === 'void' ? 'no-price' : null,
  };
}

/** The server's own history answers with the long rows added. */
async function addLongRows(page: Page) {
  await page.route('**/v1/waa/order/historyMock', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { code: number; data: { list: unknown[] } };
    if (json.code === 0) json.data.list.unshift(closedOrder('9000000000000001', longName), closedOrder('9000000000000002', longJapaneseName));
    await route.fulfill({ response, json });
  });
  await page.route('**/v1/waa/option/orderList', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { code: number; data: { items: unknown[] } };
    const body = route.request().postDataJSON() as { positionStatus?: number };
    if (json.code === 0 && body.positionStatus === 1) {
      json.data.items.unshift(settledOption('9100000000000001', longName, 'void'), settledOption('9100000000000002', longJapaneseName, 'win'), settledOption('9100000000000003', 'Bitcoin', 'void'));
    }
    await route.fulfill({ response, json });
  });
}

/** Two open demo positions, one closed, and a pending buy under the price. */
async function demoOrders(page: Page, token: string) {
  await placeDemo(page, token, { orderQuantity: '1.25', orderType: 0 });
  await placeDemo(page, token, { orderQuantity: '0.75', orderType: 1 });
  const closing = await placeDemo(page, token, { orderQuantity: '0.10' });
  expect((await callApi(page, '/exchange/closeOrderMock', token, { orderId: closing })).code).toBe(0);
  // A buy limit at 80 % of the bid waits (inside the pending band), worked out exactly.
  const bid = ((await callApi(page, '/market/thumb/BTCUSDT', token)).data as { bidPrice: string }).bidPrice;
  const limit = roundDecimal(formatMoney((money(bid) * 8n) / 10n), 2) ?? '';
  await placeDemo(page, token, { buyPoint: 1, price: limit, orderQuantity: '2.00' });
}

async function expectRowsFit(page: Page, what: string) {
  await expect(page.locator('.history-row, .order-row, .virtual-grid-body .virtual-grid-row').first()).toBeVisible();
  expect(await misfitsInRows(page), what).toEqual([]);
}

const sizes = [
  { width: 390, height: 844, tag: '@mobile' },
  { width: 1280, height: 720, tag: '@desktop' },
  { width: 1440, height: 900, tag: '@desktop' },
] as const;

for (const size of sizes) {
  test(`history and positions rows clip nothing at ${size.width}×${size.height} in en, de, ja and th ${size.tag}`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await addLongRows(page);
    await page.goto('/');
    await waitForApp(page);
    const demo = await demoSession(page);
    await demoOrders(page, demo.token);

    for (const language of languages) {
      await open(page, '/history', { language, tradeMode: 'market' });
      await expect(page.getByText(longName).first()).toBeVisible();
      await expectRowsFit(page, `${language}: market history`);

      await open(page, '/history', { language, tradeMode: 'option' });
      await expect(page.getByTestId('option-history-result-9100000000000001')).toBeVisible();
      await expectRowsFit(page, `${language}: option history`);

      await open(page, '/position', { language, tradeMode: 'market' });
      await expectRowsFit(page, `${language}: open positions`);
      // The pending tab: the second of the positions tabs (phone list and desktop board alike).
      await page.locator('.position-tabs button').nth(1).click();
      await expect(page.locator('.history-row, .order-row, .virtual-grid-body .virtual-grid-row')).toHaveCount(1);
      await expectRowsFit(page, `${language}: pending orders`);
    }
    expect(isDesktop(page)).toBe(size.width >= 992);
  });
}
