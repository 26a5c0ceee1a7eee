import { describe, expect, it } from 'vitest';
import { parseTrustProxy, readSettings } from '../../../server/settings';

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

describe('RISK_CHECK_MS', () => {
  it('runs stop-out every second by default and takes another interval within 100 ms to an hour', () => {
    expect(readSettings({}).riskCheckMs).toBe(1_000);
    expect(readSettings({ RISK_CHECK_MS: '250' }).riskCheckMs).toBe(250);
    for (const bad of ['0', '99', '3600001', 'often']) expect(() => readSettings({ RISK_CHECK_MS: bad }), bad).toThrow(/RISK_CHECK_MS/);
  });
});

describe('FOUR_EYES_USD', () => {
  it('is 1000 USD by default and takes another exact decimal amount', () => {
    expect(readSettings({}).fourEyesUsd).toBe('1000');
    expect(readSettings({ FOUR_EYES_USD: '2500.50' }).fourEyesUsd).toBe('2500.50');
  });

  it('refuses what is not an exact, non-negative decimal amount', () => {
    for (const bad of ['', '-1', '1e3', '1,000', '10.123456789', 'lots']) expect(() => readSettings({ FOUR_EYES_USD: bad }), bad).toThrow(/FOUR_EYES_USD/);
  });
});
