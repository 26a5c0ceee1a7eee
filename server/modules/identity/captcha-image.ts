import crypto from 'node:crypto';
import sharp from 'sharp';

/** Characters that cannot be confused with one another (no 0/O, 1/l/I). */
const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function captchaText(length = 5): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += alphabet[crypto.randomInt(alphabet.length)];
  return text;
}

/** Twice the size the form shows it at (104 × 36), so that it stays sharp on phones. */
export const captchaWidth = 208;
export const captchaHeight = 72;

const between = (low: number, high: number) => low + crypto.randomInt(0, 1_000_001) * ((high - low) / 1_000_000);

/** A curve across the image in the glyphs' own colours, so a filter by colour or width cannot remove it. */
function clutterCurve(strokeWidth: number, colour: string): string {
  const y = () => between(6, captchaHeight - 6).toFixed(1);
  return `<path d="M -5 ${y()} C ${between(40, 80).toFixed(1)} ${y()}, ${between(120, 170).toFixed(1)} ${y()}, ${captchaWidth + 5} ${y()}" fill="none" stroke="${colour}" stroke-width="${strokeWidth.toFixed(1)}"/>`;
}

/**
 * The picture the raster is made from: overlapping glyphs, each turned, shifted, scaled
 * and outlined in its own dark tone, crossed by curves of the same tones, on a mottled
 * background; then a turbulence displacement bends every stroke. No part of the text
 * is in the file as text once it is rasterized.
 */
function captchaSvg(text: string): string {
  const tones = Array.from({ length: text.length }, () => `hsl(${crypto.randomInt(0, 360)},${crypto.randomInt(45, 75)}%,${crypto.randomInt(22, 38)}%)`);
  const step = (captchaWidth - 36) / text.length;
  const glyphs = [...text]
    .map((char, index) => {
      const x = 22 + index * step + between(-4, 4);
      const y = 52 + between(-8, 8);
      const angle = between(-26, 26);
      const size = between(38, 48);
      const skew = between(-14, 14);
      const family = crypto.randomInt(2) === 0 ? 'DejaVu Sans, Noto Sans, sans-serif' : 'DejaVu Serif, Noto Serif, serif';
      return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" transform="rotate(${angle.toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)}) skewX(${skew.toFixed(1)})" font-family="${family}" font-size="${size.toFixed(1)}" font-weight="700" fill="${tones[index]}" stroke="${tones[(index + 1) % tones.length]}" stroke-width="1.2">${char}</text>`;
    })
    .join('');
  const curves = Array.from({ length: 4 }, (_, index) => clutterCurve(between(1.4, 2.4), tones[index % tones.length]!)).join('');
  const blots = Array.from({ length: 26 }, () => {
    const colour = `hsl(${crypto.randomInt(0, 360)},40%,${crypto.randomInt(55, 85)}%)`;
    return `<ellipse cx="${between(0, captchaWidth).toFixed(1)}" cy="${between(0, captchaHeight).toFixed(1)}" rx="${between(4, 18).toFixed(1)}" ry="${between(3, 12).toFixed(1)}" fill="${colour}" opacity="0.55"/>`;
  }).join('');
  const seed = crypto.randomInt(1, 10_000);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${captchaWidth}" height="${captchaHeight}" viewBox="0 0 ${captchaWidth} ${captchaHeight}">
<defs><filter id="bend" x="-10%" y="-10%" width="120%" height="120%">
<feTurbulence type="turbulence" baseFrequency="${between(0.015, 0.025).toFixed(3)} ${between(0.03, 0.05).toFixed(3)}" numOctaves="2" seed="${seed}" result="noise"/>
<feDisplacementMap in="SourceGraphic" in2="noise" scale="${between(5, 7).toFixed(1)}" xChannelSelector="R" yChannelSelector="G"/>
</filter></defs>
<rect width="100%" height="100%" fill="hsl(${crypto.randomInt(0, 360)},30%,92%)"/>${blots}
<g filter="url(#bend)">${curves}${glyphs}</g></svg>`;
}

/** Salt-and-pepper speckle over the raster: a few percent of the pixels set to a random grey. */
function speckle(pixels: Buffer, channels: number): void {
  for (let offset = 0; offset < pixels.length; offset += channels) {
    if (crypto.randomInt(0, 100) >= 7) continue;
    const grey = crypto.randomInt(0, 2) === 0 ? crypto.randomInt(0, 90) : crypto.randomInt(170, 256);
    for (let channel = 0; channel < 3; channel += 1) pixels[offset + channel] = grey;
  }
}

/**
 * The captcha as a PNG data URL: a raster (sharp), so the answer is nowhere in the
 * answer's bytes, with bent, overlapping glyphs, curves and speckle that a stock OCR
 * does not read (bench/captcha-ocr.ts measures it with tesseract). It slows scripts; the
 * rate limits do the rest.
 */
export async function captchaImage(text: string): Promise<string> {
  const { data, info } = await sharp(Buffer.from(captchaSvg(text))).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  speckle(data, info.channels);
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).png({ compressionLevel: 9, palette: true, colours: 64 }).toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}
