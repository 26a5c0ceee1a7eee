import { expect, test, type Page } from '@playwright/test';
import { callApi, demoSession, startPagePrice, waitForApp } from './support';

interface Misfit {
  text: string;
  problem: 'clipped' | 'spills' | 'off-screen';
}

/**
 * Every element whose own text is a number (a price, an amount, a percentage) must fit its
 * box (scrollWidth ≤ clientWidth, on the nearest box that is not inline), stay inside each
 * box around it up to one that scrolls sideways (a card must not paint its neighbour over
 * it), and sit inside the viewport unless it is in a box that scrolls sideways on purpose.
 */
function misfitNumbers(page: Page): Promise<Misfit[]> {
  return page.evaluate(() => {
    const numberText = /^[-+]?[\d,]+(\.\d+)?\s?%?$/;
    const misfits: { text: string; problem: 'clipped' | 'spills' | 'off-screen' }[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const ownText = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join('').trim();
      if (!numberText.test(ownText) || !/\d/.test(ownText)) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || element.closest('[aria-hidden="true"]')) continue;
      let box: HTMLElement | null = element;
      while (box && getComputedStyle(box).display === 'inline') box = box.parentElement;
      if (box && box.scrollWidth > box.clientWidth) misfits.push({ text: ownText, problem: 'clipped' });
      let scrolled = false;
      for (let outer = element.parentElement; outer && outer !== document.body; outer = outer.parentElement) {
        const style = getComputedStyle(outer);
        if (style.overflowX === 'auto' || style.overflowX === 'scroll') {
          scrolled = outer.scrollWidth > outer.clientWidth;
          break;
        }
        const bounds = outer.getBoundingClientRect();
        if (rect.left < bounds.left - 0.5 || rect.right > bounds.right + 0.5) {
          misfits.push({ text: ownText, problem: style.overflowX === 'visible' ? 'spills' : 'clipped' });
          break;
        }
        // A pop-up is placed on its own; what holds it says nothing about it.
        if (style.position === 'absolute' || style.position === 'fixed') break;
      }
      if ((rect.left < 0 || rect.right > window.innerWidth + 0.5) && !scrolled) misfits.push({ text: ownText, problem: 'off-screen' });
    }
    return misfits;
  });
}

async function chooseLanguage(page: Page, name: string) {
  const picker = page.getByRole('button', { name: /^(Language|Sprache|ภาษา): / }).first();
  // A desktop top bar short of room (a longer language, the brand's logo) folds the picker into "More".
  const more = page.getByRole('banner').getByRole('button', { name: /^(More|Mehr|เพิ่มเติม)$/ });
  await expect(picker.or(more).first()).toBeVisible();
  if (await picker.isVisible()) {
    await picker.click();
    await page.getByRole('option', { name }).click();
  } else {
    await more.click();
    await page.getByRole('menu').getByRole('menuitemradio', { name }).click();
  }
  await expect(page.locator('html')).not.toHaveAttribute('lang', 'en');
}

test('in German and Thai no price or amount is cut or off-screen on home, chart, place and positions', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const placed = await callApi(page, '/exchange/addOrderMock', demo.token, {
    tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: `e2e-looks-${Date.now()}`,
  });
  expect(placed.code).toBe(0);
  const orderNo = placed.data as string;
  const size = page.viewportSize()?.width ?? 0;

  const volumeTitle = { de: 'Volumen', th: 'ปริมาณ' };
  for (const [code, name] of [['de', 'Deutsch'], ['th', 'ไทย']] as const) {
    await page.goto('/');
    await waitForApp(page);
    await chooseLanguage(page, name);
    await expect(page.locator('html')).toHaveAttribute('lang', code);
    const screens: { path: string; price: () => ReturnType<Page['getByTestId']> }[] = [
      { path: '/', price: () => startPagePrice(page) },
      { path: '/BTCUSDT/chart', price: () => page.getByTestId('chart-price').first() },
      { path: '/BTCUSDT/place?direction=0', price: () => page.getByTestId('place-current') },
      { path: '/position', price: () => page.getByTestId(new RegExp(`^(grid-)?pnl-${orderNo}$`)) },
    ];
    for (const screen of screens) {
      await page.goto(screen.path);
      await waitForApp(page);
      await expect(screen.price()).toHaveText(/\d/);
      await page.screenshot({ path: `test-results/screens/looks-${code}${screen.path.replace(/[/?=]+/g, '-')}-${size}.png` });
      expect.soft(await misfitNumbers(page), `${code} ${screen.path}`).toEqual([]);
      if (screen.path.endsWith('/chart')) {
        // The volume pane is titled in the language ("VOLUME:" stayed English), and no chart tool (the Thai camera) is cut off.
        await expect(page.getByRole('img', { name: /Bitcoin/ }).first()).toHaveAttribute('data-volume-title', volumeTitle[code]);
        // The phone's one row holds period, chart type, indicators and More; the desktop row its tools.
        const tools = page.getByRole('toolbar').first().locator('button, select');
        expect(await tools.count()).toBeGreaterThanOrEqual(4);
        for (const tool of await tools.all()) await expect.soft(tool, `${code} ${(await tool.getAttribute('aria-label')) ?? ''}`).toBeInViewport({ ratio: 1 });
      }
    }
  }
});

test('search shows matching products as the trader types, without Enter', async ({ page }) => {
  await page.goto('/search');
  await waitForApp(page);
  await page.getByLabel('Keyword').pressSequentially('gbp');
  await expect(page.getByRole('button', { name: /GBPUSD/ })).toBeVisible();
  await expect(page).toHaveURL('/search?q=gbp');
  // Enter still runs the search at once.
  await page.getByLabel('Keyword').fill('eur');
  await page.getByLabel('Keyword').press('Enter');
  await expect(page.getByRole('button', { name: /EURUSD/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /GBPUSD/ })).toHaveCount(0);
});

test('the phone header has one height on every tab, with the title at the edge on tab roots @mobile', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  const header = page.locator('.page-header');
  const heights: number[] = [];
  const titleLefts: number[] = [];
  for (const tab of ['Home', 'Position', 'History', 'User']) {
    await page.getByRole('navigation').getByRole('link', { name: tab }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    heights.push((await header.boundingBox())?.height ?? 0);
    titleLefts.push((await page.getByRole('heading', { level: 1 }).boundingBox())?.x ?? -1);
  }
  expect(new Set(heights).size, `heights ${heights.join(', ')}`).toBe(1);
  expect(new Set(titleLefts).size, `title positions ${titleLefts.join(', ')}`).toBe(1);
  // A screen that is not a tab root has a way back.
  await page.goto('/quotation');
  await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
  expect((await header.boundingBox())?.height).toBe(heights[0]);
});
