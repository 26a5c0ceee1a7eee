import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { switchDefaults } from '../../../src/shared/config/switches';
import type { GuardContext } from '../../../src/app/routing/guards';

/** Which screens were fetched, by route name: every screen here is a stand-in that only counts. */
const fetched: string[] = [];

vi.mock('../../../src/app/routing/screens', async () => {
  const { routesWithScreens } = await import('../../../src/app/routing/routes');
  const standIn = (name: string) => ({ Component: () => null, load: async () => void fetched.push(name) });
  const HomePage = () => null;
  return {
    screens: Object.fromEntries(routesWithScreens.map((name) => [name, name === 'home' ? HomePage : standIn(name)])),
    workspaceScreen: standIn('workspace'),
    desktopLayout: standIn('desktop-layout'),
    accountDialog: standIn('account-dialog'),
    isLazyScreen: (screen: unknown) => typeof screen === 'object' && screen !== null && 'load' in screen,
  };
});

const prefetch = await import('../../../src/app/routing/prefetch');
const running: { stop(): void }[] = [];
const startPrefetching = (context: () => GuardContext) => {
  const prefetcher = prefetch.startPrefetching(context);
  running.push(prefetcher);
  return prefetcher;
};

const visitor: GuardContext = { signedIn: false, book: null, switches: { ...switchDefaults } };
const realUser: GuardContext = { ...visitor, signedIn: true, book: 'real' };

/** Links as a phone lays them out: those with a box inside the 844 px window can be tapped now. */
function showLinks(links: { href: string; top: number }[]) {
  document.body.replaceChildren(
    ...links.map(({ href, top }) => {
      const anchor = document.createElement('a');
      anchor.href = href;
      anchor.textContent = href;
      anchor.getBoundingClientRect = () => ({ top, bottom: top + 40, left: 0, right: 120, width: 120, height: 40, x: 0, y: top, toJSON: () => ({}) });
      return anchor;
    }),
  );
}

let saveData = false;
beforeEach(() => {
  vi.useFakeTimers();
  fetched.length = 0;
  saveData = false;
  Object.defineProperty(navigator, 'connection', { configurable: true, get: () => ({ saveData }) });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: 844 });
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 390 });
});
afterEach(() => {
  for (const prefetcher of running.splice(0)) prefetcher.stop();
  vi.useRealTimers();
  document.body.replaceChildren();
});

/** Long enough for the settling pause and every idle turn of the queue. */
const idleAWhile = () => vi.advanceTimersByTimeAsync(10_000);

describe('screens fetched ahead, with judgment', () => {
  it("on a visitor's first visit to /, fetches on idle only the screens its links in view open, never the rest of the app", async () => {
    showLinks([
      { href: '/quotation', top: 300 },
      { href: '/BTCUSDT/chart', top: 200 },
      { href: '/user/deposit', top: 120 },
      { href: '/user/loan', top: 2400 },
    ]);
    startPrefetching(() => visitor);
    expect(fetched).toEqual([]);
    await idleAWhile();
    // In the links' order; the deposit link opens sign-in for a visitor; the loan link is out of view.
    expect(fetched).toEqual(['quotation', 'chart', 'login']);
  });

  it('fetches a link’s screen as soon as it is touched or pointed at, wherever it is', async () => {
    showLinks([{ href: '/user/notification', top: 2400 }, { href: '/user/wallet', top: 3000 }]);
    startPrefetching(() => realUser);
    const [notices, wallet] = [...document.querySelectorAll('a')];
    notices?.dispatchEvent(new Event('touchstart', { bubbles: true }));
    wallet?.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(fetched).toEqual(['user-notification', 'user-wallet']);
  });

  it('reads the links again after a navigation, through the guard as it then decides', async () => {
    showLinks([{ href: '/position', top: 100 }]);
    let context = visitor;
    const prefetcher = startPrefetching(() => context);
    await idleAWhile();
    expect(fetched).toEqual(['login']);

    context = realUser;
    showLinks([{ href: '/position', top: 100 }, { href: '/user/wallet', top: 200 }]);
    prefetcher.lookAgain();
    await idleAWhile();
    expect(fetched).toEqual(['login', 'position', 'user-wallet']);
  });

  it('fetches nothing on idle when the browser asks to save data; a touched link still opens at once', async () => {
    saveData = true;
    showLinks([{ href: '/quotation', top: 300 }]);
    startPrefetching(() => visitor);
    await idleAWhile();
    expect(fetched).toEqual([]);
    document.querySelector('a')?.dispatchEvent(new Event('touchstart', { bubbles: true }));
    expect(fetched).toEqual(['quotation']);
  });
});
