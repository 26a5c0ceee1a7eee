import { resolveGuard, type GuardContext } from './guards';
import { hasScreen, type ScreenRouteName } from './routes';

/**
 * The screen a link opens for this person: where the guard sends them (a signed-out
 * person's link to positions opens sign-in), following one redirect. Null for a link
 * elsewhere, or for one that opens no screen.
 */
export function screenOfLink(href: string, page: string, context: GuardContext): ScreenRouteName | null {
  let url: URL;
  try {
    url = new URL(href, page);
  } catch {
    return null;
  }
  if (url.origin !== new URL(page).origin) return null;
  let decision = resolveGuard(url.pathname, url.search, context);
  if (decision.kind === 'redirect') {
    const next = new URL(decision.to, url);
    decision = resolveGuard(next.pathname, next.search, context);
  }
  if (decision.kind !== 'render') return null;
  const name = decision.match.route.name;
  return hasScreen(name) ? name : null;
}

/**
 * The screens a person may open next from this page: those its links open, each once, in
 * the links' order, never the page's own screen. Only these are fetched ahead on idle; the
 * rest of the app waits for a link to be pointed at, touched or focused.
 */
export function screensLinkedFrom(hrefs: Iterable<string>, page: string, context: GuardContext): ScreenRouteName[] {
  const here = screenOfLink(page, page, context);
  const linked = new Set<ScreenRouteName>();
  for (const href of hrefs) {
    const screen = screenOfLink(href, page, context);
    if (screen && screen !== here) linked.add(screen);
  }
  return [...linked];
}
