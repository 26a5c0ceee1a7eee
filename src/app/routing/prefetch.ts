import { matchRoute } from './routes';
import { accountDialog, desktopLayout, isLazyScreen, screens, workspaceScreen } from './screens';
import { hasScreen } from './routes';
import type { LazyPart } from './lazy-screen';

function fetchAhead(screen: Pick<LazyPart<unknown>, 'load'>) {
  // A failed prefetch costs nothing: the render asks again and shows its own failure.
  screen.load().catch(() => undefined);
}

/** Fetches the screen of an address of this app ahead of a click on it. */
export function prefetchPath(href: string) {
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return;
  }
  if (url.origin !== window.location.origin) return;
  const match = matchRoute(url.pathname);
  if (!match || !hasScreen(match.route.name)) return;
  const screen = screens[match.route.name];
  if (isLazyScreen(screen)) fetchAhead(screen);
}

/** The desktop's frame and terminal (its start page), fetched with the first load there, never on phones. */
export function prefetchDesktop() {
  fetchAhead(desktopLayout);
  fetchAhead(workspaceScreen);
  fetchAhead(accountDialog);
}

/** Whether the user asked the browser to spare data (Chromium's Save-Data); then only hovered links are fetched ahead. */
function savesData(): boolean {
  return (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
}

const whenIdle: (run: () => void) => void =
  typeof requestIdleCallback === 'function' ? (run) => requestIdleCallback(run, { timeout: 3000 }) : (run) => setTimeout(run, 200);

/**
 * Navigation stays instant: a link's screen is fetched as the pointer rests on it, a finger
 * touches it or the keyboard focuses it, and, once the page is idle after the first load,
 * every other screen one at a time.
 */
export function startPrefetching(): () => void {
  const onIntent = (event: Event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (anchor) prefetchPath(anchor.getAttribute('href') ?? '');
  };
  const intents = ['pointerover', 'touchstart', 'focusin'] as const;
  for (const type of intents) document.addEventListener(type, onIntent, { passive: true, capture: true });

  let stopped = false;
  const queue = savesData() ? [] : Object.values(screens).filter(isLazyScreen);
  const next = () => {
    if (stopped) return;
    const screen = queue.shift();
    if (!screen) return;
    void screen
      .load()
      .catch(() => undefined)
      .then(() => whenIdle(next));
  };
  // After the load event, so the idle fetches never compete with the first screen's own.
  const begin = () => setTimeout(() => whenIdle(next), 1000);
  if (document.readyState === 'complete') begin();
  else window.addEventListener('load', begin, { once: true });

  return () => {
    stopped = true;
    for (const type of intents) document.removeEventListener(type, onIntent, { capture: true });
  };
}
