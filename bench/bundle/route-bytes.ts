/**
 * Bytes per route from a Vite build manifest (pure: the manifest and the files' bytes come in).
 * Used by `npm run bench` (BENCH_ONLY=bundle) and by the budget check in
 * tests/unit/build/bundle-budget.test.ts.
 */
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

/** The JavaScript files a module needs before it runs: its chunk and everything it imports statically. */
export function staticClosure(manifest: Manifest, key: string): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    const chunk = manifest[current];
    if (!chunk) throw new Error(`the manifest has no ${current}`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return files;
}

/**
 * What a phone fetches before the first price on `/`: the app entry with its static imports,
 * the SharedWorker (the entry names it as an asset) and the English strings.
 */
export function firstLoadFiles(manifest: Manifest): Set<string> {
  const files = staticClosure(manifest, appEntryKey);
  const worker = (manifest[appEntryKey]?.assets ?? []).find((file) => sharedWorkerFile.test(file));
  if (!worker) throw new Error('the app entry names no shared-worker asset');
  files.add(worker);
  for (const file of firstLoadStringFiles(manifest)) files.add(file);
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
