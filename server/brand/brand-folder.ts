import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import * as mini from 'zod/mini';
import { parseBrandConfig, type BrandConfig } from '../../src/shared/config/brand-config';
import { brandDefaultLanguage, brandPageNames, brandPagesFile, type BrandPagesFile } from '../../src/shared/config/brand-pages';
import { isSwitchName, type SwitchName } from '../../src/shared/config/switches';
import { isLanguageCode, languageCodes } from '../../src/shared/i18n/languages';
import { limitsByLevelInput, limitsProblem, normalisedLimits, type LimitsByLevel } from '../../src/shared/money/withdrawal-limits';
import { parseMoney, money } from '../../src/shared/money/money';
import { parseTimeRatePayload } from '../../src/shared/options/option-rules';
import { instruments } from '../modules/market/catalogue';

/**
 * A brand is a folder (README "Brands"):
 *
 *     config.json   what the app reads at /config.json (src/shared/config/brand-config.ts)
 *     seed.json     what the server stores at its first start: switches, banners, fees, limits
 *     catalogue.json the symbols the brand lists, their names and icons (instruments of server/modules/market/catalogue.ts)
 *     pages/<lang>.json its static pages (standards, privacy, agreement) in each language it writes them in
 *     public/       files served at the site's root: favicon.svg, the logo, banners, trade-type and symbol icons
 *
 * Read once at start and refused whole, naming the file and the field, when anything is
 * missing or wrong: a brand never half-starts.
 */
export interface Brand {
  dir: string;
  /** The config.json served at /config.json: the folder's, or BRAND_CONFIG_PATH's. */
  configFile: string;
  config: BrandConfig;
  publicDir: string;
  seed: BrandSeed;
  /** The symbols the brand lists, in its order. */
  catalogue: BrandSymbol[];
  /** Its static pages by language; the default language's file has every page. */
  pages: Map<string, BrandPagesFile>;
  defaultLanguage: string;
}

/** One symbol of the brand's catalogue: an instrument of the house, the brand's name and icon for it. */
export interface BrandSymbol {
  code: string;
  name: string;
  /** A path on the site, a file of the brand's public/ ("/logos/EURUSD.svg"). */
  icon: string;
  /** Timed options on it (an option product at the brand's first start). */
  options: boolean;
}

/** What the server stores at its first start from the brand (later changes are the staff's). */
export interface BrandSeed {
  /** Over the specification's defaults (src/shared/config/switches.ts `switchDefaults`). */
  switches: Partial<Record<SwitchName, boolean>>;
  banners: string[];
  /** Every option product's fee rate and delivery-time entries (the option form shows both). */
  optionProducts: { feeRate: string; timeRates: Record<string, string> };
  withdrawalLimits: LimitsByLevel;
}

export class BrandFolderError extends Error {
  override name = 'BrandFolderError';
}

