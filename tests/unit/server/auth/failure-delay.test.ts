import { describe, expect, it } from 'vitest';
import { failureDelaySchedule, failureDelaySeconds } from '../../../../server/auth/failure-delay';
import { parseTrustProxy, readSettings } from '../../../../server/settings';

describe('the growing delay after failures', () => {
  const policy = { freeFailures: 5, maxDelaySeconds: 900 };

  it('costs nothing for the first failures, then doubles up to the cap', () => {
    expect([1, 2, 3, 4].map((failures) => failureDelaySeconds(failures, policy))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((failures) => failureDelaySeconds(failures, policy))).toEqual([1, 2, 4, 8]);
    expect(failureDelaySeconds(15, policy)).toBe(900);
    expect(failureDelaySeconds(10_000, policy)).toBe(900);
  });

  it('tabulates every delay up to the first that reaches the cap', () => {
    expect(failureDelaySchedule(policy)).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
    expect(failureDelaySchedule({ freeFailures: 1, maxDelaySeconds: 3 })).toEqual([1, 2, 3]);
  });
});

describe('TRUST_PROXY', () => {
  it('accepts addresses, CIDRs and range names, and nothing by default', () => {
    expect(readSettings({}).trustProxy).toEqual([]);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16,::1,fd00::/8,loopback')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1', 'fd00::/8', 'loopback']);
    expect(readSettings({ TRUST_PROXY: '172.16.0.0/12' }).trustProxy).toEqual(['172.16.0.0/12']);
  });

  it('refuses what is not an address or a CIDR', () => {
    for (const bad of ['true', '*', 'proxy.example', '10.0.0.0/33', '::/129', '10.0.0.1/', '10.0.0/8', '10.0.0.1/8/8', '1.2.3.4, yes']) {
      expect(parseTrustProxy(bad), bad).toBeNull();
      expect(() => readSettings({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('refuses growing-delay settings out of range', () => {
    expect(() => readSettings({ LOGIN_FAILURES_BEFORE_DELAY: '0' })).toThrow(/LOGIN_FAILURES_BEFORE_DELAY/);
    expect(() => readSettings({ AUTH_DELAY_MAX_SECONDS: 'soon' })).toThrow(/AUTH_DELAY_MAX_SECONDS/);
  });
});
