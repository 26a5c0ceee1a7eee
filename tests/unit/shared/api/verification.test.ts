import { describe, expect, it } from 'vitest';
import { maskIdNumber, verificationEditable, verificationFieldProblem, verificationSubmitMeta, VerifiedStatus } from '../../../../src/shared/api/verification';
import { verificationFormState } from '../../../../src/app/features/verification/verification-status';

describe('identity verification rules', () => {
  it('allows fields and submission only in statuses 0, 1 and 3', () => {
    expect([-1, 0, 1, 2, 3].map(verificationEditable)).toEqual([false, true, true, false, true]);
  });

  it('labels the button per the status table: Done, authenticating while under review, disabled until loaded', () => {
    expect(verificationFormState(VerifiedStatus.notLoaded)).toEqual({ editable: false, buttonKey: 'verify.done', loading: true });
    expect(verificationFormState(VerifiedStatus.none)).toEqual({ editable: true, buttonKey: 'verify.done', loading: false });
    expect(verificationFormState(VerifiedStatus.authenticating)).toEqual({ editable: true, buttonKey: 'verify.authenticating', loading: false });
    expect(verificationFormState(VerifiedStatus.authenticated)).toEqual({ editable: false, buttonKey: 'verify.done', loading: false });
    expect(verificationFormState(VerifiedStatus.failed)).toEqual({ editable: true, buttonKey: 'verify.done', loading: false });
  });

  it('requires the real name, then the number, each at most 140 characters; the e-mail only when asked', () => {
    expect(verificationFieldProblem({ realName: ' ', idCard: '' }, false)).toBe('realName');
    expect(verificationFieldProblem({ realName: 'Ada', idCard: '  ' }, false)).toBe('idCard');
    expect(verificationFieldProblem({ realName: 'a'.repeat(141), idCard: 'X' }, false)).toBe('realName');
    expect(verificationFieldProblem({ realName: 'a'.repeat(140), idCard: 'b'.repeat(140) }, false)).toBeNull();
    expect(verificationFieldProblem({ realName: 'Ada', idCard: 'X1', authEmail: '' }, false)).toBeNull();
    expect(verificationFieldProblem({ realName: 'Ada', idCard: 'X1', authEmail: 'not-an-address' }, true)).toBe('authEmail');
    expect(verificationFieldProblem({ realName: 'Ada', idCard: 'X1', authEmail: 'ada@example.com' }, true)).toBeNull();
  });

  it('masks a document number to its first and last two characters, never fewer than four stars', () => {
    expect(maskIdNumber('X1234567890Z')).toBe('X1********0Z');
    expect(maskIdNumber('AB12CD')).toBe('AB****CD');
    expect(maskIdNumber('12345')).toBe('12****45');
    expect(maskIdNumber('1234')).toBe('****');
    expect(maskIdNumber(' 99 ')).toBe('****');
  });

  it('takes idType 0, 1 or 2 only (as text or number), 0 when absent', () => {
    const base = { realName: 'A', idCard: 'B', locale: 'en' };
    expect(verificationSubmitMeta.parse(base).idType).toBe(0);
    expect(verificationSubmitMeta.parse({ ...base, idType: '2' }).idType).toBe(2);
    expect(verificationSubmitMeta.safeParse({ ...base, idType: 3 }).success).toBe(false);
    expect(verificationSubmitMeta.safeParse({ ...base, extra: 1 }).success).toBe(false);
  });
});