const sitePath = z.string().regex(/^\/[^\s?#]+$/, 'expected a path on the site such as /banners/spring.svg');

const seedSchema = z.strictObject({
  switches: z.record(z.string(), z.boolean()).superRefine((switches, context) => {
    for (const name of Object.keys(switches)) {
      if (!isSwitchName(name)) context.addIssue({ code: 'custom', path: [name], message: 'not a switch name of src/shared/config/switches.ts' });
    }
  }),
  banners: z.array(sitePath).min(1),
  optionProducts: z.strictObject({
    feeRate: z.string().refine((value) => {
      const rate = parseMoney(value);
      return rate !== null && rate >= 0n && rate < money('1');
    }, 'expected a decimal rate at least 0 and below 1, e.g. "0.01"'),
    timeRates: z.record(z.string(), z.string()).superRefine((timeRates, context) => {
      const { entries, rejected } = parseTimeRatePayload(timeRates);
      for (const key of rejected) context.addIssue({ code: 'custom', path: [key], message: 'expected timeLong;profitRate;chips;max;min[;name], e.g. "30;80;10|50|100;10000;10;30s", one entry per duration' });
      if (entries.length === 0 && rejected.length === 0) context.addIssue({ code: 'custom', message: 'needs at least one entry' });
    }),
  }),
  withdrawalLimits: z.unknown().superRefine((limits, context) => {
    const parsed = mini.safeParse(limitsByLevelInput, limits);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', path: issue.path.map(String), message: 'expected none, junior and full, each with dailyWithdrawUsd, monthlyWithdrawUsd and depositMaxUsd as decimal strings' });
      return;
    }
    const problem = limitsProblem(normalisedLimits(parsed.data));
    if (problem === 'month_below_day') context.addIssue({ code: 'custom', message: 'a monthly limit is below its daily one' });
    if (problem === 'higher_level_lower') context.addIssue({ code: 'custom', message: 'a higher verification level has a lower limit' });
  }),
});

const instrumentCodes = new Set(instruments.map((instrument) => instrument.code));

const catalogueSchema = z.strictObject({
  symbols: z
    .array(
      z.strictObject({
        code: z.string().refine((code) => instrumentCodes.has(code), 'not an instrument of server/modules/market/catalogue.ts'),
        name: z.string().trim().min(1),
        icon: sitePath,
        /** Timed options on it: the brand's option products at its first start. */
        options: z.boolean(),
      }),
    )
    .min(1)
    .superRefine((symbols, context) => {
      const seen = new Set<string>();
      symbols.forEach((symbol, index) => {
        if (seen.has(symbol.code)) context.addIssue({ code: 'custom', path: [index, 'code'], message: `${symbol.code} is listed twice` });
        seen.add(symbol.code);
      });
    }),
});

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new BrandFolderError(`${file}: missing`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BrandFolderError(`${file}: not JSON (${(error as Error).message})`);
  }
}

function fieldPath(parts: readonly PropertyKey[]): string {
  return parts.map(String).join('.') || '(root)';
}

/**
 * The brand of `BRAND_DIR` (with `BRAND_CONFIG_PATH`, when set, as its config.json), checked:
 * both files valid, and every file they name on the site (favicon, logo, banners, trade-type
 * icons) present in its `public/`, and its margin-call level above `stopOutLevelPercent`. Throws {@link BrandFolderError} naming the file and field.
 */
