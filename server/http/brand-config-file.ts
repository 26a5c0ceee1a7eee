import fs from 'node:fs';
import path from 'node:path';
import { parseBrandConfig, type BrandConfigResult } from '../../src/shared/config/brand-config';

/** The brand's config.json the server serves at /config.json: the configured file, else the built app's. */
export function brandConfigFileOf(options: { staticDir: string; brandConfigPath: string | null }): string {
  return options.brandConfigPath ?? path.join(options.staticDir, 'config.json');
}

/**
 * The brand's config as the app will read it, once at start; null when there is no file
 * (no built app), or the parse's problems. The server needs its roots (the content
 * security policy) and its default trade mode (which modes the brand offers).
 */
export function readBrandConfigFile(configFile: string): BrandConfigResult | null {
  let text: string;
  try {
    text = fs.readFileSync(configFile, 'utf8');
  } catch {
    return null;
  }
  try {
    return parseBrandConfig(JSON.parse(text));
  } catch {
    return { ok: false, problems: ['not JSON'] };
  }
}
