import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, TestSuite } from 'vitest/node';

/** Where the names (and first errors) of tests that passed only on a retry are written, for `npm test`'s summary. */
export const retriedTestsFile = path.join('test-results', 'vitest-retried.json');

/**
 * Where what failed outside any single test is written: a file that did not load, a hook
 * (beforeAll, afterAll) that threw, an error no test caught. Each fails the run without a
 * failed test to name, so the summary names them instead.
 */
export const runErrorsFile = path.join('test-results', 'vitest-run-errors.json');

interface RetriedTest {
  test: string;
  retries: number;
  firstError: string;
}

/**
 * Records every test that failed and then passed on its retry (the API project retries once
 * on CI), with the error of the failed try, so that `npm test` ends by naming them: a retry
 * keeps one slow moment from failing a run, never hides which test needed it.
 */
export default class RetriedTestsReporter implements Reporter {
  private retried: RetriedTest[] = [];

  onTestCaseResult(testCase: TestCase) {
    const diagnostic = testCase.diagnostic();
    if (!diagnostic?.flaky) return;
    const error = testCase.result().errors?.[0];
    this.retried.push({
      test: `${path.relative(process.cwd(), testCase.module.moduleId)} > ${testCase.fullName}`,
      retries: diagnostic.retryCount,
      firstError: (error?.stack ?? error?.message ?? 'no error recorded').slice(0, 1200),
    });
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    fs.mkdirSync(path.dirname(retriedTestsFile), { recursive: true });
    fs.writeFileSync(retriedTestsFile, JSON.stringify(this.retried, null, 2));
    const describe = (error: SerializedError) => (error.stack ?? error.message ?? String(error)).slice(0, 1200);
    const runErrors: { where: string; error: string }[] = [];
    const visitSuites = (suites: Iterable<TestSuite>, file: string) => {
      for (const suite of suites) {
        for (const error of suite.errors()) runErrors.push({ where: `${file} > ${suite.fullName} (a hook)`, error: describe(error) });
        visitSuites(suite.children.allSuites(), file);
      }
    };
    for (const testModule of testModules) {
      const file = path.relative(process.cwd(), testModule.moduleId);
      for (const error of testModule.errors()) runErrors.push({ where: file, error: describe(error) });
      visitSuites(testModule.children.suites(), file);
    }
    for (const error of unhandledErrors) runErrors.push({ where: 'unhandled, outside any test', error: describe(error) });
    fs.writeFileSync(runErrorsFile, JSON.stringify(runErrors, null, 2));
  }
}
