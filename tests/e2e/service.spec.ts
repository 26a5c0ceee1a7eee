import { expect, test } from '@playwright/test';
import { waitForApp } from './support';

test('customer service offers its channels to visitors and opens the chat in a draggable floating dialog', async ({ page }) => {
  await page.goto('/user/service');
  await waitForApp(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Customer service' })).toBeVisible();
  const cards = page.locator('.service-card');
  await expect(cards).toHaveCount(3);
  await expect(cards.nth(1).getByRole('link', { name: 'Open' })).toHaveAttribute('href', 'https://t.me/tradeweb_support');
  await expect(cards.nth(2).getByRole('link', { name: 'Open' })).toHaveAttribute('href', 'https://wa.me/18005550100');
  await expect(page.getByRole('link', { name: 'support@tradeweb.example' })).toHaveAttribute('href', 'mailto:support@tradeweb.example');

  await page.getByRole('button', { name: 'Start chat' }).click();
  const chat = page.getByRole('dialog', { name: 'Online service' });
  await expect(chat.locator('iframe[title="Online service"]')).toBeVisible();
  // The chat's own page loads in the frame: the content security policy allows its origin.
  await expect(chat.frameLocator('iframe[title="Online service"]').getByText('Support chat: how can we help?')).toBeVisible();
  await expect(chat.getByRole('link', { name: 'Telegram' })).toBeVisible();
  await expect(chat.getByRole('link', { name: 'WhatsApp' })).toBeVisible();
  await expect(chat.getByRole('link', { name: 'E-mail' })).toHaveAttribute('href', 'mailto:support@tradeweb.example');
  await page.screenshot({ path: `test-results/screens/service-${page.viewportSize()?.width}.png` });

  // Dragging the title bar moves the dialog, which stays inside the window.
  const before = Number(await chat.getAttribute('data-y'));
  const box = (await chat.locator('.floating-dialog-bar').boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 40, box.y + box.height / 2 - 150, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => Number(await chat.getAttribute('data-y'))).toBeLessThan(before - 100);
  await chat.locator('.floating-dialog-bar').focus();
  for (let press = 0; press < 60; press += 1) await page.keyboard.press('ArrowUp');
  await expect(chat).toHaveAttribute('data-y', '8');

  await chat.getByRole('button', { name: 'Close' }).click();
  await expect(chat).toHaveCount(0);
});
