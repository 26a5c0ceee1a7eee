import type { BrandConfig } from '../../shared/config/brand-config';
import { readableTones, type SchemeName } from '../../shared/theme/contrast';

export type ColourScheme = 'light' | 'dark';

const upDownColours = {
  0: { up: '#16a34a', down: '#dc2626' },
  1: { up: '#dc2626', down: '#16a34a' },
} as const;

let brandColours: { accent: string; up: string; down: string } = { accent: '#2f6bff', ...upDownColours[0] };

/**
 * The brand's colours and the readable tones derived from them for the scheme in use:
 * `--x` as the brand gave it (decoration, borders), `--x-text` for text on any surface,
 * `--x-fill` under white text (contrast.ts).
 */
function applyTones(scheme: SchemeName) {
  const style = document.documentElement.style;
  for (const [name, colour] of Object.entries(brandColours)) {
    const tones = readableTones(colour, scheme);
    style.setProperty(`--${name}`, colour);
    style.setProperty(`--${name}-text`, tones.text);
    style.setProperty(`--${name}-fill`, tones.fill);
  }
  applyStatusTones(scheme);
}

let statusScheme: SchemeName = 'light';

/**
 * The trade and option statuses' colours (grey, yellow, blue, red), readable in this scheme.
 * Only history and position screens show them, so their rules load after the first screen
 * (the first-load budget); the latest scheme asked for is the one applied.
 */
function applyStatusTones(scheme: SchemeName) {
  statusScheme = scheme;
  void import('../../shared/trading/status-tones').then(({ statusColours }) => {
    const style = document.documentElement.style;
    for (const [tone, colour] of Object.entries(statusColours(statusScheme))) {
      style.setProperty(`--status-${tone}`, colour.hue);
      style.setProperty(`--status-${tone}-text`, colour.text);
    }
  });
}

function schemeInUse(): SchemeName {
  return document.documentElement.dataset.scheme === 'dark' ? 'dark' : 'light';
}

/** Loads the scheme's stylesheet (from `public/themes/`) and resolves once it applies. */
export function applyColourScheme(scheme: ColourScheme): Promise<void> {
  const id = 'theme-stylesheet';
  const href = `/themes/${scheme}.css`;
  let link = document.getElementById(id) as HTMLLinkElement | null;
  document.documentElement.dataset.scheme = scheme;
  applyTones(scheme);
  if (link && link.getAttribute('href') === href) return Promise.resolve();
  if (!link) {
    link = document.createElement('link');
    link.id = id;
    link.rel = 'stylesheet';
    document.head.append(link);
  }
  const loaded = new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
  });
  link.href = href;
  return loaded;
}

/** The brand's accent colour and its up/down colours (template 0 or 1). */
export function applyBrandColours(config: Pick<BrandConfig, 'upDownTemplate'>, themeColour: string) {
  brandColours = { accent: themeColour, ...upDownColours[config.upDownTemplate] };
  applyTones(schemeInUse());
}