export function loadBrand(options: { brandDir: string; brandConfigPath: string | null; stopOutLevelPercent: number }): Brand {
  const dir = options.brandDir;
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new BrandFolderError(`BRAND_DIR ${dir}: no such folder`);
  const configFile = options.brandConfigPath ?? path.join(dir, 'config.json');
  const parsedConfig = parseBrandConfig(readJson(configFile));
  if (!parsedConfig.ok) throw new BrandFolderError(`${configFile}: ${parsedConfig.problems.join('; ')}`);
  const config = parsedConfig.config;
  // A margin call at or below stop-out would warn only once the positions are already being closed.
  if (!(config.marginCallLevelPercent > options.stopOutLevelPercent)) {
    throw new BrandFolderError(`${configFile}: marginCallLevelPercent: ${config.marginCallLevelPercent} must be above the stop-out level (STOP_OUT_LEVEL_PERCENT ${options.stopOutLevelPercent})`);
  }
  config.languages.forEach((code, index) => {
    if (!isLanguageCode(code)) throw new BrandFolderError(`${configFile}: languages.${index}: "${code}" is not one of ${languageCodes.join(', ')}`);
  });

  const seedFile = path.join(dir, 'seed.json');
  const parsedSeed = seedSchema.safeParse(readJson(seedFile));
  if (!parsedSeed.success) {
    throw new BrandFolderError(`${seedFile}: ${parsedSeed.error.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join('; ')}`);
  }
  const seed = parsedSeed.data;

  const catalogueFile = path.join(dir, 'catalogue.json');
  const parsedCatalogue = catalogueSchema.safeParse(readJson(catalogueFile));
  if (!parsedCatalogue.success) {
    throw new BrandFolderError(`${catalogueFile}: ${parsedCatalogue.error.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join('; ')}`);
  }
  const catalogue = parsedCatalogue.data.symbols;
  const listed = new Set(catalogue.map((symbol) => symbol.code));
  config.hotProducts.forEach((code, index) => {
    if (!listed.has(code)) throw new BrandFolderError(`${configFile}: hotProducts.${index}: ${code} is not in ${catalogueFile}`);
  });

  const defaultLanguage = brandDefaultLanguage(config);
  const pages = loadPages(path.join(dir, 'pages'), defaultLanguage);

  const publicDir = path.join(dir, 'public');
  const present = (sitePathName: string) => {
    const file = path.join(publicDir, ...sitePathName.split('/').filter(Boolean));
    // Inside public/ only: a "/../" path names no file of the brand.
    return file.startsWith(publicDir + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
  };
  const named: { file: string; field: string; sitePath: string }[] = [
    { file: publicDir, field: '(the browser tab icon)', sitePath: '/favicon.svg' },
    ...(config.logo ? [{ file: configFile, field: 'logo', sitePath: config.logo }] : []),
    ...config.fallbackBanners.map((banner, index) => ({ file: configFile, field: `fallbackBanners.${index}`, sitePath: banner })),
    ...config.tradeTypes.map((type, index) => ({ file: configFile, field: `tradeTypes.${index}.icon`, sitePath: type.icon })),
    ...seed.banners.map((banner, index) => ({ file: seedFile, field: `banners.${index}`, sitePath: banner })),
    ...catalogue.map((symbol, index) => ({ file: catalogueFile, field: `symbols.${index}.icon`, sitePath: symbol.icon })),
  ];
  for (const entry of named) {
    if (!present(entry.sitePath)) throw new BrandFolderError(`${entry.file}: ${entry.field}: ${entry.sitePath} is not in ${publicDir}`);
  }

  return {
    dir,
    configFile,
    config,
    publicDir,
    seed: {
      switches: seed.switches as Partial<Record<SwitchName, boolean>>,
      banners: seed.banners,
      optionProducts: seed.optionProducts,
      withdrawalLimits: normalisedLimits(seed.withdrawalLimits as LimitsByLevel),
    },
    catalogue,
    pages,
    defaultLanguage,
  };
}

/**
 * `pages/<lang>.json`, one file per language the brand writes its pages in: each file named
 * after a language, each valid, and the default language's holding every page (what a reader
 * of another language falls back to).
 */
function loadPages(pagesDir: string, defaultLanguage: string): Map<string, BrandPagesFile> {
  if (!fs.existsSync(pagesDir) || !fs.statSync(pagesDir).isDirectory()) throw new BrandFolderError(`${pagesDir}: missing`);
  const pages = new Map<string, BrandPagesFile>();
  for (const name of fs.readdirSync(pagesDir).sort()) {
    const file = path.join(pagesDir, name);
    const language = name.replace(/\.json$/, '');
    if (!name.endsWith('.json') || !isLanguageCode(language)) throw new BrandFolderError(`${file}: not a language's file (expected <lang>.json, one of ${languageCodes.join(', ')})`);
    const parsed = mini.safeParse(brandPagesFile, readJson(file));
    if (!parsed.success) throw new BrandFolderError(`${file}: ${parsed.error.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join('; ')}`);
    pages.set(language, parsed.data);
  }
  const defaultFile = path.join(pagesDir, `${defaultLanguage}.json`);
  const defaults = pages.get(defaultLanguage);
  if (!defaults) throw new BrandFolderError(`${defaultFile}: missing (the brand's default language, ${defaultLanguage}, has every page)`);
  for (const page of brandPageNames) {
    if (!defaults[page]) throw new BrandFolderError(`${defaultFile}: ${page}: missing (the brand's default language has every page)`);
  }
  return pages;
}

/** Every file of the brand's public/, as site paths without the leading slash ("banners/one.svg"). */
export function brandPublicFiles(publicDir: string): string[] {
  if (!fs.existsSync(publicDir)) return [];
  return (fs.readdirSync(publicDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(publicDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}
