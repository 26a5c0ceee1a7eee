import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { adoptTokens, createSession, waitForApp } from './support';

/**
 * A real HEIC photo (HEVC in an ISO-BMFF container, as iPhones save them): 96 × 64, its
 * left half red and its right half blue, made with libheif's heif-enc from a generated JPEG
 * (tests/fixtures/README.md says how).
 */
const iphonePhoto = fs.readFileSync(new URL('../fixtures/iphone-photo.heic', import.meta.url));

declare global {
  interface Window {
    __uploadedProof?: { name: string; type: string; base64: string };
  }
}

test('an iPhone photo picked as deposit proof is converted to JPEG in the browser (heic2any) and accepted by the server @mobile', async ({ page }) => {
  test.setTimeout(90_000);
  // Converted under the app's own content security policy, with no violation reported.
  const policyErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /content security policy|refused to/i.test(message.text())) policyErrors.push(message.text());
  });
  // Chromium does not show the test a request body that carries a file: the page notes the
  // proof it sends (the request client calls the global fetch).
  await page.addInitScript(() => {
    const send = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const proof = init?.body instanceof FormData ? init.body.get('depositProof') : null;
      if (proof instanceof File) {
        const bytes = new Uint8Array(await proof.arrayBuffer());
        window.__uploadedProof = { name: proof.name, type: proof.type, base64: btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join('')) };
      }
      return send(input, init);
    };
  });
  await page.goto('/');
  await waitForApp(page);
  await adoptTokens(page, await createSession(page));
  await page.goto('/user/deposit');
  await page.getByTestId('deposit-coin').selectOption({ label: 'USDT · TRC20' });
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Deposit amount').fill('1200');

  await page.getByTestId('deposit-proof-input').setInputFiles({ name: 'IMG_0412.HEIC', mimeType: 'image/heic', buffer: iphonePhoto });
  // The preview shows the converted photo: Chromium cannot draw HEIC itself.
  const preview = page.getByRole('img', { name: 'Deposit proof' });
  await expect(preview).toBeVisible({ timeout: 30_000 });
  expect(policyErrors).toEqual([]);
  expect(await preview.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight])).toEqual([96, 64]);

  await page.getByLabel('I have read and agree to the').check();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deposit submitted. It is credited once reviewed.' })).toBeVisible();

  // What went to the server is a JPEG named after the photo, with the photo's pixels.
  const proof = await page.evaluate(() => window.__uploadedProof);
  expect(proof?.name).toBe('IMG_0412.jpg');
  expect(proof?.type).toBe('image/jpeg');
  const bytes = Buffer.from(proof?.base64 ?? '', 'base64');
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([96, 64]);
  const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
  const [leftRed, , leftBlue] = pixel(10, 32);
  const [rightRed, , rightBlue] = pixel(86, 32);
  expect(leftRed).toBeGreaterThan(180);
  expect(leftBlue).toBeLessThan(80);
  expect(rightBlue).toBeGreaterThan(180);
  expect(rightRed).toBeLessThan(80);
  expect(policyErrors).toEqual([]);
});
