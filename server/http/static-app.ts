import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { brandPublicFiles } from '../brand/brand-folder';
import { AppError } from './app-error';
import { answerError } from './error-handler';

/** Paths of the API: what matches no route there is an unknown call, never the app. */
const apiPrefixes = ['/v1/', '/market/', '/exchange/', '/dev/'];

/** The staff console's pages: its own index.html (a second entry of the build), never the customer app's. */
const staffConsolePrefix = '/staff/';

/** Which built page answers a page path: the staff console's under /staff/, else the customer app's. */
export function pageFor(path: string): 'staff' | 'app' {
  return path === '/staff' || path.startsWith(staffConsolePrefix) ? 'staff' : 'app';
}

/** Content-hashed files (the build names every file under assets/ by its content): a new build gives them new names. */
export const immutableFiles = 'public, max-age=31536000, immutable';
/** Every other file keeps its name across builds: the browser keeps it but asks each time, and the ETag makes that a 304. */
export const revalidatedFiles = 'no-cache';

/** How long a browser may keep a built file, by its path inside the build. */
export function cacheControlFor(relativePath: string): string {
  return relativePath.split(/[\\/]/)[0] === 'assets' ? immutableFiles : revalidatedFiles;
}

/** Whether an If-None-Match header names this entity tag (`*`, a list, weak or strong: a GET compares weakly). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * Serves the built app: hashed assets cached for good, everything else revalidated,
 * `/config.json` from the brand's file, the brand folder's `public/` at the site's root
 * (favicon, logo, banners: these win over a built file of the same name), and `index.html` for any
 * other page path (history fallback) so that deep links work; `/staff/` and its deep links
 * get the staff console's `staff/index.html` instead. Each file goes out as the build's brotli or
 * gzip copy when the browser accepts one (`vite.config.ts` writes them), with `Vary: Accept-Encoding`
 * and an ETag of that copy. What no route matches is answered
 * here: an API path with INCORRECT_URL, a page with the app or the console, a file with 404.
 */
export async function registerStaticApp(
  app: FastifyInstance,
  options: StaticAppOptions,
) {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode !== 304) return payload;
    keepOnlyRevalidationHeaders(reply);
    // No body, so nothing for the compression after this hook to encode (and name in a header).
    return null;
  });
  const sendPage = await serveBuiltApp(app, options);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (apiPrefixes.some((prefix) => path.startsWith(prefix))) {
      return answerError(request, reply, new AppError(ErrorCode.INCORRECT_URL, 'no such call', 404));
    }
    const isPage = request.method === 'GET' && !/\.[a-z0-9]+$/i.test(path);
    if (isPage && path === '/staff') return reply.redirect('/staff/', 301);
    if (isPage) return sendPage(reply, pageFor(path));
    return reply.status(404).type('text/plain').send('Not found');
  });
}

const compressedCopies = ['**/*.br', '**/*.gz'];

/** What a 304 must carry (RFC 9110, 15.4.5); the browser keeps every other header of the answer it stored. */
const revalidationHeaders = new Set(['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary']);

/**
 * A 304 with only the headers that update the stored answer: the security headers, the
 * content type and the rest stay as the stored 200 had them, and a later visit's revalidation
 * of each file costs a few hundred bytes instead of a kilobyte.
 */
function keepOnlyRevalidationHeaders(reply: FastifyReply) {
  for (const name of reply.raw.getHeaderNames()) if (!revalidationHeaders.has(name)) reply.raw.removeHeader(name);
  for (const name of Object.keys(reply.getHeaders())) if (!revalidationHeaders.has(name)) reply.removeHeader(name);
}

export interface StaticAppOptions {
  staticDir: string;
  /** The brand's config.json, answered at /config.json. */
  brandConfigFile: string;
  /** The brand folder's public/, served at the site's root. */
  brandPublicDir: string;
}

async function serveBuiltApp(app: FastifyInstance, options: StaticAppOptions) {
  const indexFile = path.join(options.staticDir, 'index.html');
  const built = fs.existsSync(indexFile);

  const { brandConfigFile } = options;
  app.get('/config.json', async (request, reply) => {
    const file = await fs.promises.readFile(brandConfigFile);
    // Read at every request (the brand may change it), so its tag is of its content.
    const etag = `"${createHash('sha256').update(file).digest('base64url').slice(0, 27)}"`;
    reply.header('cache-control', revalidatedFiles).header('etag', etag).type('application/json');
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return file;
  });

  // The brand's files come with the app built or not (the dev server and the API alone use them too).
  const brandFiles = brandPublicFiles(options.brandPublicDir);
  if (brandFiles.length > 0) {
    await app.register(fastifyStatic, {
      root: options.brandPublicDir,
      wildcard: false,
      // The built app's plugin below decorates the reply; a second decoration would not start.
      decorateReply: false,
      index: false,
      cacheControl: false,
      lastModified: false,
      setHeaders: (response) => {
        response.setHeader('cache-control', revalidatedFiles);
      },
    });
  }

  if (!built) {
    app.log.warn({ staticDir: options.staticDir }, 'app not built; run `npm run build` to serve it');
    return (reply: FastifyReply, _page: 'staff' | 'app') => reply.status(503).type('text/plain').send('The app is not built: run `npm run build`.');
  }

  await app.register(fastifyStatic, {
    root: options.staticDir,
    // One route per built file, so that any other path reaches the history fallback.
    wildcard: false,
    // The brand's config.json and files are served above: a built file of the same name gets no route (two would not start).
    // The compressed copies are read beside their file, never asked for by name.
    globIgnore: [...compressedCopies, 'config.json', ...brandFiles.flatMap((file) => [file, `${file}.br`, `${file}.gz`])],
    index: false,
    // The build's `.br` and `.gz` copies, chosen by the request's Accept-Encoding.
    preCompressed: true,
    // Set below by path: left on, send's own `public, max-age=0` would overwrite it.
    cacheControl: false,
    // The ETag revalidates; a date beside it would only add a header to every answer.
    lastModified: false,
    setHeaders: (response, filePath) => {
      response.setHeader('cache-control', cacheControlFor(path.relative(options.staticDir, filePath)));
      response.setHeader('vary', 'accept-encoding');
    },
  });

  const pageFiles = { app: 'index.html', staff: path.join('staff', 'index.html') } as const;
  return (reply: FastifyReply, page: 'staff' | 'app') => reply.sendFile(pageFiles[page]);
}
