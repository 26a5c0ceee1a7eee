import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCode } from '../../src/shared/errors/catalogue';
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

/**
 * Serves the built app: hashed assets cached for good, everything else revalidated,
 * `/config.json` from the brand's file when one is configured, and `index.html` for any
 * other page path (history fallback) so that deep links work; `/staff/` and its deep links
 * get the staff console's `staff/index.html` instead. What no route matches is answered
 * here: an API path with INCORRECT_URL, a page with the app or the console, a file with 404.
 */
export async function registerStaticApp(
  app: FastifyInstance,
  options: { staticDir: string; brandConfigPath: string | null },
) {
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

async function serveBuiltApp(
  app: FastifyInstance,
  options: { staticDir: string; brandConfigPath: string | null },
) {
  const indexFile = path.join(options.staticDir, 'index.html');
  const built = fs.existsSync(indexFile);

  if (options.brandConfigPath) {
    const brandConfigPath = options.brandConfigPath;
    app.get('/config.json', async (_request, reply) => {
      reply.header('cache-control', 'no-cache').type('application/json');
      return fs.promises.readFile(brandConfigPath);
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
    // A brand's own config.json is served by the route above: the built one gets no route (two would not start).
    ...(options.brandConfigPath ? { globIgnore: ['config.json'] } : {}),
    index: false,
    setHeaders: (response, filePath) => {
      const relative = path.relative(options.staticDir, filePath);
      response.setHeader(
        'cache-control',
        relative.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  const pageFiles = { app: 'index.html', staff: path.join('staff', 'index.html') } as const;
  return (reply: FastifyReply, page: 'staff' | 'app') => reply.header('cache-control', 'no-cache').sendFile(pageFiles[page]);
}
