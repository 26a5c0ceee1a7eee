import { describe, expect, it } from 'vitest';
import { switchDefaults } from '../../../../src/shared/config/switches';
import { screenOfLink, screensLinkedFrom } from '../../../../src/app/routing/likely-next';
import { hasScreen } from '../../../../src/app/routing/routes';

const page = 'https://trade.example/';
const visitor = { signedIn: false, book: null, switches: { ...switchDefaults }, hasScreen };
const realUser = { ...visitor, signedIn: true, book: 'real' as const };

/** Home's links on a phone, in page order: header, trade types, hot cards, quotes, the tab bar. */
const homeLinks = ['/user/service', '/login', '/register', '/user/deposit', '/user/withdraw', '/BTCUSDT/chart', '/EURUSD/chart', '/quotation', '/', '/position', '/history', '/user'];

describe('the screens fetched ahead from a page: where its links lead', () => {
  it("follows the guard: a visitor's links to money and account pages open sign-in, so sign-in is fetched, not the wallet", () => {
    expect(screensLinkedFrom(homeLinks, page, visitor)).toEqual(['user-service', 'login', 'register', 'chart', 'quotation']);
  });

  it('fetches the screens a signed-in person would open, and never sign-in, which would send them home', () => {
    expect(screensLinkedFrom(homeLinks, page, realUser)).toEqual(['user-service', 'user-deposit', 'user-withdraw', 'chart', 'quotation', 'position', 'history', 'user']);
  });

  it("leaves out the page's own screen, other sites, and links that are not addresses", () => {
    const quotation = 'https://trade.example/quotation';
    expect(screensLinkedFrom(['/quotation', 'https://elsewhere.example/quotation', 'mailto:help@trade.example', '/BTCUSDT/chart', '/ETHUSDT/chart'], quotation, visitor)).toEqual(['chart']);
    expect(screenOfLink('http://[bad', page, visitor)).toBeNull();
  });

  it('takes an unknown path where the guard sends it: home', () => {
    expect(screenOfLink('/nowhere', 'https://trade.example/quotation', visitor)).toBe('home');
  });
});
