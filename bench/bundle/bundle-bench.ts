/**
 * `BENCH_ONLY=bundle npm run bench`: the production build's bytes per route from its
 * manifest (deterministic, so the figures hold on any machine), against the budgets that
 * tests/unit/build/bundle-budget.test.ts enforces. BUNDLE_DIST=<dir> measures an existing
 * build made with `vite build --manifest` instead (e.g. another branch's, for a before/after).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { chunkRawBudget, firstLoadGzipBudget, firstLoadGzipTarget, largeChunkExceptions } from '../../tests/unit/build/budgets';
import { bytesOf, firstLoadFiles, homeCallFiles, lazyScreenModules, routeExtraFiles, staffFirstLoadFiles, staticClosure, total, appEntryKey, firstLoadStringFiles, staffEntryKey, type Bytes, type Manifest } from './route-bytes';

interface Section {
  title: string;
  header: string[];
  rows: string[][];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function runBundleBench(): Promise<Section[]> {
  let dist = process.env.BUNDLE_DIST;
  if (!dist) {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-bench-'));
    await build({ logLevel: 'silent', build: { outDir: dist, emptyOutDir: true, manifest: true, sourcemap: false } });
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const sizes = new Map<string, Bytes>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      size = bytesOf(fs.readFileSync(path.join(dist, file)));
      sizes.set(file, size);
    }
    return size;
  };

  const codeOf = (file: string) => fs.readFileSync(path.join(dist, file), 'utf8');
  const entry = staticClosure(manifest, appEntryKey);
  const firstLoad = firstLoadFiles(manifest, codeOf);
  const locale = firstLoadStringFiles(manifest);
  const worker = [...firstLoad].filter((file) => !entry.has(file) && !locale.has(file));
  const firstTotal = total(firstLoad, sizeOf);
  const homeCalls = homeCallFiles(manifest, firstLoad);
  const first: Section = {
    title: 'First load on / before the first price (JavaScript, gzip level 6)',
    header: ['part', 'files', 'raw', 'gzip', 'vs target (CI budget)'],
    rows: [
      ['app entry and its static imports', String(entry.size), kb(total(entry, sizeOf).raw), kb(total(entry, sizeOf).gzip), ''],
      ['SharedWorker', String(worker.length), kb(total(worker, sizeOf).raw), kb(total(worker, sizeOf).gzip), ''],
      ["English strings (the first screen's)", String(locale.size), kb(total(locale, sizeOf).raw), kb(total(locale, sizeOf).gzip), ''],
      [
        `total (target ${kb(firstLoadGzipTarget)}, CI budget ${kb(firstLoadGzipBudget)})`,
        String(firstLoad.size),
        kb(firstTotal.raw),
        kb(firstTotal.gzip),
        `${(firstTotal.gzip / firstLoadGzipTarget).toFixed(2)}× (${(firstTotal.gzip / firstLoadGzipBudget).toFixed(2)}×)`,
      ],
      [
        "then, as home shows: its lists' contracts with zod (not before the first price)",
        String(homeCalls.size),
        kb(total(homeCalls, sizeOf).raw),
        kb(total(homeCalls, sizeOf).gzip),
        '',
      ],
    ],
  };

  const staffEntry = staticClosure(manifest, staffEntryKey);
  const staffFirst = staffFirstLoadFiles(manifest);
  const staffStrings = [...staffFirst].filter((file) => !staffEntry.has(file));
  const staff: Section = {
    title: "The staff console's first load at /staff/ (JavaScript, gzip level 6)",
    header: ['part', 'files', 'raw', 'gzip'],
    rows: [
      ['console entry and its static imports', String(staffEntry.size), kb(total(staffEntry, sizeOf).raw), kb(total(staffEntry, sizeOf).gzip)],
      ['English strings (every part)', String(staffStrings.length), kb(total(staffStrings, sizeOf).raw), kb(total(staffStrings, sizeOf).gzip)],
      ['total', String(staffFirst.size), kb(total(staffFirst, sizeOf).raw), kb(total(staffFirst, sizeOf).gzip)],
    ],
  };

  const screensSource = fs.readFileSync(new URL('../../src/app/routing/screens.ts', import.meta.url), 'utf8');
  const routes: Section = {
    title: 'What opening each route adds to the first load (its screen chunk and what it alone imports)',
    header: ['route', 'files', 'raw', 'gzip'],
    rows: [],
  };
  for (const [name, key] of lazyScreenModules(screensSource)) {
    if (!manifest[key]) {
      routes.rows.push([name, '(in the first load)', '', '']);
      continue;
    }
    const extra = routeExtraFiles(manifest, key);
    const bytes = total(extra, sizeOf);
    routes.rows.push([name === 'workspaceScreen' ? 'home on desktop (the terminal)' : name, String(extra.size), kb(bytes.raw), kb(bytes.gzip)]);
  }

  const chunks = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter((file) => file.endsWith('.js'));
  for (const chunk of Object.values(manifest)) for (const asset of chunk.assets ?? []) if (asset.endsWith('.js')) chunks.push(asset);
  const largest = [...new Set(chunks)].map((file) => ({ file, ...sizeOf(file) })).sort((a, b) => b.raw - a.raw);
  const chunkTable: Section = {
    title: `Largest chunks (limit ${kb(chunkRawBudget)} raw)`,
    header: ['chunk', 'raw', 'gzip', 'vs limit'],
    rows: largest.slice(0, 12).map((chunk) => [
      chunk.file + (largeChunkExceptions.some((pattern) => pattern.test(chunk.file)) ? ' (exception)' : ''),
      kb(chunk.raw),
      kb(chunk.gzip),
      `${(chunk.raw / chunkRawBudget).toFixed(2)}×`,
    ]),
  };
  return [first, staff, routes, chunkTable];
}
