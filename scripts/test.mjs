// `npm test`: every check: types and lint (side by side), then unit and API tests (PGlite, and
// PostgreSQL when TEST_DATABASE_URL is set), the production build, then the browser
// tests in Debian's Chromium at phone and desktop sizes. Ends with one summary line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let failedStages = 0;
const failedStageNames = [];
const failedStageTails = [];
/** How long each stage took, printed at the end: CI has a time limit, and this says where the run spends it. */
const stageSeconds = [];

/** Runs one stage, its output straight to the log. */
function run(title, command, args, options = {}) {
  console.log(`\n=== ${title} ===`);
  const startedMs = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  stageSeconds.push(`${title} ${Math.round((Date.now() - startedMs) / 1000)} s`);
  if (result.status !== 0) {
    failedStages += 1;
    failedStageNames.push(title);
    console.log(`=== ${title}: FAILED ===`);
    return false;
  }
  return true;
}

function ensureChromium() {
  if (fs.existsSync(chromiumPath)) return true;
  console.log(`Chromium not found at ${chromiumPath}; installing Debian's package.`);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = root ? [] : ['sudo'];
  spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(root ? [] : ['apt-get']), 'update', '-qq'], { stdio: 'inherit' });
  spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(root ? [] : ['apt-get']), 'install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
  });
  return fs.existsSync(chromiumPath);
}

function readCounts(file, pick) {
  try {
    return pick(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}

fs.rmSync('test-results', { recursive: true, force: true });
fs.mkdirSync('test-results', { recursive: true });
if (process.env.TEST_DATABASE_URL) console.log(`API tests also run on PostgreSQL (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})`);
else console.log('TEST_DATABASE_URL is not set: API tests run on embedded PGlite only.');

/**
 * A stage run in the background with its output kept, printed whole when it ends: typecheck and
 * lint read the same files and neither writes, so they run side by side (about a minute less on two cores).
 */
function runKept(title, command, args) {
  const startedMs = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => {
      console.log(`\n=== ${title} ===`);
      process.stdout.write(output);
      stageSeconds.push(`${title} ${Math.round((Date.now() - startedMs) / 1000)} s`);
      if (status !== 0) {
        failedStages += 1;
        failedStageNames.push(title);
        failedStageTails.push(`${title}:\n${output.trimEnd().split('\n').slice(-25).map((line) => `    ${line}`).join('\n')}`);
        console.log(`=== ${title}: FAILED ===`);
      }
      resolve(status === 0);
    });
  });
}

await Promise.all([
  runKept('typecheck', 'node', ['scripts/typecheck.mjs']),
  runKept('lint', 'node_modules/.bin/eslint', ['.', '--max-warnings', '0']),
]);
run('unit and API tests', 'node_modules/.bin/vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest.json',
  '--reporter=./tests/support/retried-tests-reporter.ts',
]);
const built = run('build', 'node_modules/.bin/vite', ['build', '--logLevel', 'warn']);
/**
 * The browser tests' two projects, phone and desktop, run side by side: each on its own server
 * (port and embedded database), each project's tests one after another as before. A test waits
 * on the app much of its time, so two at once take little more than one; nothing is shared
 * between the two runs but the built files.
 */
function runBrowserProjects() {
  console.log('\n=== browser tests (phone and desktop side by side) ===');
  const startedMs = Date.now();
  const runs = [
    { project: 'mobile', port: 8181 },
    { project: 'desktop', port: 8191 },
  ].map(({ project, port }) =>
    new Promise((resolve) => {
      const child = spawn('node_modules/.bin/playwright', ['test', '--project', project], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          CHROMIUM_PATH: chromiumPath,
          E2E_PORT: String(port),
          E2E_DATA_DIR: `.tmp/e2e-data-${project}`,
          E2E_REPORT_FILE: `test-results/e2e-${project}.json`,
          E2E_OUTPUT_DIR: `test-results/e2e-artifacts-${project}`,
        },
      });
      // Whole lines, each marked with its project, so the two logs stay readable interleaved.
      for (const stream of [child.stdout, child.stderr]) {
        let pending = '';
        stream.on('data', (chunk) => {
          const lines = (pending + chunk.toString()).split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) process.stdout.write(`[${project}] ${line}\n`);
        });
        stream.on('end', () => pending && process.stdout.write(`[${project}] ${pending}\n`));
      }
      child.on('close', (status) => resolve({ project, status }));
    }),
  );
  return Promise.all(runs).then((results) => {
    stageSeconds.push(`browser tests ${Math.round((Date.now() - startedMs) / 1000)} s`);
    for (const { project, status } of results) {
      if (status === 0) continue;
      failedStages += 1;
      failedStageNames.push(`browser tests (${project})`);
      console.log(`=== browser tests (${project}): FAILED ===`);
    }
  });
}

