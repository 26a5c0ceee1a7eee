import { expect, test, type Page } from '@playwright/test';
import { adoptTokens, callApi as api, createSession, demoSession, isDesktop, waitForApp } from './support';

interface OptionView {
  uid: string;
  status: number;
  result: string | null;
  winLost: string | null;
  priceEnd: string | null;
  amount: string;
}

const screen = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/option-${name}-${page.viewportSize()?.width}.png` });

interface DialogRecord {
  titles: string[];
  /** Each title's dialog text as last seen. */
  texts: Record<string, string>;
}

/** Every dialog title that shows, in order, with its text: the settling drawer may show for well under a second. */
async function recordDialogs(page: Page) {
  await page.evaluate(() => {
    const record: DialogRecord = { titles: [], texts: {} };
    (window as unknown as { __dialogs: DialogRecord }).__dialogs = record;
    const look = () => {
      for (const dialog of document.querySelectorAll('[role="dialog"]')) {
        const title = dialog.querySelector('h2')?.textContent ?? '';
        if (record.titles.at(-1) !== title) record.titles.push(title);
        record.texts[title] = dialog.textContent ?? '';
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

const recordedDialogs = (page: Page) => page.evaluate(() => (window as unknown as { __dialogs: DialogRecord }).__dialogs);

/** The drawers an option goes through, the settling one still showing the order and its start price. */
async function expectDrawerSequence(page: Page, uid: string) {
  const record = await recordedDialogs(page);
  expect(record.titles).toEqual(['Option in progress', 'Settling', 'Option result']);
  expect(record.texts.Settling).toContain(uid);
  expect(record.texts.Settling).toMatch(/Start price[\d,]+(\.\d+)?$/);
}

/** Picks the option trade mode: the top bar on desktop, the positions page's header on phones. */
async function chooseOptionMode(page: Page) {
  const group = page.getByRole('group', { name: 'Trade mode' });
  await group.getByRole('button', { name: 'Option' }).click();
  await expect(group.getByRole('button', { name: 'Option' })).toHaveAttribute('aria-pressed', 'true');
}

/** What a settled option shows as its win/loss: +profit on a win, −amount on a loss, 0 otherwise. */
function expectedWinLost(result: string, amount: number, ratePercent: number): string {
  if (result === 'Win') return `+${((amount * ratePercent) / 100).toFixed(2)}`;
  if (result === 'Loss') return `-${amount.toFixed(2)}`;
  return '0.00';
}

test('a 30 s option on the demo account: the form rules, chips and stepper, the countdown, settling, the result, and the settled list', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  await page.goto('/BTCUSDT/placeOption?direction=0');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rise · Bitcoin');
  await expect(page.getByTestId('option-current')).toHaveText(/^[\d,]+(\.\d+)?$/);
  await expect(page.getByTestId('option-available')).toHaveText('100,000.00');
  const submit = page.getByRole('button', { name: 'Rise', exact: true });

  // The ticket starts on the first delivery time (and its minimum amount): nothing to choose before placing.
  const thirty = page.getByRole('radio', { name: /^30s Profit 80%$/ });
  await expect(thirty).toBeChecked();
  await thirty.check();

  const amount = page.getByLabel('Amount', { exact: true });
  await amount.fill('');
  await submit.click();
  await expect(page.getByText('Enter an amount.')).toBeVisible();
  // Digits and one dot only.
  await amount.pressSequentially('12.5.x');
  await expect(amount).toHaveValue('12.5');
  await submit.click();
  await expect(page.getByText('The amount must be a whole number.')).toBeVisible();
  await amount.fill('5');
  await submit.click();
  await expect(page.getByText('The amount must be between 10 and 10000.')).toBeVisible();
  await amount.fill('200000');
  await submit.click();
  await expect(page.getByText('The amount must be between 10 and 10000.')).toBeVisible();

  await page.getByRole('group', { name: 'Preset amounts' }).getByRole('button', { name: '50', exact: true }).click();
  await expect(amount).toHaveValue('50');
  await page.getByRole('button', { name: 'Increase amount' }).click();
  await expect(amount).toHaveValue('51');
  await page.getByRole('button', { name: 'Decrease amount' }).click();
  await expect(amount).toHaveValue('50');
  // 80 % of 50, and the product's 1 % fee.
  await expect(page.getByTestId('option-expected-profit')).toHaveText('40.00');
  await expect(page.getByTestId('option-fee')).toHaveText('0.50');
  await screen(page, 'form');

  await recordDialogs(page);
  await submit.click();
  const progress = page.getByRole('dialog', { name: 'Option in progress' });
  const orderId = progress.getByTestId('option-order-id');
  await expect(orderId).toHaveText(/^\d{16,}$/);
  const uid = (await orderId.textContent()) ?? '';
  await expect(progress.getByTestId('option-start-price')).toHaveText(/^[\d,]+(\.\d+)?$/);
  await expect(progress.getByTestId('option-live-price')).toHaveText(/^[\d,]+(\.\d+)?$/);
  const bar = progress.getByRole('progressbar', { name: 'Time left' });
  const firstProgress = Number(await bar.getAttribute('aria-valuenow'));
  expect(firstProgress).toBeGreaterThan(80);
  const seconds = progress.getByTestId('option-seconds-left');
  await expect(seconds).toHaveText(/^\d{1,2} s left$/);
  const firstSeconds = await seconds.textContent();
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 5_000 }).toBeLessThan(firstProgress);
  await expect(seconds).not.toHaveText(firstSeconds ?? '');
  await screen(page, 'progress');
  // A screen reader hears the countdown at its milestones only, never the running count.
  const announced = progress.getByTestId('option-countdown-announced');
  await expect(announced).toHaveText(/^(|60 s left|30 s left|10 s left)$/);
  await expect(announced).toHaveText('10 s left', { timeout: 40_000 });

  // At 0 the settling drawer, then the result.
  const settling = page.getByRole('dialog', { name: 'Settling' });
  await settling.waitFor({ state: 'visible', timeout: 40_000 }).then(
    () => screen(page, 'settling'),
    () => undefined,
  );
  const result = page.getByRole('dialog', { name: 'Option result' });
  await expect(result).toBeVisible({ timeout: 30_000 });
  const outcome = result.getByTestId('option-result');
  await expect(outcome).toHaveText(/^(Win|Loss|Draw: amount refunded)$/);
  // Read out as it opens: the result is the dialog's description.
  await expect(result).toHaveAccessibleDescription(/^(Win|Loss|Draw: amount refunded)/);
  await expect(result.getByTestId('option-order-id')).toHaveText(uid);
  await expect(result.getByTestId('option-end-price')).toHaveText(/^[\d,]+(\.\d+)?$/);
  await expect(result.getByTestId('option-win-lost')).toHaveText(expectedWinLost((await outcome.textContent()) ?? '', 50, 80));
  await screen(page, 'result');
  await expectDrawerSequence(page, uid);

  // The settled list (history's source) has it with its result.
  const settled = (await api(page, '/v1/waa/option/orderList', demo.token, { page: 1, limit: 10, positionStatus: 1 })).data as { items: OptionView[] };
  const mine = settled.items.find((item) => item.uid === uid);
  expect(mine).toEqual(expect.objectContaining({ status: 1, amount: expect.stringMatching(/^50(\.0+)?$/), priceEnd: expect.stringMatching(/^\d/) }));
  expect(['win', 'loss', 'equal']).toContain(mine?.result);
  await expect(page.getByTestId('option-available')).not.toHaveText('100,000.00');

  // History in option mode: the settled option with its result, the win/loss total, the drawer.
  const resultText = (await outcome.textContent()) ?? '';
  const winLost = expectedWinLost(resultText, 50, 80);
  await page.goto('/history');
  await chooseOptionMode(page);
  const shownResult = page.getByTestId(`option-history-result-${uid}`);
  await expect(shownResult).toContainText(winLost.replace(/^\+/, ''));
  await expect(page.getByTestId('history-pnl')).toHaveText(winLost.replace(/^\+/, ''));
  await page.getByRole(isDesktop(page) ? 'row' : 'button', { name: new RegExp(`Bitcoin ${uid}`) }).click();
  const details = page.getByRole('dialog', { name: 'Bitcoin · Order details' });
  await expect(details).toContainText('Settlement price');
  await expect(details).toContainText('80.00%');
  await expect(details).toContainText('30 s');
  await screen(page, 'history');
});

test('on a real account with no money the form says the balance is insufficient and places nothing', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);
  await page.goto('/BTCUSDT/placeOption?direction=1');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fall · Bitcoin');
  await expect(page.getByTestId('option-available')).toHaveText('0.00');
  await page.getByRole('radio', { name: /^60s Profit 85%$/ }).check();
  await page.getByRole('group', { name: 'Preset amounts' }).getByRole('button', { name: '10', exact: true }).click();
  await expect(page.getByTestId('option-fee')).toHaveText('0.10');
  await page.getByRole('button', { name: 'Fall', exact: true }).click();
  await expect(page.getByText('Insufficient balance: the amount and its fee exceed your available balance.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await screen(page, 'real-insufficient');
  const running = (await api(page, '/v1/waa/option/orderList', session.token, { page: 1, limit: 99999, positionStatus: 0 })).data as { items: OptionView[] };
  expect(running.items).toEqual([]);
});

test('positions in option mode: a running option with its countdown bar, its drawer through to the result, and the row leaving at 0', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForApp(page);
  const demo = await demoSession(page);
  const thumb = (await (await page.request.post('/market/thumb/BTCUSDT', { data: {} })).json()) as { data: { price: string } };
  const products = (await (await page.request.post('/v1/wa-na/option/findOptionsProduct', { data: { productCode: 'BTCUSDT' } })).json()) as { data: { optionsProducts: { id: number }[] } };
  const placed = await api(page, '/exchange/addOptionOrderMock', demo.token, {
    tradePair: 'BTCUSDT',
    optionsProductId: products.data.optionsProducts[0]?.id,
    price: thumb.data.price,
    timeLong: 30,
    btime: Math.floor(Date.now() / 1000),
    rate: '0.8',
    amount: '20',
    orderType: 1,
    clientOrderId: `e2e-option-${Date.now()}`,
  });
  expect(placed.code).toBe(0);
  const uid = (placed.data as { uid: string }).uid;

  await page.goto('/position');
  await chooseOptionMode(page);
  // Desktop keeps market positions in view in either mode: running options are the board's own tab.
  if (isDesktop(page)) await page.getByRole('group', { name: 'Orders' }).getByRole('button', { name: 'Options', exact: true }).click();
  const row = isDesktop(page)
    ? page.getByRole('table', { name: 'Running options' }).getByRole('row', { name: new RegExp(uid) })
    : page.getByRole('list', { name: 'Running options' }).getByRole('listitem').filter({ hasText: 'Bitcoin' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Fall');
  const bar = row.getByRole('progressbar', { name: 'Time left' });
  const first = Number(await bar.getAttribute('aria-valuenow'));
  expect(first).toBeGreaterThan(0);
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 5_000 }).toBeLessThan(first);
  await screen(page, 'positions');

  await recordDialogs(page);
  await (isDesktop(page) ? row : row.getByRole('button')).click();
  const drawer = page.getByRole('dialog', { name: 'Option in progress' });
  await expect(drawer.getByTestId('option-order-id')).toHaveText(uid);
  await expect(drawer.getByRole('progressbar', { name: 'Time left' })).toBeVisible();
  await screen(page, 'position-drawer');

  const result = page.getByRole('dialog', { name: 'Option result' });
  await expect(result).toBeVisible({ timeout: 45_000 });
  await expect(result.getByTestId('option-order-id')).toHaveText(uid);
  const outcome = result.getByTestId('option-result');
  await expect(outcome).toHaveText(/^(Win|Loss|Draw: amount refunded)$/);
  await expect(result.getByTestId('option-win-lost')).toHaveText(expectedWinLost((await outcome.textContent()) ?? '', 20, 80));
  await expectDrawerSequence(page, uid);
  // Its row left the running list at 0.
  await expect(row).toHaveCount(0);
  await result.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText('No running options.')).toBeVisible();
});

test('the workspace place panel shows the option form in option mode, with the up/down tab @desktop', async ({ page }) => {
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  await chooseOptionMode(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  const panel = page.getByRole('region', { name: 'Place option · Bitcoin' });
  await expect(panel).toBeVisible();
  await panel.getByRole('group', { name: 'Direction' }).getByRole('button', { name: 'Fall' }).click();
  // The submit names the price it places at beside its direction.
  await expect(panel.locator('button[type="submit"]')).toHaveText(/^Fall[\d,]+(\.\d+)?$/);
  await expect(panel.getByRole('radio')).toHaveCount(4);
  await expect(panel.getByTestId('option-available')).toHaveText('100,000.00');
  // The order list keeps market positions in option mode; its own tab lists the running options.
  await page.getByRole('group', { name: 'Orders' }).getByRole('button', { name: 'Options', exact: true }).click();
  await expect(page.getByText('No running options.')).toBeVisible();
  await screen(page, 'workspace');
});

test('a closed option product: the button greyed with "Closed"; on phones the chart warns, and the form says closed and goes back to where the user came from', async ({ page }) => {
  // The seeded option products all trade: this one is answered as closed (tradeStatus 0).
  await page.route('**/v1/wa-na/option/findOptionsProduct', async (route) => {
    const response = await route.fetch();
    const answer = (await response.json()) as { data: { optionsProducts: { productCode: string; tradeStatus: number }[] } };
    for (const product of answer.data.optionsProducts) if (product.productCode === 'BTCUSDT') product.tradeStatus = 0;
    await route.fulfill({ response, json: answer });
  });
  await page.goto('/');
  await waitForApp(page);
  await demoSession(page);
  if (isDesktop(page)) {
    await page.goto('/BTCUSDT/placeOption?direction=0');
    await expect(page.getByRole('button', { name: 'Closed', exact: true })).toBeDisabled();
    await expect(page).toHaveURL(/\/BTCUSDT\/placeOption/);
    return;
  }
  // Phones, as a user goes: option mode, the Bitcoin chart from the start page, then Buy.
  await page.goto('/position');
  await chooseOptionMode(page);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' }).click();
  await page.getByTestId('bid-BTCUSDT').click();
  await expect(page).toHaveURL(/\/BTCUSDT\/chart$/);
  // The chart warns instead of offering Rise; the form, reached by its address, says closed and goes back.
  await expect(page.getByRole('status').filter({ hasText: 'Not tradable in option mode' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rise', exact: true })).toHaveCount(0);
  // In-app navigation (a link elsewhere, a bookmark inside the app), so the toast outlives the way back.
  await page.evaluate(() => window.history.pushState(null, '', '/BTCUSDT/placeOption?direction=0'));
  await expect(page.getByRole('alert').filter({ hasText: /^Closed$/ })).toBeVisible();
  await expect(page).toHaveURL(/\/BTCUSDT\/chart$/);
});
