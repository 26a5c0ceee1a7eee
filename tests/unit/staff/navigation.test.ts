import { describe, expect, it } from 'vitest';
import { mayCall, reviewKindsFor, sectionsFor } from '../../../src/staff/navigation';

const ids = (roles: Parameters<typeof sectionsFor>[0]) => sectionsFor(roles).map((section) => section.id);

describe('the console menu per role', () => {
  it('gives support customers and notices, and no queue', () => {
    expect(ids(['support'])).toEqual(['home', 'customers', 'notices', 'declarations']);
    expect(reviewKindsFor(['support'])).toEqual([]);
  });

  it('gives finance the money queues and compliance the identity queues with the audit trail', () => {
    expect(ids(['finance'])).toEqual(['home', 'customers', 'queues', 'declarations']);
    expect(reviewKindsFor(['finance'])).toEqual(['deposit', 'withdrawal', 'loan', 'repayment']);
    expect(ids(['compliance'])).toEqual(['home', 'customers', 'queues', 'audit', 'declarations']);
    expect(reviewKindsFor(['compliance'])).toEqual(['identity', 'juniorIdentity']);
  });

  it('gives an admin every section and every queue', () => {
    expect(ids(['admin'])).toEqual(['home', 'customers', 'queues', 'notices', 'audit', 'config', 'staff', 'declarations']);
    expect(reviewKindsFor(['admin'])).toHaveLength(6);
  });

  it('unites the sections of several roles', () => {
    expect(ids(['support', 'finance'])).toEqual(['home', 'customers', 'queues', 'notices', 'declarations']);
  });

  it('lets only finance read a ledger and only compliance prohibit trading', () => {
    expect(mayCall(['finance'], '/v1/staff/customers/ledger')).toBe(true);
    expect(mayCall(['support'], '/v1/staff/customers/ledger')).toBe(false);
    expect(mayCall(['compliance'], '/v1/staff/customers/setTradingProhibited')).toBe(true);
    expect(mayCall(['finance'], '/v1/staff/customers/setTradingProhibited')).toBe(false);
  });
});
