/**
 * Link prefetching, loaded by the router after the first screen (it is not needed before the
 * first price, so it stays out of the first load).
 */
import type { GuardContext } from './guards';
import { screenOfLink, screensLinkedFrom } from './likely-next';
import { fetchAhead } from './desktop-prefetch';
import { isLazyScreen, screens } from './screens';
import type { ScreenRouteName } from './routes';

function fetchScreenAhead(name: ScreenRouteName | null): Promise<unknown> {
  const screen = name ? screens[name] : null;
  return screen && isLazyScreen(screen) ? fetchAhead(screen) : Promise.resolve();
}

/** Whether the user asked the browser to spare data (Chromium's Save-Data); then only links pointed at are fetched ahead. */
function savesData(): boolean {
  return (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
}

const whenIdle: (run: () => void) => void =
  typeof requestIdleCallback === 'function' ? (run) => requestIdleCallback(run, { timeout: 3000 }) : (run) => setTimeout(run, 200);

/** A link a person can reach on this screen now: laid out, and inside the window. */
function inView(anchor: Element): boolean {
  const box = anchor.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0 && box.top < window.innerHeight && box.left < window.innerWidth;
}

export interface Prefetcher {
  /** The screen changed: look at its links once it has settled. */
  lookAgain(): void;
  stop(): void;
}

/** How long after the load, or after a navigation, the page's links are read: the screen's own data and images go first. */
const settleMs = 1000;

/**
 * Navigation stays instant without fetching the whole app: a link's screen is fetched as the
 * pointer rests on it, a finger touches it or the keyboard focuses it; and once the page is idle
 * after the load or a navigation, the screens the links in view open (`screensLinkedFrom`), one
 * at a time. Nothing else is fetched ahead, and nothing on idle under Save-Data.
 */
export function startPrefetching(guardContext: () => GuardContext): Prefetcher {
  const onIntent = (event: Event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (anchor) void fetchScreenAhead(screenOfLink(anchor.getAttribute('href') ?? '', window.location.href, guardContext()));
  };
  const intents = ['pointerover', 'touchstart', 'focusin'] as const;
  for (const type of intents) document.addEventListener(type, onIntent, { passive: true, capture: true });

  let stopped = false;
  let loaded = document.readyState === 'complete';
  let look: ReturnType<typeof setTimeout> | null = null;
  let queue: ScreenRouteName[] = [];
  let fetching = false;
  const next = () => {
    const name = queue.shift();
    fetching = !stopped && name !== undefined;
    if (fetching) void fetchScreenAhead(name ?? null).then(() => whenIdle(next));
  };
  const readLinks = () => {
    if (stopped) return;
    const hrefs = [...document.querySelectorAll('a[href]')].filter(inView).map((anchor) => anchor.getAttribute('href') ?? '');
    queue = screensLinkedFrom(hrefs, window.location.href, guardContext());
    if (!fetching) next();
  };
  const lookAgain = () => {
    if (stopped || !loaded || savesData()) return;
    if (look !== null) clearTimeout(look);
    // After the load event, so the idle fetches never compete with the screen's own.
    look = setTimeout(() => whenIdle(readLinks), settleMs);
  };
  const onLoad = () => {
    loaded = true;
    lookAgain();
  };
  if (loaded) lookAgain();
  else window.addEventListener('load', onLoad, { once: true });

  return {
    lookAgain,
    stop() {
      stopped = true;
      if (look !== null) clearTimeout(look);
      window.removeEventListener('load', onLoad);
      for (const type of intents) document.removeEventListener(type, onIntent, { capture: true });
    },
  };
}
