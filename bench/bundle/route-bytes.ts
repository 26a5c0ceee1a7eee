/**
 * Bytes per route from a Vite build manifest (pure: the manifest and the files' bytes come in).
 * Used by `npm run bench` (BENCH_ONLY=bundle) and by the budget check in
 * tests/unit/build/bundle-budget.test.ts.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of `.vite/manifest.json`, keyed by its source path (or `_name.js` for a shared chunk). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  assets?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface Bytes {
  raw: number;
  gzip: number;
}

export const appEntryKey = 'index.html';
export const staffEntryKey = 'staff/index.html';
/**
 * The language every first load fetches (the fallback, and the only one for an English
 * reader): its first screen's part (src/app/i18n/string-parts.ts), and the other screens'.
 */
export const firstLoadLocaleKey = 'src/shared/i18n/locales/en.json?strings=first-screen';
export const otherScreensLocaleKey = 'src/shared/i18n/locales/en.json?strings=other-screens';
/** A build from before the strings were split (BUNDLE_DIST of an older commit) has the whole file. */
const wholeLocaleKey = 'src/shared/i18n/locales/en.json';

function localeKeys(manifest: Manifest, parts: readonly string[]): readonly string[] {
  return manifest[firstLoadLocaleKey] ? parts : [wholeLocaleKey];
}
const sharedWorkerFile = /(^|\/)shared-worker-[^/]*\.js$/;

/** The manifest entries a module needs before it runs: its own and every static import's, once each. */
export function staticChunks(manifest: Manifest, key: string): ManifestChunk[] {
  const chunks: ManifestChunk[] = [];
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    const chunk = manifest[current];
    if (!chunk) throw new Error(`the manifest has no ${current}`);
    chunks.push(chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return chunks;
}

/** The JavaScript files a module needs before it runs: its chunk and everything it imports statically. */
export function staticClosure(manifest: Manifest, key: string): Set<string> {
  return new Set(staticChunks(manifest, key).flatMap((chunk) => (chunk.file.endsWith('.js') ? [chunk.file] : [])));
}

/** The style sheets a module brings before it runs: its chunk's and those of its static imports. */
export function staticStyleSheets(manifest: Manifest, key: string): Set<string> {
  return new Set(staticChunks(manifest, key).flatMap((chunk) => chunk.css ?? []));
}

/**
 * What a phone fetches before the first price on `/`: the app entry with its static imports,
 * the SharedWorker (the entry names it as an asset) with the chunks it imports statically
 * (its build's own: read from its code, as the manifest does not list them), and the English
 * strings.
 */
export function firstLoadFiles(manifest: Manifest, codeOf: (file: string) => string): Set<string> {
  const files = staticClosure(manifest, appEntryKey);
  const worker = (manifest[appEntryKey]?.assets ?? []).find((file) => sharedWorkerFile.test(file));
  if (!worker) throw new Error('the app entry names no shared-worker asset');
  for (const file of moduleStaticClosure(worker, codeOf)) files.add(file);
  for (const file of firstLoadStringFiles(manifest)) files.add(file);
  return files;
}

/** A built module and the chunks it imports statically (`import … from "./x.js"`, not `import("./x.js")`), theirs too. */
export function moduleStaticClosure(file: string, codeOf: (file: string) => string): Set<string> {
  const files = new Set<string>();
  const pending = [file];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (files.has(current)) continue;
    files.add(current);
    for (const found of codeOf(current).matchAll(/(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["'`](\.{1,2}\/[^"'`]+)["'`]/g)) {
      pending.push(path.posix.join(path.posix.dirname(current), found[1] as string));
    }
  }
  return files;
}

/**
 * The contracts home's first calls load once it shows (banners, products, options offered),
 * with zod and the envelope's schema, beyond the first load: the first price waits for none
 * of them. Empty for a build from before they were loaded on demand.
 */
export const homeCallModuleKeys = ['src/shared/api/anonymous.ts', 'src/shared/api/market.ts', 'src/shared/api/options.ts', 'src/app/api/answer-schemas.ts'];

export function homeCallFiles(manifest: Manifest, firstLoad: ReadonlySet<string>): Set<string> {
  const files = new Set<string>();
  for (const key of homeCallModuleKeys) if (manifest[key]) for (const file of staticClosure(manifest, key)) if (!firstLoad.has(file)) files.add(file);
  return files;
}

/** The first screen's English strings (the whole file in a build from before the split). */
export function firstLoadStringFiles(manifest: Manifest): Set<string> {
  const files = new Set<string>();
  for (const key of localeKeys(manifest, [firstLoadLocaleKey])) for (const file of staticClosure(manifest, key)) files.add(file);
  return files;
}

/** What the staff console fetches before its first screen: its entry with its static imports, and every English string. */
export function staffFirstLoadFiles(manifest: Manifest): Set<string> {
  const files = staticClosure(manifest, staffEntryKey);
  for (const key of localeKeys(manifest, [firstLoadLocaleKey, otherScreensLocaleKey])) for (const file of staticClosure(manifest, key)) files.add(file);
  return files;
}

/** What opening a route adds to the first load: its screen module's chunks not already loaded. */
export function routeExtraFiles(manifest: Manifest, screenModuleKey: string): Set<string> {
  const loaded = staticClosure(manifest, appEntryKey);
  return new Set([...staticClosure(manifest, screenModuleKey)].filter((file) => !loaded.has(file)));
}

export function bytesOf(content: Uint8Array | string): Bytes {
  const buffer = typeof content === 'string' ? Buffer.from(content) : content;
  return { raw: buffer.byteLength, gzip: gzipSync(buffer).byteLength };
}

export function total(files: Iterable<string>, sizeOf: (file: string) => Bytes): Bytes {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const size = sizeOf(file);
    raw += size.raw;
    gzip += size.gzip;
  }
  return { raw, gzip };
}

/**
 * Route name → screen module key, read from the route table's lazy imports in
 * `src/app/routing/screens.ts` (`name: lazyScreen(() => import('../pages/…'), …)`).
 */
export function lazyScreenModules(screensSource: string): Map<string, string> {
  const modules = new Map<string, string>();
  const pattern = /'?([\w-]+)'?\s*[:=]\s*lazyScreen\(\(\) => import\('\.\.\/([^']+)'\)/g;
  for (const found of screensSource.matchAll(pattern)) {
    const [, name, path] = found;
    if (name && path) modules.set(name, `src/app/${path}.tsx`);
  }
  return modules;
}
