import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { stringsPart, stringsParts, type StringsPart } from './src/app/i18n/string-parts.ts';

const packageJson = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const appVersion = packageJson.version.split('.').slice(0, 2).join('.');
const buildId = `${appVersion}-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

/** Writes /version.json so that a running app can tell a newer deployment from its own. */
function versionFile(): Plugin {
  return {
    name: 'version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: appVersion, buildId }) });
    },
  };
}

/**
 * `use-sync-external-store/shim` (react-i18next's import) is the hook for React before 18; on
 * React 19 it only hands back React's own `useSyncExternalStore`, yet ships its fallback and a
 * CommonJS wrapper in the first load (about 0.7 KB gzip). The import gets React's hook directly.
 */
function reactOwnExternalStore(): Plugin {
  const shim = /^use-sync-external-store\/shim(\/index\.js)?$/;
  const id = '\0react-own-external-store';
  return {
    name: 'react-own-external-store',
    enforce: 'pre',
    resolveId: (source) => (shim.test(source) ? id : null),
    load: (loaded) => (loaded === id ? "export { useSyncExternalStore } from 'react';" : null),
  };
}

/** How heic2any's bundle makes its decoder worker: its code as a string literal, then a Worker from a blob: URL of it. */
const workerDeclaration = 'var workerString = ';
const blobWorker = /;\s*var blob = new Blob\(\[workerString\], \{type: 'application\/javascript'\}\);\s*window\.__heic2any__worker = new Worker\(URL\.createObjectURL\(blob\)\);/;

/**
 * In the production build, heic2any's decoder worker is a file of the app's own origin
 * (`assets/heic2any-worker-<version>.js`, the path server/http/security-headers.ts knows by
 * `heicDecoderWorkerPath`) instead of a blob: URL: the library's module gets the same
 * worker, made from that file, and the worker's code is emitted as that file unchanged.
 * The content security policy then needs no `worker-src blob:` and no eval in the page;
 * the server gives that one file a policy of its own that lets the decoder run. The dev
 * server sends no policy and keeps the library as it is.
 */
function heic2anySameOriginWorker(): Plugin {
  const { version } = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('heic2any/package.json'), 'utf8')) as { version: string };
  const workerFile = `assets/heic2any-worker-${version}.js`;
  let workerCode: string | null = null;
  let base = '/';
  return {
    name: 'heic2any-same-origin-worker',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transform(source, id) {
      if (!/[\\/]node_modules[\\/]heic2any[\\/]dist[\\/]heic2any\.js$/.test(id)) return null;
      const start = source.indexOf(workerDeclaration);
      const creation = blobWorker.exec(source.slice(start));
      if (start < 0 || !creation) this.error(`heic2any ${version}: its worker is no longer made the way this plugin expects; look again at how it loads libheif`);
      // The literal is plain JSON (double quotes, JSON escapes): read, never run.
      workerCode = JSON.parse(source.slice(start + workerDeclaration.length, start + creation.index)) as string;
      const end = start + creation.index + creation[0].length;
      return { code: `${source.slice(0, start)}window.__heic2any__worker = new Worker(${JSON.stringify(`${base}${workerFile}`)});${source.slice(end)}`, map: null };
    },
    generateBundle() {
      if (workerCode !== null) this.emitFile({ type: 'asset', fileName: workerFile, source: workerCode });
    },
  };
}

/**
 * In development, the brand folder (BRAND_DIR, default brands/default) as the server serves
 * it in production: its config.json at /config.json and its public/ at the site's root. The
 * build holds no brand: the server serves the brand it starts with (server/http/static-app.ts).
 */
function brandFiles(): Plugin {
  const brandDir = path.resolve(process.env.BRAND_DIR ?? 'brands/default');
  const publicDir = path.join(brandDir, 'public');
  return {
    name: 'brand-files',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const urlPath = decodeURIComponent(request.url?.split('?')[0] ?? '');
        const file = urlPath === '/config.json' ? path.join(brandDir, 'config.json') : path.join(publicDir, urlPath);
        if (request.method !== 'GET' || !file.startsWith(brandDir + path.sep) || !existsSync(file) || !statSync(file).isFile()) return next();
        response.setHeader('content-type', file.endsWith('.json') ? 'application/json' : file.endsWith('.svg') ? 'image/svg+xml' : 'application/octet-stream');
        response.end(readFileSync(file));
      });
    },
  };
}

/** In development, the console's deep links (`/staff/customers/7`) get its page, as the server does in production. */
function staffConsoleDeepLinks(): Plugin {
  return {
    name: 'staff-console-deep-links',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const path = request.url?.split('?')[0] ?? '';
        if (request.method === 'GET' && (path === '/staff' || (path.startsWith('/staff/') && !/\.[a-z0-9]+$/i.test(path)))) request.url = '/staff/index.html';
        next();
      });
    },
  };
}

/**
 * `locales/<language>.json?strings=first-screen` (or `other-screens`): that part of the
 * language file (src/app/i18n/string-parts.ts) as a module. The files stay whole; the first
 * load fetches only the first screen's strings.
 */
function localeParts(): Plugin {
  return {
    name: 'locale-parts',
    enforce: 'pre',
    load(id) {
      const [file = '', query = ''] = id.split('?');
      const part = new URLSearchParams(query).get('strings') as StringsPart | null;
      if (!file.endsWith('.json') || part === null || !stringsParts.includes(part)) return null;
      this.addWatchFile(file);
      const strings = stringsPart(JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof stringsPart>[0], part);
      // As Vite writes a large JSON module: JSON.parse of a string parses faster than an object literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(strings))});`;
    },
  };
}

