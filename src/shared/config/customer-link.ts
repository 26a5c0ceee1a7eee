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

/**
 * A link the app may open or embed: an absolute http(s) URL with a host, no spaces or
 * quotes (never `javascript:` or `data:`). src/shared has no URL class, hence the pattern.
 */
export function safeWebLink(value: string): string | null {
  const trimmed = value.trim();
  return /^https?:\/\/[a-z0-9.-]+(:\d+)?(\/[^\s"'<>`]*)?$/i.test(trimmed) ? trimmed : null;
}

/** A plausible e-mail address for a `mailto:` link. */
export function safeEmail(value: string): string | null {
  return /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/.test(value) ? value : null;
}

export interface ServiceChannels {
  chatUrl: string | null;
  telegram: string | null;
  whatsapp: string | null;
  email: string | null;
  /** 'frame': only a chat url is configured, so the page embeds it; else channel cards. */
  view: 'frame' | 'cards';
  /** The chat opens in the page (mode 0) or in a new window (mode 1). */
  chatInPage: boolean;
}

/** What the customer-service page offers, unsafe or empty links left out. */
export function serviceChannels(link: CustomerLink): ServiceChannels {
  const chatUrl = safeWebLink(link.url);
  const telegram = safeWebLink(link.telegram);
  const whatsapp = safeWebLink(link.whatsapp);
  const email = safeEmail(link.email);
  return {
    chatUrl,
    telegram,
    whatsapp,
    email,
    view: chatUrl && !telegram && !whatsapp && !email ? 'frame' : 'cards',
    chatInPage: link.mode === 0,
  };
}

/**
 * Why a customer-service setting (`mode|json array`) may not be stored, or null when it may:
 * it must parse, its mode be 0 or 1, and every non-empty link be safe (the same rules the
 * customer-service page applies), so that staff cannot store a link the page would drop.
 */
export function customerLinkSettingProblem(value: string): string | null {
  const link = parseCustomerLinkSetting(value);
  if (!link) return 'not in the form mode|["url","telegram","whatsapp","email"]';
  if (link.mode !== 0 && link.mode !== 1) return 'mode must be 0 (in the page) or 1 (a new window)';
  for (const field of ['url', 'telegram', 'whatsapp'] as const) {
    if (link[field] !== '' && safeWebLink(link[field]) === null) return `${field} must be an http(s) address`;
  }
  if (link.email !== '' && safeEmail(link.email) === null) return 'email must be an e-mail address';
  return null;
}
