/**
 * `npx tsx bench/captcha-ocr.ts [count]`: how often a stock OCR (tesseract, as installed by
 * `apt-get install tesseract-ocr`) reads the sign-up captcha, against the SVG captcha it
 * replaced (rasterized the same way). A read is an exact answer by any of three simple
 * attempts: the image as it is (one line, one word) and a black-and-white threshold of it,
 * each limited to the captcha's alphabet.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { captchaImage, captchaText } from '../server/modules/identity/captcha-image';

const run = promisify(execFile);
const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The SVG captcha before this change (server/modules/identity/captcha-image.ts at 30e00b4), for the baseline. */
function previousSvgCaptcha(text: string): Buffer {
  const glyphs = [...text]
    .map((char, index) => {
      const x = 14 + index * 22 + crypto.randomInt(-3, 4);
      const y = 30 + crypto.randomInt(-5, 6);
      return `<text x="${x}" y="${y}" transform="rotate(${crypto.randomInt(-25, 26)} ${x} ${y})" fill="hsl(${crypto.randomInt(0, 360)},55%,35%)" font-family="monospace" font-size="24" font-weight="700">${char}</text>`;
    })
    .join('');
  const noise = Array.from({ length: 5 }, () => `<line x1="${crypto.randomInt(0, 130)}" y1="${crypto.randomInt(0, 44)}" x2="${crypto.randomInt(0, 130)}" y2="${crypto.randomInt(0, 44)}" stroke="hsl(${crypto.randomInt(0, 360)},50%,55%)" stroke-width="1.5"/>`).join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="130" height="44" viewBox="0 0 130 44"><rect width="100%" height="100%" fill="#f1f5f9"/>${noise}${glyphs}</svg>`);
}

async function ocr(file: string, pageMode: '7' | '8'): Promise<string> {
  // One thread: the machine's cores are for the server (and tesseract's threads only fight each other on a 200-pixel image).
  const { stdout } = await run('tesseract', [file, 'stdout', '--psm', pageMode, '-c', `tessedit_char_whitelist=${alphabet}`], { encoding: 'utf8', env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
  return stdout.replace(/\s/g, '').toUpperCase();
}

/** Whether any simple attempt reads `text` exactly from the PNG, and the characters in place of the best attempt. */
export async function readsCaptcha(png: Buffer, text: string, directory: string): Promise<{ read: boolean; charactersRight: number }> {
  const plain = path.join(directory, `${crypto.randomUUID()}.png`);
  const threshold = path.join(directory, `${crypto.randomUUID()}.png`);
  await fs.writeFile(plain, png);
  await sharp(png).greyscale().threshold(150).toFile(threshold);
  const answers = await Promise.all([ocr(plain, '7'), ocr(plain, '8'), ocr(threshold, '7')]);
  await Promise.all([fs.rm(plain), fs.rm(threshold)]);
  const right = (answer: string) => [...text].filter((char, index) => answer[index] === char).length;
  return { read: answers.includes(text), charactersRight: Math.max(...answers.map(right)) };
}

export async function runCaptchaOcrBench(count: number) {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'captcha-ocr-'));
  const tally = { svg: { read: 0, characters: 0 }, raster: { read: 0, characters: 0 } };
  try {
    for (let index = 0; index < count; index += 1) {
      const text = captchaText();
      // The old SVG as a browser shows it on a phone (2×), so the OCR gets a fair size.
      const svg = await sharp(previousSvgCaptcha(text), { density: 144 }).png().toBuffer();
      const raster = Buffer.from((await captchaImage(text)).split(',')[1]!, 'base64');
      for (const [name, png] of [['svg', svg], ['raster', raster]] as const) {
        const outcome = await readsCaptcha(png, text, directory);
        tally[name].read += outcome.read ? 1 : 0;
        tally[name].characters += outcome.charactersRight;
      }
    }
  } finally {
    await fs.rm(directory, { recursive: true, force: true });
  }
  const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
  const rows = (['svg', 'raster'] as const).map((name) => [name === 'svg' ? 'SVG captcha (before)' : 'raster captcha (sharp)', `${tally[name].read} of ${count}`, percent(tally[name].read, count), percent(tally[name].characters, count * 5)]);
  return { title: `Captcha read by tesseract (${count} captchas)`, rows, header: ['captcha', 'read exactly', 'hit rate', 'characters right'] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runCaptchaOcrBench(Number(process.argv[2] ?? 100));
  console.log([`### ${result.title}`, '', `| ${result.header.join(' | ')} |`, `|${result.header.map(() => '---').join('|')}|`, ...result.rows.map((row) => `| ${row.join(' | ')} |`)].join('\n'));
}
