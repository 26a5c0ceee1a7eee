import type { BrandConfig } from '../../shared/config/brand-config';

export type ColourScheme = 'light' | 'dark';

const upDownColours = {
  0: { up: '#16a34a', down: '#dc2626' },
  1: { up: '#dc2626', down: '#16a34a' },
} as const;

/** Loads the scheme's stylesheet (from `public/themes/`) and resolves once it applies. */
export function applyColourScheme(scheme: ColourScheme): Promise<void> {
  const id = 'theme-stylesheet';
  const href = `/themes/${scheme}.css`;
  let link = document.getElementById(id) as HTMLLinkElement | null;
  document.documentElement.dataset.scheme = scheme;
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
  const style = document.documentElement.style;
  const colours = upDownColours[config.upDownTemplate];
  style.setProperty('--accent', themeColour);
  style.setProperty('--up', colours.up);
  style.setProperty('--down', colours.down);
}
