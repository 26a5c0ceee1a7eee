import { z } from 'zod';
import { brandTradeModeDefaults, tradeModes } from './trade-mode';

/**
 * `public/config.json`: what a brand sets without rebuilding the app. Every field has a
 * default so a brand writes only what differs; an unknown field is an error, so a typo
 * is caught at start instead of being silently ignored.
 */
const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour like #1a2b3c');
const rootUrl = z
  .string()
  .refine((value) => value === '' || /^https?:\/\/[^\s]+[^/]$/.test(value), {
    message: 'expected "" (same origin) or an absolute http(s) URL without a trailing slash',
  });

export const timeZones = ['Africa/Abidjan', 'America/New_York', 'Europe/London', 'device'] as const;

export const brandConfigSchema = z.strictObject({
  siteName: z.string().min(1).default('TradeWeb'),
  apiRoot: rootUrl.default(''),
  marketRoot: rootUrl.default(''),
  exchangeRoot: rootUrl.default(''),
  /** Overrides the market socket, e.g. RabbitMQ's Web-STOMP endpoint in scale-out mode. */
  marketSocketUrl: z.string().default(''),
  /** Request timeout in ms; 0 means none. A 700 ms grace is added on top. */
  requestTimeoutMs: z.number().int().min(0).default(0),
  defaultTradeMode: z.enum(tradeModes).default(brandTradeModeDefaults.defaultTradeMode),
  tradeTabOrder: z.array(z.enum(tradeModes)).default([...brandTradeModeDefaults.tradeTabOrder]),
  defaultTheme: z.enum(['light', 'dark']).default('light'),
  themeColors: z.array(hexColour).min(1).default(['#2f6bff', '#f0b90b', '#7c3aed', '#0f9d8f', '#e8590c']),
  /** 0: green up / red down; 1: red up / green down. */
  upDownTemplate: z.union([z.literal(0), z.literal(1)]).default(0),
  timeZone: z.enum(timeZones).default('device'),
  amountCommaGrouping: z.boolean().default(true),
  enableSimplifiedChinese: z.boolean().default(false),
  enableIndonesian: z.boolean().default(false),
  showTodayWinLoss: z.boolean().default(true),
  phoneRegisterCountry: z.string().regex(/^[A-Z]{2}$/).default('US'),
  desktopTemplate: z.union([z.literal(0), z.literal(1)]).default(0),
  singleTradeTemplate: z.boolean().default(false),
  tradeTypes: z
    .array(z.strictObject({ key: z.string().min(1), icon: z.string().min(1), route: z.string().startsWith('/') }))
    .default([]),
  /** Quote rows show each product's logo. */
  showProductLogo: z.boolean().default(true),
  hotProducts: z.array(z.string().min(1)).max(3).default(['BTCUSDT', 'EURUSD', 'XAUUSD']),
  hotSearch: z.array(z.string().min(1)).default(['USD', 'GBP', 'AUD', 'HKD']),
  fallbackBanners: z.array(z.string().min(1)).default(['/banners/banner-1.svg']),
  /** How often the worker sends each tab its changed prices. */
  batchWindowMs: z.number().int().min(16).max(1000).default(100),
  /** With no tab visible this long, the engine keeps only the account's positions and running options live. */
  quietEngineAfterMs: z.number().int().min(5_000).max(3_600_000).default(60_000),
  /**
   * Follow every symbol's prices (`/topic/prices`) whatever the tabs show, never quiet:
   * the behaviour before issue 21, kept for comparison (the bench's "before") and for
   * brands whose every screen shows all symbols.
   */
  followAllPrices: z.boolean().default(false),
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
 * The market STOMP endpoint: the brand's override (RabbitMQ Web-STOMP in scale-out
 * mode), else `/market/stomp` under the market root, else under the page's own origin.
 */
export function marketSocketUrl(config: Pick<BrandConfig, 'marketSocketUrl' | 'marketRoot'>, pageOrigin: string): string {
  if (config.marketSocketUrl) return config.marketSocketUrl;
  const root = config.marketRoot || pageOrigin;
  return `${root.replace(/^http/, 'ws')}/market/stomp`;
}

/** The per-user positions socket under the exchange root, else under the page's own origin. */
export function positionsSocketUrl(config: Pick<BrandConfig, 'exchangeRoot'>, pageOrigin: string): string {
  const root = config.exchangeRoot || pageOrigin;
  return `${root.replace(/^http/, 'ws')}/exchange/ws`;
}
