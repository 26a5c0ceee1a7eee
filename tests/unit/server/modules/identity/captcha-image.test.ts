import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readsCaptcha } from '../../../../../bench/captcha-ocr';
import { captchaHeight, captchaImage, captchaText, captchaWidth } from '../../../../../server/modules/identity/captcha-image';

function hasTesseract(): boolean {
  try {
    execFileSync('tesseract', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const pngOf = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

describe('the sign-up captcha', () => {
  it('is a PNG raster at twice the size the form shows, and its answer is nowhere in the bytes', async () => {
    const text = captchaText();
    const image = await captchaImage(text);
    expect(image.startsWith('data:image/png;base64,')).toBe(true);
    const png = pngOf(image);
    const meta = await sharp(png).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'png', width: captchaWidth, height: captchaHeight });
    expect(png.toString('latin1')).not.toContain(text);
    // Two captchas of one text differ (the distortion and the noise are drawn anew).
    expect(pngOf(await captchaImage(text)).equals(png)).toBe(false);
  });

  // tesseract is a system package (apt-get install tesseract-ocr): the check runs where it is installed.
  it.skipIf(!hasTesseract())('is not read by a stock OCR (tesseract): none of 10', async () => {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'captcha-test-'));
    try {
      let read = 0;
      for (let index = 0; index < 10; index += 1) {
        const text = captchaText();
        if ((await readsCaptcha(pngOf(await captchaImage(text)), text, directory)).read) read += 1;
      }
      expect(read).toBe(0);
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  }, 300_000);
});
