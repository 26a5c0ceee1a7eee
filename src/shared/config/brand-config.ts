import * as z from 'zod/mini';
import { brandTradeModeDefaults, tradeModes } from './trade-mode';
import { loadZodEnglish } from '../api/zod-english';

/**
 * A brand's `config.json` (brands/<name>/config.json): what a brand sets without rebuilding the app. Every field has a
 * default so a brand writes only what differs; an unknown field is an error, so a typo
 * is caught at start instead of being silently ignored.
 */
const hexColour = z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour like #1a2b3c'));
const rootUrl = z.string().check(
  z.refine((value) => value === '' || /^https?:\/\/[^\s]+[^/]$/.test(value), {
    message: 'expected "" (same origin) or an absolute http(s) URL without a trailing slash',
  }),
);

export const timeZones = ['Africa/Abidjan', 'America/New_York', 'Europe/London', 'device'] as const;

export const brandConfigSchema = z.strictObject({
  siteName: z._default(z.string().check(z.minLength(1)), 'TradeWeb'),
  /** The brand's logo beside its name, a path on the site ("/logo.svg"; the brand folder's public/); "" for the name alone. */
  logo: z._default(z.string(), ''),
  apiRoot: z._default(rootUrl, ''),
  marketRoot: z._default(rootUrl, ''),
  exchangeRoot: z._default(rootUrl, ''),
  /** Overrides the market socket, e.g. RabbitMQ's Web-STOMP endpoint in scale-out mode. */
  marketSocketUrl: z._default(z.string(), ''),
  /** Request timeout in ms; 0 means none. A 700 ms grace is added on top. */
  requestTimeoutMs: z._default(z.int().check(z.minimum(0)), 0),
  defaultTradeMode: z._default(z.enum(tradeModes), brandTradeModeDefaults.defaultTradeMode),
  tradeTabOrder: z._default(z.array(z.enum(tradeModes)), [...brandTradeModeDefaults.tradeTabOrder]),
  defaultTheme: z._default(z.enum(['light', 'dark']), 'light'),
  themeColors: z._default(z.array(hexColour).check(z.minLength(1)), ['#2f6bff', '#f0b90b', '#7c3aed', '#0f9d8f', '#e8590c']),
  /** 0: green up / red down; 1: red up / green down. */
  upDownTemplate: z._default(z.union([z.literal(0), z.literal(1)]), 0),
  timeZone: z._default(z.enum(timeZones), 'device'),
  amountCommaGrouping: z._default(z.boolean(), true),
  /**
   * The interface languages the brand offers, by code ("en", "de"); none listed: all twelve.
   * Simplified Chinese and Indonesian also need their switch below. The server refuses an
   * unknown code at start (server/brand/brand-folder.ts); the engine's check stays small.
   */
  languages: z._default(z.array(z.string()), []),
  enableSimplifiedChinese: z._default(z.boolean(), false),
  enableIndonesian: z._default(z.boolean(), false),
  showTodayWinLoss: z._default(z.boolean(), true),
  /**
   * After sign-up: the specification goes to sign-in with the account filled in (false); a brand
   * may sign the new customer in at once instead (true), one password entry fewer.
   */
  signInAfterRegister: z._default(z.boolean(), false),
  phoneRegisterCountry: z._default(z.string().check(z.regex(/^[A-Z]{2}$/)), 'US'),
  desktopTemplate: z._default(z.union([z.literal(0), z.literal(1)]), 0),
  singleTradeTemplate: z._default(z.boolean(), false),
  tradeTypes: z._default(z.array(z.strictObject({ key: z.string().check(z.minLength(1)), icon: z.string().check(z.minLength(1)), route: z.string().check(z.startsWith('/')) })), []),
  /** Quote rows show each product's logo. */
  showProductLogo: z._default(z.boolean(), true),
  hotProducts: z._default(z.array(z.string().check(z.minLength(1))).check(z.maxLength(3)), ['BTCUSDT', 'EURUSD', 'XAUUSD']),
  hotSearch: z._default(z.array(z.string().check(z.minLength(1))), ['USD', 'GBP', 'AUD', 'HKD']),
  fallbackBanners: z._default(z.array(z.string().check(z.minLength(1))), ['/banners/banner-1.svg']),
  /** How often the worker sends each tab its changed prices. */
  batchWindowMs: z._default(z.int().check(z.minimum(16), z.maximum(1000)), 100),
  /** With no tab visible this long, the engine keeps only the account's positions and running options live. */
  quietEngineAfterMs: z._default(z.int().check(z.minimum(5_000), z.maximum(3_600_000)), 60_000),
  /**
   * Follow every symbol's prices (`/topic/prices`) whatever the tabs show, never quiet:
   * the behaviour before issue 21, kept for comparison (the bench's "before") and for
   * brands whose every screen shows all symbols.
   */
  followAllPrices: z._default(z.boolean(), false),
  /**
   * The margin level (equity ÷ used margin, in percent) below which the account strip warns
   * of a margin call, before stop-out closes positions; the server refuses a level that is
   * not above its stop-out level (STOP_OUT_LEVEL_PERCENT) at start.
   */
  marginCallLevelPercent: z._default(z.number().check(z.positive(), z.maximum(10_000)), 100),
});

export type BrandConfig = z.output<typeof brandConfigSchema>;

export type BrandConfigResult =
  | { ok: true; config: BrandConfig }
  | { ok: false; problems: string[] };

export function parseBrandConfig(input: unknown): BrandConfigResult {
  const result = brandConfigSchema.safeParse(input);
  if (result.success) return { ok: true, config: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
  };
}

/**
 * parseBrandConfig where the problems are shown to a person (the app's start): a refused
 * config is read again once zod's English messages are loaded (zod-english.ts).
 */
export async function parseBrandConfigExplained(input: unknown): Promise<BrandConfigResult> {
  const result = parseBrandConfig(input);
  if (result.ok) return result;
  await loadZodEnglish();
  return parseBrandConfig(input);
}
