import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBrandConfig } from '../../../../src/shared/config/brand-config';
import { parseCustomerLinkSetting, formatCustomerLinkSetting, serviceChannels } from '../../../../src/shared/config/customer-link';
import { switchDefaults, switchesFromItems } from '../../../../src/shared/config/switches';
import { availableTradeModes, currentTradeMode } from '../../../../src/shared/config/trade-mode';

describe('brand config.json', () => {
  it('accepts the shipped public/config.json', () => {
    const shipped = JSON.parse(fs.readFileSync(new URL('../../../../public/config.json', import.meta.url), 'utf8'));
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

  it('names each wrong or unknown field', () => {
    const result = parseBrandConfig({ siteName: '', upDownTemplate: 2, apiRoot: 'ftp://x', colour: 'red' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const fields = result.problems.map((problem) => problem.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['siteName', 'upDownTemplate', 'apiRoot', '(root)']));
    expect(result.problems.join('\n')).toContain('colour');
  });

  it('rejects a config that is not an object', () => {
    expect(parseBrandConfig(null).ok).toBe(false);
    expect(parseBrandConfig([1, 2]).ok).toBe(false);
  });
});

describe('feature switches and trade modes', () => {
  it('starts from the specification defaults and takes the server values', () => {
    const switches = switchesFromItems([
      { name: 'Contract', enable: true },
      { name: 'NotASwitch', enable: true },
    ]);
    expect(switches.Contract).toBe(true);
    expect(switches.PHONE_REGISTER_SMS_VERIFICATION).toBe(true);
    expect(switches.VIRTUAL_CURRENCY_TRADE).toBe(false);
    expect(Object.keys(switches)).toEqual(Object.keys(switchDefaults));
  });

  const brand = { defaultTradeMode: 'option' as const, tradeTabOrder: ['option', 'market'] as ('market' | 'option')[] };

  it('offers only the brand default when one or no mode is enabled', () => {
    expect(availableTradeModes({ Contract: false, OptionMock: false }, brand)).toEqual(['option']);
    expect(availableTradeModes({ Contract: true, OptionMock: false }, brand)).toEqual(['option']);
  });

  it('offers both modes in the brand tab order when both are enabled', () => {
    expect(availableTradeModes({ Contract: true, OptionMock: true }, brand)).toEqual(['option', 'market']);
    expect(availableTradeModes({ Contract: true, OptionMock: true }, { ...brand, tradeTabOrder: [] })).toEqual(['market', 'option']);
  });

  it('keeps a stored mode only while it is available', () => {
    expect(currentTradeMode(['market', 'option'], 'option')).toBe('option');
    expect(currentTradeMode(['market'], 'option')).toBe('market');
  });
});

describe('customer-service link setting', () => {
  it('parses mode|json array and writes it back', () => {
    const link = parseCustomerLinkSetting('1|["https://chat.example/x","https://t.me/a","https://wa.me/1","help@example.com"]');
    expect(link).toEqual({ mode: 1, url: 'https://chat.example/x', telegram: 'https://t.me/a', whatsapp: 'https://wa.me/1', email: 'help@example.com' });
    expect(parseCustomerLinkSetting(formatCustomerLinkSetting(link!))).toEqual(link);
  });

  it('refuses malformed values', () => {
    for (const value of ['', '|[]', 'x|[]', '1|{', '1|[1]', '-1|[]', '1|{"url":"a"}']) {
      expect(parseCustomerLinkSetting(value), value).toBeNull();
    }
  });
});

describe('market socket address', () => {
  it('uses the override, else the market root, else the page origin, as ws(s)', async () => {
    const { marketSocketUrl } = await import('../../../../src/shared/config/brand-config');
    expect(marketSocketUrl({ marketSocketUrl: 'wss://mq.example/ws', marketRoot: '' }, 'https://app.example')).toBe('wss://mq.example/ws');
    expect(marketSocketUrl({ marketSocketUrl: '', marketRoot: 'https://md.example' }, 'https://app.example')).toBe('wss://md.example/market/stomp');
    expect(marketSocketUrl({ marketSocketUrl: '', marketRoot: '' }, 'http://localhost:8080')).toBe('ws://localhost:8080/market/stomp');
  });
});

describe('customer service channels', () => {
  it('embeds the chat when only its url is configured, else offers cards', () => {
    expect(serviceChannels({ url: 'https://chat.example/room', telegram: '', whatsapp: '', email: '', mode: 0 })).toMatchObject({ view: 'frame', chatUrl: 'https://chat.example/room' });
    expect(serviceChannels({ url: 'https://chat.example/room', telegram: 'https://t.me/x', whatsapp: '', email: '', mode: 1 })).toMatchObject({ view: 'cards', chatInPage: false, telegram: 'https://t.me/x' });
  });

  it('drops links that are not http(s) and addresses that are not e-mail', () => {
    const channels = serviceChannels({ url: 'javascript:alert(1)', telegram: 'data:text/html,x', whatsapp: 'https://wa.me/1', email: 'not an address', mode: 0 });
    expect(channels).toMatchObject({ chatUrl: null, telegram: null, whatsapp: 'https://wa.me/1', email: null, view: 'cards' });
  });
});
