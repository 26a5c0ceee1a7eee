import crypto from 'node:crypto';

/** Characters that cannot be confused with one another (no 0/O, 1/l/I). */
const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function captchaText(length = 5): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += alphabet[crypto.randomInt(alphabet.length)];
  return text;
}

/**
 * The captcha as an SVG data URL: each character turned and shifted, crossed by noise
 * lines. It keeps casual scripts out; the rate limits do the rest.
 */
export function captchaImage(text: string): string {
  const width = 130;
  const height = 44;
  const glyphs = [...text]
    .map((char, index) => {
      const x = 14 + index * 22 + crypto.randomInt(-3, 4);
      const y = 30 + crypto.randomInt(-5, 6);
      const angle = crypto.randomInt(-25, 26);
      const hue = crypto.randomInt(0, 360);
      return `<text x="${x}" y="${y}" transform="rotate(${angle} ${x} ${y})" fill="hsl(${hue},55%,35%)" font-family="monospace" font-size="24" font-weight="700">${char}</text>`;
    })
    .join('');
  const noise = Array.from({ length: 5 }, () => {
    const hue = crypto.randomInt(0, 360);
    return `<line x1="${crypto.randomInt(0, width)}" y1="${crypto.randomInt(0, height)}" x2="${crypto.randomInt(0, width)}" y2="${crypto.randomInt(0, height)}" stroke="hsl(${hue},50%,55%)" stroke-width="1.5"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#f1f5f9"/>${noise}${glyphs}</svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
