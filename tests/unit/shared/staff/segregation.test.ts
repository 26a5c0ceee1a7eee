import { describe, expect, it } from 'vitest';
import { dutiesConflict } from '../../../../src/shared/staff/segregation';

const day = 86_400_000;
const now = Date.parse('2026-01-13T12:00:00Z');
const period = 7 * day;

describe('segregation of duties: who may be the second of a two-person control', () => {
  it('refuses the same member twice', () => {
    expect(dutiesConflict(4, 4, [], now, period)).toBe('same');
  });

  it('refuses two members of whom one created or re-roled the other within the period, whichever approves first', () => {
    const created = [{ actorId: 4, targetId: 9, atMs: now - 6 * day }];
    expect(dutiesConflict(4, 9, created, now, period)).toBe('related');
    expect(dutiesConflict(9, 4, created, now, period)).toBe('related');
  });

  it('refuses two members one admin made (or re-roled) within the period: the admin would be both pairs of eyes', () => {
    const siblings = [
      { actorId: 3, targetId: 4, atMs: now - 6 * day },
      { actorId: 3, targetId: 9, atMs: now - day },
    ];
    expect(dutiesConflict(4, 9, siblings, now, period)).toBe('related');
    expect(dutiesConflict(9, 4, siblings, now, period)).toBe('related');
    // Once the older of the two is past the period, they are independent.
    expect(dutiesConflict(4, 9, [{ ...siblings[0]!, atMs: now - period }, siblings[1]!], now, period)).toBeNull();
  });

  it('lets them act together once the period has passed, and ignores what others did to either', () => {
    expect(dutiesConflict(4, 9, [{ actorId: 4, targetId: 9, atMs: now - period }], now, period)).toBeNull();
    expect(dutiesConflict(4, 9, [{ actorId: 5, targetId: 9, atMs: now }, { actorId: null, targetId: 4, atMs: now }], now, period)).toBeNull();
    // The command line made both: no member in the console did.
    expect(dutiesConflict(4, 9, [{ actorId: null, targetId: 9, atMs: now }, { actorId: null, targetId: 4, atMs: now }], now, period)).toBeNull();
  });
});
