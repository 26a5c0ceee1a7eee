import type { BrandConfig } from './brand-config';

/** The sockets' addresses from the brand's config (apart from its schema: the page's start uses them and loads no zod). */

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
