import { describe, expect, it } from 'vitest';
import { customerLinkSettingProblem, formatCustomerLinkSetting, parseCustomerLinkSetting, serviceChannels } from '../../../../src/shared/config/customer-link';

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

describe('customer-service setting staff may store', () => {
  it('accepts a setting whose every non-empty link the page would use', () => {
    expect(customerLinkSettingProblem('0|["https://chat.example/room","","",""]')).toBeNull();
    expect(customerLinkSettingProblem('1|["","https://t.me/brand","https://wa.me/1","help@example.com"]')).toBeNull();
    expect(customerLinkSettingProblem('0|["","","",""]')).toBeNull();
  });

  it('refuses what does not parse, an unknown mode, an unsafe link or a wrong address', () => {
    for (const value of ['https://chat.example', '2|["","","",""]', '0|["javascript:alert(1)","","",""]', '0|["","http://t.me/a b","",""]', '0|["","","","help"]']) {
      expect(customerLinkSettingProblem(value), value).not.toBeNull();
    }
  });
});
