import fs from 'node:fs';
import { parseBrandConfig, type BrandConfigResult } from '../../src/shared/config/brand-config';

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