/** Files worth compressing: text. Source maps are left out (only developer tools fetch them). */
const compressibleFile = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/**
 * Brotli's best quality (11) costs about twice quality 10 and twenty times quality 9 for a few
 * per cent. Files above this size (heic2any's 1.3 MB decoder, fetched only when an iPhone photo
 * is picked) get quality 9, which keeps the build seconds shorter.
 */
const largeFileBytes = 1024 * 1024;

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text file
 * of the build, public files included, for the server to send by content negotiation
 * (`@fastify/static`'s `preCompressed`): the best compression costs the build once, never a
 * request. The root `config.json` gets none: a brand may edit it in place after the build, and
 * a stale copy would shadow the edit (the server compresses it as it sends it). A copy that
 * would not be smaller is not written.
 */
export function precompressedCopies(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  let outDir = '';
  return {
    name: 'precompressed-copies',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && compressibleFile.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
        .filter((file) => path.relative(outDir, file) !== 'config.json');
      await Promise.all(
        files.map(async (file) => {
          const source = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(source, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: source.length > largeFileBytes ? 9 : 11,
                [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gzipped(source, { level: 9 }),
          ]);
          await Promise.all([br.length < source.length && writeFile(`${file}.br`, br), gz.length < source.length && writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * Each entry's first load in one chunk of its own: the modules an entry imports statically
 * that the other entry never loads (not even on demand). Rolldown otherwise splits from the
 * entry the modules that its lazy screens import too (signals, the route table, price tones),
 * though the entry has always loaded them first; each such file costs its own request and
 * compresses apart. What both entries load at start stays in the chunks they share.
 */
function entryStartChunks(entries: Record<string, string>): { plugin: Plugin; groups: { name: string; test: (id: string) => boolean; includeDependenciesRecursively: false }[] } {
  const imports = new Map<string, { static: readonly string[]; dynamic: readonly string[] }>();
  const reach = (from: string, dynamic: boolean) => {
    const seen = new Set<string>();
    const pending = [from];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      const next = imports.get(id);
      pending.push(...(next?.static ?? []), ...(dynamic ? (next?.dynamic ?? []) : []));
    }
    return seen;
  };
  let owned: Map<string, Set<string>> | null = null;
  // Asked once the graph is whole: chunks are made after every module is parsed.
  const ownedBy = (name: string) => {
    owned ??= new Map(
      Object.entries(entries).map(([entry, file]) => {
        const others = Object.entries(entries).filter(([other]) => other !== entry).map(([, otherFile]) => reach(otherFile, true));
        return [entry, new Set([...reach(file, false)].filter((id) => others.every((reached) => !reached.has(id))))];
      }),
    );
    return owned.get(name) ?? new Set<string>();
  };
  return {
    plugin: {
      name: 'entry-start-chunks',
      apply: 'build',
      buildStart() {
        imports.clear();
        owned = null;
      },
      moduleParsed(info) {
        imports.set(info.id, { static: info.importedIds, dynamic: info.dynamicallyImportedIds });
      },
    },
    // Without their dependencies: those the other entry loads too stay in the shared chunks
    // (an entry's own modules import shared ones, never the reverse, so no chunks in a cycle).
    groups: Object.keys(entries).map((name) => ({ name: `${name}-start`, test: (id: string) => ownedBy(name).has(id), includeDependenciesRecursively: false as const })),
  };
}

const entries = {
  app: fileURLToPath(new URL('./index.html', import.meta.url)),
  staff: fileURLToPath(new URL('./staff/index.html', import.meta.url)),
};
const startChunks = entryStartChunks(entries);

/**
 * Schemas (`z.object(…)`, `contract(…)`) build values and change nothing else: taken for free
 * of side effects, the ones a bundle never reads are dropped (the worker keeps only what it
 * parses). zod's one call that does change something, `config`, is called by its own name.
 */
const unusedSchemasDropped = { manualPureFunctions: ['z', 'contract'] };

export default defineConfig({
  plugins: [react(), reactOwnExternalStore(), brandFiles(), localeParts(), versionFile(), staffConsoleDeepLinks(), heic2anySameOriginWorker(), startChunks.plugin, precompressedCopies()],
  define: {
    __APP_VERSION__: JSON.stringify(appVersion),
    __BUILD_ID__: JSON.stringify(buildId),
  },
  worker: { format: 'es', rollupOptions: { treeshake: unusedSchemasDropped } },
  build: {
    target: 'es2022',
    sourcemap: true,
    // Two entries of one build: the customer app, and the staff console at /staff/ (its own
    // chunks; tests/unit/staff/bundle-boundary.test.ts proves the customer graph holds none of it).
    rollupOptions: {
      treeshake: unusedSchemasDropped,
      input: entries,
      output: {
        // Libraries in chunks of their own, so a library one entry needs at start and the
        // other only on demand (the phone rules: the console's sign-in, the app's sign-up)
        // is not merged into a chunk both load at start. Budgets: tests/unit/build/.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'phone', test: /[\\/]node_modules[\\/]libphonenumber-js[\\/]/ },
            // zod/mini and its core, not the English messages: those come only with a refused
            // brand config (src/shared/api/zod-english.ts), in a chunk of their own. With them
            // its jitless setting, run as the chunk runs: the app loads zod with the first
            // screen that parses (its first load holds none), and whichever that is, the
            // setting comes before any schema.
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/](?!v4[\\/]locales[\\/])|[\\/]src[\\/]shared[\\/]api[\\/]zod-jitless\.ts$/ },
            { name: 'i18n', test: /[\\/]node_modules[\\/](i18next|react-i18next)[\\/]/ },
            ...startChunks.groups,
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/v1': 'http://localhost:8080',
      '/market': { target: 'http://localhost:8080', ws: true },
      '/exchange': { target: 'http://localhost:8080', ws: true },
      '/dev': 'http://localhost:8080',
    },
  },
});
