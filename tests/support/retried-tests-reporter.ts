import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';

/** Where the names (and first errors) of tests that passed only on a retry are written, for `npm test`'s summary. */
export const retriedTestsFile = path.join('test-results', 'vitest-retried.json');

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

  onTestRunEnd() {
    fs.mkdirSync(path.dirname(retriedTestsFile), { recursive: true });
    fs.writeFileSync(retriedTestsFile, JSON.stringify(this.retried, null, 2));
  }
}
