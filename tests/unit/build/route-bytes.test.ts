import { describe, expect, it } from 'vitest';
import { firstLoadFiles, homeCallFiles, lazyScreenModules, moduleStaticClosure, routeExtraFiles, staffFirstLoadFiles, staticClosure, total, type Manifest } from '../../../bench/bundle/route-bytes';

// A small build: the entry shares a library chunk with one lazy screen; another screen brings its own.
const manifest: Manifest = {
  'index.html': { file: 'assets/app.js', isEntry: true, imports: ['_react.js'], dynamicImports: ['src/app/pages/a.tsx', 'src/app/pages/b.tsx'], assets: ['assets/shared-worker-1.js', 'assets/dedicated-worker-1.js'] },
  '_react.js': { file: 'assets/react.js' },
  '_phone.js': { file: 'assets/phone.js' },
  'src/app/pages/a.tsx': { file: 'assets/a.js', isDynamicEntry: true, imports: ['_react.js', 'index.html'] },
  '_zod.js': { file: 'assets/zod.js' },
  'src/shared/api/market.ts': { file: 'assets/market.js', isDynamicEntry: true, imports: ['_zod.js', '_react.js'] },
  'src/app/pages/b.tsx': { file: 'assets/b.js', isDynamicEntry: true, imports: ['_react.js', '_phone.js'] },
  'src/shared/i18n/locales/en.json?strings=first-screen': { file: 'assets/en.js', isDynamicEntry: true },
  'src/shared/i18n/locales/en.json?strings=other-screens': { file: 'assets/en-other.js', isDynamicEntry: true },
  'staff/index.html': { file: 'assets/staff.js', isEntry: true, imports: ['_react.js'] },
  '_app.css': { file: 'assets/app.css' },
};

// The built workers' code as far as their imports go (the manifest does not list a worker's chunks).
const workerCode: Record<string, string> = {
  'assets/shared-worker-1.js': 'const a=1;export{a as b};import(`./session-api-1.js`)',
  'assets/dedicated-worker-1.js': '',
};
const codeOf = (file: string) => workerCode[file] ?? '';

describe('bytes per route from the build manifest', () => {
  it("counts the entry, its static imports, the shared worker and the first screen's English strings as the first load, once each", () => {
    expect([...firstLoadFiles(manifest, codeOf)].sort()).toEqual(['assets/app.js', 'assets/en.js', 'assets/react.js', 'assets/shared-worker-1.js']);
    const sizes: Record<string, number> = { 'assets/app.js': 100, 'assets/en.js': 10, 'assets/react.js': 50, 'assets/shared-worker-1.js': 20 };
    expect(total(firstLoadFiles(manifest, codeOf), (file) => ({ raw: sizes[file] ?? 0, gzip: (sizes[file] ?? 0) / 2 }))).toEqual({ raw: 180, gzip: 90 });
  });

  it('counts the chunks the shared worker imports statically, theirs too, and not those it imports on demand', () => {
    const split: Record<string, string> = {
      'assets/shared-worker-1.js': 'import{A as e,C as t}from"./util-1.js";const n=e;import(`./session-api-1.js`)',
      'assets/util-1.js': 'import"./core-1.js";export{x as A}',
      'assets/core-1.js': 'export{y as C};const z=`import x from "./not-an-import.js"`',
      'assets/session-api-1.js': 'import{a}from"./shared-worker-1.js"',
    };
    const first = firstLoadFiles(manifest, (file) => split[file] ?? '');
    expect([...first].filter((file) => !['assets/app.js', 'assets/en.js', 'assets/react.js'].includes(file)).sort()).toEqual(['assets/core-1.js', 'assets/shared-worker-1.js', 'assets/util-1.js']);
    expect([...moduleStaticClosure('assets/session-api-1.js', (file) => split[file] ?? '')].sort()).toEqual(['assets/core-1.js', 'assets/session-api-1.js', 'assets/shared-worker-1.js', 'assets/util-1.js']);
  });

  it("counts apart what home's first calls load after the first price: their contracts and zod, not what the first load holds", () => {
    expect([...homeCallFiles(manifest, firstLoadFiles(manifest, codeOf))].sort()).toEqual(['assets/market.js', 'assets/zod.js']);
  });

  it("counts the staff console's entry, its static imports and both parts of the English strings as its first load", () => {
    expect([...staffFirstLoadFiles(manifest)].sort()).toEqual(['assets/en-other.js', 'assets/en.js', 'assets/react.js', 'assets/staff.js']);
  });

  it('counts for a route only the chunks the first load does not already hold', () => {
    expect([...routeExtraFiles(manifest, 'src/app/pages/a.tsx')]).toEqual(['assets/a.js']);
    expect([...routeExtraFiles(manifest, 'src/app/pages/b.tsx')].sort()).toEqual(['assets/b.js', 'assets/phone.js']);
    expect(staticClosure(manifest, 'src/app/pages/b.tsx').has('assets/app.js')).toBe(false);
    expect(() => staticClosure(manifest, 'src/missing.tsx')).toThrow(/no src\/missing.tsx/);
  });

  it('reads which module each lazy route loads from the screen table', () => {
    const source = ["  login: lazyScreen(() => import('../pages/auth/login-page'), 'LoginPage'),", "  'user-deposit': lazyScreen(() => import('../pages/user/deposit-page'), 'DepositPage'),", '  home: HomePage,'].join('\n');
    expect([...lazyScreenModules(source)]).toEqual([
      ['login', 'src/app/pages/auth/login-page.tsx'],
      ['user-deposit', 'src/app/pages/user/deposit-page.tsx'],
    ]);
  });
});
