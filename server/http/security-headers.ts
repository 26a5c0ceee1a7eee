import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { CustomerLink } from '../../src/shared/api/anonymous';
import { serviceChannels } from '../../src/shared/config/customer-link';
import { heicDecoderWorkerPath } from '../../src/shared/uploads/image-rules';
import { readBrandConfigFile } from './brand-config-file';

/**
 * Security headers on every answer (app, API, files, 404s) through @fastify/helmet: a
 * strict content security policy, no framing by anyone, nosniff, a referrer policy, and
 * HSTS only where the deployment says it is behind TLS.
 */

/** How long the chat frame source is reused before the stored customer link is read again. */
const chatSourceCacheMs = 5_000;

/** The origin of an http(s) or ws(s) URL, or null. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return /^(https?|wss?):$/.test(parsed.protocol) ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * Where the app connects besides its own origin: the brand config's roots (requests) with
 * their ws(s) forms (the market and positions sockets live under them), and the market
 * socket override. Read once at start from the same file `/config.json` serves.
 */
export function brandConnectSources(configFile: string, warn: (message: string) => void): string[] {
  const parsed = readBrandConfigFile(configFile);
  if (parsed === null) return []; // no built app: nothing to connect to beyond 'self'
  if (!parsed.ok) {
    warn(`brand config ${configFile} does not parse (${parsed.problems.join('; ')}); the content security policy allows only this origin`);
    return [];
  }
  const { apiRoot, marketRoot, exchangeRoot, marketSocketUrl } = parsed.config;
  const sources = new Set<string>();
  const roots = [
    { root: apiRoot, sockets: false },
    // The market and exchange roots are fetched and also opened as sockets (ws: or wss:), even on the API's origin.
    { root: marketRoot, sockets: true },
    { root: exchangeRoot, sockets: true },
  ];
  for (const { root, sockets } of roots) {
    const origin = root ? originOf(root) : null;
    if (!origin) continue;
    sources.add(origin);
    if (sockets) sources.add(origin.replace(/^http/, 'ws'));
  }
  const socket = marketSocketUrl ? originOf(marketSocketUrl) : null;
  if (socket) sources.add(socket);
  return [...sources];
}

/** The frame source the customer-service chat needs: its origin when the app embeds it, else none. */
export function chatFrameSources(link: CustomerLink): string[] {
  const channels = serviceChannels(link);
  if (!channels.chatUrl || !(channels.chatInPage || channels.view === 'frame')) return [];
  const origin = originOf(channels.chatUrl);
  return origin ? [origin] : [];
}

export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: {
    /** The brand's config.json (its roots are where the app may connect). */
    brandConfigFile: string;
    /** BEHIND_TLS: send HSTS and upgrade insecure requests. */
    behindTls: boolean;
    customerLink: () => Promise<CustomerLink>;
  },
) {
  const connectSources = brandConnectSources(options.brandConfigFile, (message) => app.log.warn(message));

  // The chat URL lives in the database and may change: re-read (at most every few
  // seconds) before answering a page, whose policy is the one the browser applies.
  let chat: { atMs: number; sources: string[] } = { atMs: -Infinity, sources: [] };
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'GET' || Date.now() - chat.atMs < chatSourceCacheMs) return;
    if (/^\/(v1|market|exchange|dev)\//.test(request.url) || /\.[a-z0-9]+(\?|$)/i.test(request.url)) return;
    try {
      chat = { atMs: Date.now(), sources: chatFrameSources(await options.customerLink()) };
    } catch (error) {
      request.log.warn({ err: error }, 'customer link not readable for the frame source');
    }
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The built app is module scripts and workers from its own origin: nothing inline, no eval.
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        workerSrc: ["'self'"],
        // Stylesheets are the bundle and the theme files; React sets style properties
        // through the CSSOM, which the policy does not govern.
        styleSrc: ["'self'"],
        fontSrc: ["'self'"],
        // data: for the image captcha and the two-factor QR code (server- and app-made); blob:
        // for the staff console's review files, fetched with the staff token and shown from memory.
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", ...connectSources],
        frameSrc: [() => (chat.sources.length > 0 ? chat.sources.join(' ') : "'none'")],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.behindTls ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: options.behindTls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });

  // heic2any's decoder worker is libheif compiled by emscripten, whose bindings are made with
  // `new Function`. A worker loaded from a URL runs under the policy of its own answer: this one
  // file may evaluate what it builds and may reach nothing (image bytes come and go by message);
  // the page's policy keeps no eval and no blob: workers.
  app.addHook('onSend', async (request, reply) => {
    if (heicDecoderWorkerPath.test(request.url.split('?')[0] ?? '')) reply.header('content-security-policy', heicDecoderWorkerPolicy);
  });
}

/** The decoder worker's own policy: its script and eval inside it, nothing else. */
export const heicDecoderWorkerPolicy = "default-src 'none'; script-src 'self' 'unsafe-eval'";
