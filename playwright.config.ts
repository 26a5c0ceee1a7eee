import { defineConfig } from '@playwright/test';

/** Browser tests drive the built app, served by the real server, in Debian's Chromium. */
export const e2ePort = Number(process.env.E2E_PORT ?? 8181);
export const e2eJwtSecret = 'e2e-only-signing-key-not-a-secret-0123456789';

const chromium = {
  browserName: 'chromium' as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  },
};

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // A server that stops answering fails every later test at its timeout; on CI the run stops
  // after this many failures instead of running past CI's limit (the failures name the cause).
  maxFailures: process.env.CI ? 12 : 0,
  // `npm test` runs the phone and the desktop project side by side, each on its own server: each names its own files.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e-artifacts',
  reporter: [['list'], ['json', { outputFile: process.env.E2E_REPORT_FILE ?? 'test-results/e2e.json' }]],
  // A trace records every action of every test and costs the run real time; CI keeps only its log,
  // so there it is off (the failure's message and screenshot still print), and on for local runs.
  use: { baseURL: `http://localhost:${e2ePort}`, locale: 'en-US', trace: process.env.CI ? 'off' : 'retain-on-failure', screenshot: 'only-on-failure' },
  projects: [
    // A test tagged @desktop or @mobile is about one layout and runs only in its project.
    { name: 'mobile', grepInvert: /@desktop/, use: { ...chromium, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
    { name: 'desktop', grepInvert: /@mobile/, use: { ...chromium, viewport: { width: 1440, height: 900 } } },
  ],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `http://localhost:${e2ePort}/healthz`,
    reuseExistingServer: false,
    // The server builds nothing, but a loaded machine can take over a minute to start it; waiting costs nothing when it is quick.
    timeout: 180_000,
    env: { PORT: String(e2ePort), JWT_SECRET: e2eJwtSecret },
  },
});
