import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // On CI an API test that fails is run once more; npm test names every test that needed it (tests/support/retried-tests-reporter.ts).
          retry: process.env.CI ? 1 : 0,
        },
      },
    ],
  },
});
