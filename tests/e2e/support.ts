import { expect, type Page } from '@playwright/test';
import { SignJWT } from 'jose';
import { e2eJwtSecret } from '../../playwright.config';

/** An access token signed like the server's, for a session without the sign-in screens. */
export async function accessTokenFor(uid: number, virtualStatus = 0): Promise<string> {
  return new SignJWT({ uid, virtualStatus, aesKey: 'e2e-aes-key-0001' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(e2eJwtSecret));
}

interface EngineHandle {
  signIn(tokens: { token: string; refreshToken: string }): Promise<unknown>;
  signOut(reason: string): Promise<unknown>;
}

/** Signs the browser in through the data engine, as the sign-in screen does once it succeeds. */
export async function signInThroughEngine(page: Page, uid: number, virtualStatus = 0) {
  const token = await accessTokenFor(uid, virtualStatus);
  await page.waitForFunction(() => '__tradeweb' in window);
  await page.evaluate(
    (tokens) => (window as unknown as { __tradeweb: { engine: EngineHandle } }).__tradeweb.engine.signIn(tokens),
    { token, refreshToken: 'e2e-refresh' },
  );
}

export async function signOutThroughEngine(page: Page) {
  await page.evaluate(() =>
    (window as unknown as { __tradeweb: { engine: EngineHandle } }).__tradeweb.engine.signOut('logout'),
  );
}

export function isDesktop(page: Page): boolean {
  return (page.viewportSize()?.width ?? 0) >= 992;
}

/** The app has booted when a page (or the desktop workspace) is on screen. */
export async function waitForApp(page: Page) {
  await expect(page.locator('.page-header, .page, .workspace').first()).toBeVisible();
}

/**
 * BTCUSDT's live price where the start page shows it: the hot card's sell price on
 * phones, the chart panel's price on the desktop workspace (BTCUSDT by default).
 */
export function startPagePrice(page: Page) {
  return isDesktop(page) ? page.getByRole('region', { name: 'Bitcoin' }).getByTestId('chart-price') : page.getByTestId('bid-BTCUSDT');
}
