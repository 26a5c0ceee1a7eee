import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Serves the built app: hashed assets cached for good, everything else revalidated,
 * `/config.json` from the brand's file when one is configured, and `index.html` for any
 * other page path (history fallback) so that deep links work.
 */
export async function registerStaticApp(
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
    return {
      sendIndex: (reply: FastifyReply) =>
        reply.status(503).type('text/plain').send('The app is not built: run `npm run build`.'),
    };
  }

  await app.register(fastifyStatic, {
    root: options.staticDir,
    // One route per built file, so that any other path reaches the history fallback.
    wildcard: false,
    index: false,
    setHeaders: (response, filePath) => {
      const relative = path.relative(options.staticDir, filePath);
      response.setHeader(
        'cache-control',
        relative.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  return {
    sendIndex: (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html'),
  };
}
