import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { adoptTokens, callApi, createSession, isDesktop, outboxCode, waitForApp } from './support';

/** A 240 × 240 PNG in one colour: the avatar picked from the device. */
function avatarPng(colour: { r: number; g: number; b: number }) {
  return sharp({ create: { width: 240, height: 240, channels: 3, background: colour } }).png().toBuffer();
}

/** The colour of the centre pixel of the avatar the page shows (its image has loaded). */
async function shownAvatarColour(page: Page) {
  const image = page.locator('.account-avatar [data-testid="user-avatar"] img');
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
  return image.evaluate((element: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = element.naturalWidth;
    canvas.height = element.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(element, 0, 0);
    const [r, g, b] = context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
    return { r: r!, g: g!, b: b! };
  });
}

const near = (actual: { r: number; g: number; b: number }, expected: { r: number; g: number; b: number }) =>
  Math.abs(actual.r - expected.r) < 12 && Math.abs(actual.g - expected.g) < 12 && Math.abs(actual.b - expected.b) < 12;

async function clipboardText(page: Page) {
  return page.evaluate(() => navigator.clipboard.readText());
}

test('the profile: nickname and avatar changed and shown, invite code and link copied, standards and privacy, log out through the confirmation', async ({ page, context, browser, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await waitForApp(page);
  const session = await createSession(page);
  await adoptTokens(page, session);
  await page.goto('/user');

  const menu = page.getByRole('navigation', { name: 'Account menu' });
  await menu.getByRole('link', { name: 'Profile', exact: true }).click();
  await expect(page).toHaveURL(/\/user\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  // The nickname is required: nothing is sent without one.
  const nickname = page.getByRole('textbox', { name: 'Nickname' });
  await expect(nickname).not.toHaveValue('');
  await nickname.fill('   ');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Please enter nickname', { exact: true }).and(page.locator('.field-error'))).toBeVisible();

  // A new avatar and nickname: the picked image previews, Done keeps both.
  const teal = { r: 20, g: 160, b: 150 };
  await page.getByTestId('avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await avatarPng(teal) });
  await nickname.fill('Morning Trader');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Updated successfully')).toBeVisible();

  // Read back from the server with the owner's token (an <img> cannot send it): the same picture.
  await page.reload();
  await expect(nickname).toHaveValue('Morning Trader');
  expect(near(await shownAvatarColour(page), teal)).toBe(true);
  // Anyone else's request for it is refused.
  const info = (await callApi(page, '/v1/waa/user/info', session.token)).data as { avator: string; inviteCode: string };
  expect(info.avator).toMatch(/^\/v1\/waa\/file\//);
  expect((await page.request.get(info.avator)).status()).toBe(401);
  await page.screenshot({ path: `test-results/screens/account-${page.viewportSize()?.width}.png` });

  // The hub shows the new nickname and avatar too.
  await page.goto('/user');
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile).toContainText('Morning Trader');
  await expect(profile.locator('[data-testid="user-avatar"] img')).toHaveAttribute('src', /^blob:/);

  // The desktop account page copies the invite code and the service e-mail; the phone's does not show them.
  await menu.getByRole('link', { name: 'Profile', exact: true }).click();
  if (isDesktop(page)) {
    await expect(page.getByTestId('account-invite-code')).toHaveText(info.inviteCode);
    await page.locator('.account-row-copy', { has: page.getByTestId('account-invite-code') }).getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => clipboardText(page)).toBe(info.inviteCode);
    await expect(page.getByTestId('account-service-email')).toHaveText('support@tradeweb.example');
    await page.locator('.account-row-copy', { has: page.getByTestId('account-service-email') }).getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => clipboardText(page)).toBe('support@tradeweb.example');
  } else {
    await expect(page.getByRole('link', { name: 'Privacy policy' })).toBeVisible();
    await expect(page.getByTestId('account-invite-code')).toHaveCount(0);
    await expect(page.getByTestId('account-service-email')).toHaveCount(0);
  }
  // An e-mail account has an e-mail: no bind-e-mail row.
  await expect(page.getByRole('link', { name: 'Bind e-mail' })).toHaveCount(0);

  // The invite screen: the code and the sign-up link to copy, nobody invited yet.
  // The page's own row (on desktop the account menu beside it has an entry of that name too).
  await page.locator('.page').getByRole('link', { name: 'Invite friends' }).click();
  await expect(page).toHaveURL(/\/user\/invite$/);
  const link = `${baseURL}/register?inviteCode=${info.inviteCode}`;
  await expect(page.getByTestId('invite-code')).toHaveText(info.inviteCode);
  await expect(page.getByTestId('invite-link')).toHaveText(link);
  await expect(page.getByTestId('invited-count')).toHaveText('0');
  await page.getByRole('button', { name: 'Copy code' }).click();
  await expect.poll(() => clipboardText(page)).toBe(info.inviteCode);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect.poll(() => clipboardText(page)).toBe(link);
  await page.screenshot({ path: `test-results/screens/invite-${page.viewportSize()?.width}.png` });

  // A friend opening the link finds the code filled in on the sign-up form and signs up with it.
  const friend = await browser.newContext({ viewport: page.viewportSize() });
  const friendPage = await friend.newPage();
  await friendPage.goto(link);
  const friendEmail = `friend-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await friendPage.getByLabel('E-mail', { exact: true }).fill(friendEmail);
  await friendPage.getByRole('button', { name: 'Send code' }).click();
  await expect(friendPage.getByLabel('Invitation code (optional)')).toHaveValue(info.inviteCode);
  await friendPage.getByLabel('Verification code').fill(await outboxCode(friendPage, friendEmail));
  await friendPage.getByLabel('Password', { exact: true }).fill('friend password 1');
  await friendPage.getByRole('button', { name: 'Create account' }).click();
  await expect(friendPage.getByText('Your account is ready. Please sign in.')).toBeVisible();
  await friend.close();
  await page.reload();
  await expect(page.getByTestId('invited-count')).toHaveText('1');

  // The static pages.
  await page.goto('/user');
  await menu.getByRole('link', { name: 'Trading standards' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Best execution' })).toBeVisible();
  // The page states no figure the configuration decides: the fee is the order form's.
  await expect(page.getByText('Every trade shows its fee on the order form before you confirm. No hidden mark-ups and no account fees.')).toBeVisible();
  await page.goto('/user');
  await menu.getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page.getByText('Effective date: 2018-12-14')).toBeVisible();
  await expect(page.getByText(/at least 16 years old/)).toBeVisible();

  // Log out: cancelling the confirmation keeps the session; confirming ends it, then the sign-in screen.
  await page.goto('/user/account');
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('dialog', { name: 'Log out' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/user\/account$/);
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('dialog', { name: 'Log out' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const check = await page.request.post('/v1/waa/user/checkToken', { data: {}, headers: { authorization: `Bearer ${session.token}` } });
  expect(((await check.json()) as { code: number }).code).not.toBe(0);
});

test('the standards and privacy pages in Japanese, and the agreement states the age of 18', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Language: English' }).first().click();
  await page.getByRole('option', { name: '日本語' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'ログイン' })).toBeVisible();
  const session = await createSession(page);
  await adoptTokens(page, session);
  await page.goto('/user/standards');
  await expect(page.getByRole('heading', { level: 2, name: '最良執行' })).toBeVisible();
  await page.screenshot({ path: `test-results/screens/standards-ja-${page.viewportSize()?.width}.png` });
  await page.goto('/user/privacy');
  await expect(page.getByText('施行日：2018-12-14')).toBeVisible();
  await expect(page.getByText(/16歳以上/)).toBeVisible();
  await page.goto('/user/agreement');
  await expect(page.getByText(/18歳以上/)).toBeVisible();
});
