import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { bytesOf, firstLoadFiles, routeExtraFiles, staffFirstLoadFiles, staticClosure, total, appEntryKey, type Bytes, type Manifest } from '../../../bench/bundle/route-bytes';
import { fallbackLanguage, languageCodes } from '../../../src/shared/i18n/languages';
import { chunkRawBudget, firstLoadGzipBudget, largeChunkExceptions } from './budgets';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('the production build stays within its byte budgets', () => {
  it('keeps the first load on / small, the other screens out of it, and every chunk under the limit', { timeout: 120_000 }, async () => {
    // The production build in memory, with the manifest `vite build --manifest` writes. Vite
    // takes NODE_ENV as it finds it, and vitest's `test` would build development React.
    const testEnvironment = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const result = await build({ root, logLevel: 'silent', build: { write: false, sourcemap: false, manifest: true } }).finally(() => {
      process.env.NODE_ENV = testEnvironment;
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
    const files = new Map<string, Uint8Array | string>();
    for (const output of outputs) for (const item of output.output) files.set(item.fileName, item.type === 'chunk' ? item.code : item.source);
    const manifestSource = files.get('.vite/manifest.json');
    expect(manifestSource, 'the build manifest').toBeDefined();
    const manifest = JSON.parse(String(typeof manifestSource === 'string' ? manifestSource : Buffer.from(manifestSource ?? ''))) as Manifest;
    const sizeOf = (file: string): Bytes => {
      const content = files.get(file);
      if (content === undefined) throw new Error(`the build has no ${file}`);
      return bytesOf(content);
    };

    const text = (file: string) => String(files.get(file) ?? '');
    const firstLoadSet = firstLoadFiles(manifest, text);
    const firstLoad = total(firstLoadSet, sizeOf);
    expect(firstLoad.gzip, `first load ${kb(firstLoad.gzip)} gzip`).toBeLessThanOrEqual(firstLoadGzipBudget);

    // The screens the issue names stay out of the first load: money, account and sign-in screens.
    const entry = staticClosure(manifest, appEntryKey);
    for (const screen of ['src/app/pages/user/deposit-page.tsx', 'src/app/pages/withdraw/withdraw-page.tsx', 'src/app/pages/user/account-page.tsx', 'src/app/pages/auth/register-page.tsx']) {
      expect(manifest[screen]?.isDynamicEntry, `${screen} is loaded on demand`).toBe(true);
      expect(routeExtraFiles(manifest, screen).size, `${screen} brings its own chunk`).toBeGreaterThan(0);
    }
    // The phone-number rules only where phone fields are.
    const phoneRules = [...entry].filter((file) => /(^|\/)phone-[^/]*\.js$/.test(file));
    expect(phoneRules).toEqual([]);

    // The page's first load holds no schema: the engine checks config.json and the switches,
    // and each screen loads its contracts (and zod) with its first call.
    const zodCore = (file: string) => text(file).includes('"ZodMiniObject"') || text(file).includes('`ZodMiniObject`');
    expect([...entry].filter(zodCore), 'zod in the page entry and its static imports').toEqual([]);
    // The build takes `z.…` calls for free of side effects (vite.config.ts); zod's jitless
    // setting, called by its own name, must survive it in the worker and wherever the page
    // loads zod: in zod's own chunk, so it runs before any schema.
    const sharedWorker = [...firstLoadSet].find((file) => /(^|\/)shared-worker-[^/]*\.js$/.test(file)) ?? '';
    expect(text(sharedWorker).includes('jitless'), 'the worker sets zod jitless').toBe(true);
    const pageZod = [...files.keys()].filter((file) => file.endsWith('.js') && !/(^|\/)(shared|dedicated)-worker-/.test(file) && zodCore(file));
    expect(pageZod.length, 'the page has a chunk with zod').toBeGreaterThan(0);
    expect(pageZod.filter((file) => !text(file).includes('jitless')), 'page chunks with zod but not its jitless setting').toEqual([]);

    // The staff console starts with its English strings only: each other language's staff
    // strings are a chunk of their own, fetched when an operator picks that language.
    const staffFirstLoad = staffFirstLoadFiles(manifest);
    for (const language of languageCodes.filter((code) => code !== fallbackLanguage)) {
      const strings = manifest[`src/staff/i18n/${language}.json`];
      expect(strings?.isDynamicEntry, `${language} staff strings are loaded on demand`).toBe(true);
      expect(staffFirstLoad.has(strings?.file ?? ''), `${language} staff strings in the console's first load`).toBe(false);
    }

    const oversized = [...files]
      .filter(([file]) => file.endsWith('.js') && !largeChunkExceptions.some((pattern) => pattern.test(file)))
      .map(([file, content]) => ({ file, raw: bytesOf(content).raw }))
      .filter((chunk) => chunk.raw > chunkRawBudget)
      .map((chunk) => `${path.basename(chunk.file)} ${kb(chunk.raw)}`);
    expect(oversized).toEqual([]);
  });
});
