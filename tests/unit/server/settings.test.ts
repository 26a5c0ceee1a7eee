import { describe, expect, it } from 'vitest';
import { parseServerRoles, parseTrustProxy, readSettings } from '../../../server/settings';

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

describe('SERVER_ROLES', () => {
  const shared = {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tradeweb',
    MARKET_BROKER_URL: 'ws://127.0.0.1:15674/ws',
    JWT_SECRET: 'a-shared-signing-secret-of-at-least-32-chars',
    DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  };

  it('is one process doing everything by default, with nothing more to set', () => {
    const settings = readSettings({});
    expect(settings.singleProcess).toBe(true);
    expect([...settings.roles].sort()).toEqual(['api', 'jobs', 'market']);
  });

  it('takes a comma list of market, api and jobs', () => {
    const settings = readSettings({ ...shared, SERVER_ROLES: 'api, jobs' });
    expect(settings.singleProcess).toBe(false);
    expect([...settings.roles].sort()).toEqual(['api', 'jobs']);
    expect(parseServerRoles('market')?.roles.has('market')).toBe(true);
    for (const bad of ['', 'web', 'all,api', 'api,,web']) expect(parseServerRoles(bad), bad).toBeNull();
    expect(() => readSettings({ ...shared, SERVER_ROLES: 'web' })).toThrow(/SERVER_ROLES/);
  });

  it('refuses to start a role of several processes without the settings every process must share', () => {
    for (const name of Object.keys(shared) as (keyof typeof shared)[]) {
      const environment: Record<string, string> = { ...shared, SERVER_ROLES: 'api' };
      delete environment[name];
      expect(() => readSettings(environment), name).toThrow(new RegExp(`${name}: required when SERVER_ROLES is not 'all'`));
    }
    // One process keeps generating what is missing under DATA_DIR.
    expect(readSettings({ SERVER_ROLES: 'all' }).jwtSecret).toBeNull();
  });

  it('refuses `all` on a shared database and broker without the shared keys: it publishes ticks to the processes beside it', () => {
    for (const name of ['JWT_SECRET', 'DATA_ENCRYPTION_KEY'] as const) {
      const environment: Record<string, string> = { ...shared, SERVER_ROLES: 'all' };
      delete environment[name];
      expect(() => readSettings(environment), name).toThrow(new RegExp(`${name}: required when SERVER_ROLES=all runs on DATABASE_URL with MARKET_BROKER_URL`));
    }
    expect(readSettings({ ...shared, SERVER_ROLES: 'all' }).singleProcess).toBe(true);
    // Alone on its database or without a broker, nobody follows it: nothing more to set.
    expect(readSettings({ MARKET_BROKER_URL: shared.MARKET_BROKER_URL }).jwtSecret).toBeNull();
    expect(readSettings({ DATABASE_URL: shared.DATABASE_URL }).jwtSecret).toBeNull();
  });
});

describe('SMS_WEBHOOK_URL and SMS_WEBHOOK_SECRET', () => {
  it('sends SMS to the outbox by default and through the webhook when both are set', () => {
    expect(readSettings({}).smsWebhook).toBeNull();
    const secret = 'a-long-enough-shared-secret';
    expect(readSettings({ SMS_WEBHOOK_URL: 'https://sms.example/hook', SMS_WEBHOOK_SECRET: secret }).smsWebhook).toEqual({ url: 'https://sms.example/hook', secret });
  });

  it('refuses one without the other, and a short secret', () => {
    expect(() => readSettings({ SMS_WEBHOOK_URL: 'https://sms.example/hook' })).toThrow(/set both or neither/);
    expect(() => readSettings({ SMS_WEBHOOK_SECRET: 'a-long-enough-shared-secret' })).toThrow(/set both or neither/);
    expect(() => readSettings({ SMS_WEBHOOK_URL: 'https://sms.example/hook', SMS_WEBHOOK_SECRET: 'short' })).toThrow(/SMS_WEBHOOK_SECRET/);
  });
});
