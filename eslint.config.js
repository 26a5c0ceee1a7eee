import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    files: ['src/app/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The app reaches the worker only through the declared protocol in src/shared.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/worker/**'], allowTypeImports: true, message: 'The app imports worker code only as types.' }] },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', 'react', 'react-dom', '**/app/**', '**/worker/**', '**/server/**'], message: 'src/shared has no DOM, no Node and no app code.' }] },
      ],
    },
  },
  {
    files: ['src/worker/**/*.ts'],
    languageOptions: { globals: { ...globals.worker } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/app/**', 'react', 'react-dom'], message: 'The worker knows nothing of the views.' }] }],
    },
  },
);
