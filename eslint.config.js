import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The app reaches the worker only through the declared protocol in src/shared.
const workerTypesOnly = { group: ['**/worker/**'], allowTypeImports: true, message: 'The app imports worker code only as types.' };

// The staff console (src/staff/) is its own bundle: the customer app and the worker never import it,
// so a customer never downloads staff code (tests/unit/staff/bundle-boundary.test.ts checks the build).
const noStaffConsole = { regex: '^(\\.\\./)+staff(/|$)', message: 'The customer app and the worker never import the staff console (src/staff).' };
// The console reuses the app's components, theme, i18n and preferences, never its screens or engine.
const consoleReuseOnly = {
  regex: '(^|/)app/(pages|features|engine|layouts|routing|workspace)(/|$)|(^|/)worker(/|$)',
  message: 'The staff console reuses src/app components, theme and i18n only: no pages, features, engine or worker.',
};

// The browser's schemas are zod/mini: classic zod's methods keep every schema kind in the bundle
// (about 25 KB gzip against 9). The server may use classic zod; src/** only zod/mini.
const classicZod = ['zod', 'zod/v4', 'zod/v3'].map((name) => ({
  name,
  allowTypeImports: true,
  message: "src/ imports zod/mini (`import * as z from 'zod/mini'`); classic zod is for the server only.",
}));

// Route screens: src/app/pages/<name>/. A page composes features; it never imports another
// page, and features, components and layouts never import a page (only routing does).
const pageFolders = readdirSync(new URL('./src/app/pages/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const anyPage = { regex: '(^|/)pages(/|$)', message: 'Features, components and layouts never import a page: move what is shared into src/app/features/.' };
/** Another page folder, reached from inside `page` (`../other/…`, or through `pages/`). */
function otherPages(page) {
  const others = pageFolders.filter((name) => name !== page).join('|');
  return {
    regex: `^(\\.\\./)+(pages/)?(${others})(/|$)|(^|/)pages/(${others})(/|$)`,
    message: 'A page never imports another page: move what both use into src/app/features/.',
  };
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', '.tmp', 'data'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: classicZod }] },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: classicZod, patterns: [workerTypesOnly, noStaffConsole] }],
    },
  },
  {
    files: ['src/app/features/**/*.{ts,tsx}', 'src/app/components/**/*.{ts,tsx}', 'src/app/layouts/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: classicZod, patterns: [workerTypesOnly, anyPage, noStaffConsole] }] },
  },
  ...pageFolders.map((page) => ({
    files: [`src/app/pages/${page}/**/*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { paths: classicZod, patterns: [workerTypesOnly, otherPages(page), noStaffConsole] }] },
  })),
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: classicZod, patterns: [{ group: ['node:*', 'react', 'react-dom', '**/app/**', '**/worker/**', '**/server/**'], message: 'src/shared has no DOM, no Node and no app code.' }] },
      ],
    },
  },
  {
    files: ['src/worker/**/*.ts'],
    languageOptions: { globals: { ...globals.worker } },
    rules: {
      'no-restricted-imports': ['error', { paths: classicZod, patterns: [{ group: ['**/app/**', 'react', 'react-dom'], message: 'The worker knows nothing of the views.' }, noStaffConsole] }],
    },
  },
  {
    files: ['src/staff/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: classicZod, patterns: [consoleReuseOnly] }],
    },
  },
);
