/**
 * The app's modules that load with a given one (its static imports, followed through relative
 * paths; `import type` and `import()` are not followed), read from the sources. Pure file reads:
 * the first screen's strings test uses it to see which strings the first load can show.
 */
import fs from 'node:fs';
import path from 'node:path';

const importPattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const extensions = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

function resolveImport(fromFile: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(fromFile), specifier);
  if (/\.(ts|tsx)$/.test(base) && fs.existsSync(base)) return base;
  for (const extension of extensions) if (fs.existsSync(base + extension)) return base + extension;
  return null;
}

export function staticSourceGraph(entryFile: string): Map<string, string> {
  const sources = new Map<string, string>();
  const pending = [path.resolve(entryFile)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (sources.has(file)) continue;
    const source = fs.readFileSync(file, 'utf8');
    sources.set(file, source);
    for (const found of source.matchAll(importPattern)) {
      const resolved = resolveImport(file, found[1] as string);
      if (resolved && !sources.has(resolved)) pending.push(resolved);
    }
  }
  return sources;
}

/** The top-level sections of the locale files that a source names in a key (`'home.title'`, `` `errors.${code}` ``). */
export function sectionsNamedIn(source: string, sections: ReadonlySet<string>): Set<string> {
  const named = new Set<string>();
  for (const found of source.matchAll(/['"`]([a-z_]+)\.(?:[a-zA-Z0-9_]+|\$\{)/g)) {
    const section = found[1] as string;
    if (sections.has(section)) named.add(section);
  }
  return named;
}