if (built && ensureChromium()) {
  await runBrowserProjects();
} else if (built) {
  failedStages += 1;
  failedStageNames.push('browser tests (Chromium could not be installed)');
  console.log('=== browser tests: FAILED (Chromium could not be installed) ===');
}

const vitest = readCounts('test-results/vitest.json', (report) => ({
  passed: report.numPassedTests,
  failed: report.numFailedTests,
}));
const e2eReports = ['test-results/e2e-mobile.json', 'test-results/e2e-desktop.json'];
const e2eCounts = e2eReports.map((file) => readCounts(file, (report) => ({ passed: report.stats.expected, failed: report.stats.unexpected + report.stats.flaky })));
const e2e = e2eCounts.some(Boolean)
  ? e2eCounts.reduce((sum, counts) => ({ passed: sum.passed + (counts?.passed ?? 0), failed: sum.failed + (counts?.failed ?? 0) }), { passed: 0, failed: 0 })
  : null;
// The end of the log is what a CI summary shows: name what failed, and what passed only on a retry.
const failedUnit = readCounts('test-results/vitest.json', (report) =>
  report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${file.name.replace(`${process.cwd()}/`, '')} > ${test.fullName}\n    ${(test.failureMessages[0] ?? '').split('\n').slice(0, 4).join('\n    ')}`),
  ),
);
const retried = readCounts('test-results/vitest-retried.json', (list) => list);
const runErrors = readCounts('test-results/vitest-run-errors.json', (list) => list);
const failedBrowser = e2eReports.flatMap((file) => readCounts(file, (report) => {
  const names = [];
  const visit = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = test.results?.find((result) => result.error)?.error?.message ?? '';
          names.push(`[${test.projectName}] ${[...trail, spec.title].join(' > ')} (${test.status})\n    ${error.split('\n').slice(0, 4).join('\n    ')}`);
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...trail, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  return names;
}) ?? []);
if (failedUnit?.length) console.log(`\nFailed unit/API tests:\n${failedUnit.map((line) => `  ${line}`).join('\n')}`);
if (failedStageTails.length) console.log(`\nThe end of each failed stage's output:\n${failedStageTails.map((tail) => `  ${tail}`).join('\n')}`);
if (runErrors?.length) console.log(`\nUnit/API errors outside a test (a file, a hook, unhandled):\n${runErrors.map((each) => `  ${each.where}\n    ${each.error.split('\n').slice(0, 6).join('\n    ')}`).join('\n')}`);
if (retried?.length) console.log(`\nUnit/API tests that passed only on a retry:\n${retried.map((each) => `  ${each.test}\n    first try: ${each.firstError.split('\n').slice(0, 4).join('\n    ')}`).join('\n')}`);
if (failedBrowser?.length) console.log(`\nFailed browser tests:\n${failedBrowser.map((line) => `  ${line}`).join('\n')}`);

const passed = (vitest?.passed ?? 0) + (e2e?.passed ?? 0);
const failed = (vitest?.failed ?? 0) + (e2e?.failed ?? 0);
console.log(`\nstage times: ${stageSeconds.join(', ')}`);
console.log(`unit/API: ${vitest ? `${vitest.passed} passed, ${vitest.failed} failed` : 'no report'}; browser: ${e2e ? `${e2e.passed} passed, ${e2e.failed} failed` : 'no report'}; failed stages: ${failedStages}${failedStageNames.length ? ` (${failedStageNames.join(', ')})` : ''}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedStages === 0 && failed === 0 && passed > 0 ? 0 : 1);
