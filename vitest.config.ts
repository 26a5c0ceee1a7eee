import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the CPUs: one worker on a 2-CPU CI machine, where
    // the API tests spend much of their time waiting on PostgreSQL, sockets and child processes.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        // The views rendered on React 19 and react-dom 19 (this config has no Preact alias) in
        // jsdom, with React Testing Library: what a user sees and does, with the real rules.
        // The build's version stamp (vite.config.ts), which the sign-in pages' footer shows.
        define: { __APP_VERSION__: JSON.stringify('test') },
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/component/support/setup.ts'],
          // A user's whole flow per test (typing key by key); on a loaded 2-core machine it can take seconds.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/api/support/migrated-pglite.global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // On CI an API test that fails is run once more; npm test names every test that needed it (tests/support/retried-tests-reporter.ts).
          retry: process.env.CI ? 1 : 0,
          // A statement on the database handle from inside an open transaction hangs the embedded
          // database; in tests it is refused where it is asked for (server/db/pglite-dialect.ts).
          // Passwords hash at a test-only cost (server/auth/passwords.ts; tests/unit/auth checks the real one).
          env: { PGLITE_REFUSE_NESTED: '1', PASSWORD_HASH_COST: 'test' },
        },
      },
    ],
  },
});
