import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBrandConfig, parseBrandConfigExplained } from '../../../../src/shared/config/brand-config';
import { marketSocketUrl } from '../../../../src/shared/config/socket-urls';

describe('brand config.json', () => {
  it('accepts the shipped brands/default/config.json', () => {
    const shipped = JSON.parse(fs.readFileSync(new URL('../../../../brands/default/config.json', import.meta.url), 'utf8'));
    const result = parseBrandConfig(shipped);
    expect(result.ok).toBe(true);
  });

  it('fills every default from an empty object', () => {
    const result = parseBrandConfig({});
    expect(result).toMatchObject({
      ok: true,
      config: { siteName: 'TradeWeb', defaultTradeMode: 'market', requestTimeoutMs: 0, upDownTemplate: 0, batchWindowMs: 100 },
    });
  });

  it('names each wrong or unknown field, in zod\'s English messages (loaded on demand)', async () => {
    const result = await parseBrandConfigExplained({ siteName: '', upDownTemplate: 2, apiRoot: 'ftp://x', colour: 'red' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const fields = result.problems.map((problem) => problem.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['siteName', 'upDownTemplate', 'apiRoot', '(root)']));
    expect(result.problems.join('\n')).toContain('Unrecognized key: "colour"');
    expect(result.problems).toContain('siteName: Too small: expected string to have >=1 characters');
  });

  it('rejects a config that is not an object', () => {
    expect(parseBrandConfig(null).ok).toBe(false);
    expect(parseBrandConfig([1, 2]).ok).toBe(false);
  });
});

describe('market socket address', () => {
  it('uses the override, else the market root, else the page origin, as ws(s)', () => {
    expect(marketSocketUrl({ marketSocketUrl: 'wss://mq.example/ws', marketRoot: '' }, 'https://app.example')).toBe('wss://mq.example/ws');
    expect(marketSocketUrl({ marketSocketUrl: '', marketRoot: 'https://md.example' }, 'https://app.example')).toBe('wss://md.example/market/stomp');
    expect(marketSocketUrl({ marketSocketUrl: '', marketRoot: '' }, 'http://localhost:8080')).toBe('ws://localhost:8080/market/stomp');
  });
});
