import { describe, expect, it } from 'vitest';
import { versionCheckDecision } from '../../../../src/app/boot/version-check';

describe('version check', () => {
  it('reloads once for a newer deployment and never loops', () => {
    expect(versionCheckDecision('b1', 'b1', null)).toBe('continue');
    expect(versionCheckDecision('b1', null, null)).toBe('continue');
    expect(versionCheckDecision('b1', 'b2', null)).toBe('reload');
    expect(versionCheckDecision('b1', 'b2', 'b2')).toBe('continue');
  });
});
