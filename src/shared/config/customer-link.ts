import type { CustomerLink } from '../api/anonymous';

/**
 * The customer-service setting is stored as `mode|json array`, the array holding, in
 * order, the chat url, the telegram link, the whatsapp link and the e-mail address.
 * `mode` 0 embeds the chat url in the page; 1 opens it in a new window.
 */
export function parseCustomerLinkSetting(value: string): CustomerLink | null {
  const separator = value.indexOf('|');
  if (separator <= 0) return null;
  const mode = Number(value.slice(0, separator));
  if (!Number.isInteger(mode) || mode < 0) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(value.slice(separator + 1));
  } catch {
    return null;
  }
  if (!Array.isArray(parts) || parts.some((part) => typeof part !== 'string')) return null;
  const [url = '', telegram = '', whatsapp = '', email = ''] = parts as string[];
  return { url, telegram, whatsapp, email, mode };
}

export function formatCustomerLinkSetting(link: CustomerLink): string {
  return `${link.mode}|${JSON.stringify([link.url, link.telegram, link.whatsapp, link.email])}`;
}
