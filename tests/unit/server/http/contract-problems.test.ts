import { describe, expect, it } from 'vitest';
import { contractProblems } from '../../../../server/http/contract-problems';
import { noticeList } from '../../../../src/shared/api/notices';
import { bindEmail } from '../../../../src/shared/api/credentials';

// The contracts are zod/mini, which carries no messages; the server's 1001 answers keep zod's
// English ones, word for word as when the contracts were classic zod.
describe('contract problems (the 1001 answer of a refused body)', () => {
  it('names each field with zod English message, the body itself for an unknown key', () => {
    const parsed = noticeList.body.safeParse({ page: 0, limit: 101, extra: true });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(contractProblems(parsed.error, '(body)')).toEqual([
      'page: Too small: expected number to be >=1',
      'limit: Too big: expected number to be <=100',
      '(body): Unrecognized key: "extra"',
    ]);
  });

  it('words type and pattern refusals as classic zod did', () => {
    const parsed = bindEmail.body.safeParse({ email: 3, code: '12a456' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(contractProblems(parsed.error, '(body)')).toEqual([
      'email: Invalid input: expected string, received number',
      'code: Invalid string: must match pattern /^\\d{6}$/',
    ]);
  });
});
