import { describe, expect, it } from 'vitest';
import { codeDigits } from '../../../../../src/app/pages/auth/code-input';

describe('code field', () => {
  it('keeps only digits, at most six, so a pasted code with separators goes in whole', () => {
    expect(codeDigits('123 456')).toBe('123456');
    expect(codeDigits('12-34-56-78')).toBe('123456');
    expect(codeDigits('a1b2')).toBe('12');
  });
});
