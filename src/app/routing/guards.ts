import type { Switches } from '../../shared/config/switches';
import type { Book } from '../../shared/session/token';
import { matchRoute, type RouteMatch, type RouteName } from './routes';
import { isDemoSession } from '../../shared/protocol/engine';

export type GuardNotice = 'notice.login_required' | 'notice.already_logged_in';

export type GuardDecision =
  | { kind: 'render'; match: RouteMatch }
  | { kind: 'redirect'; to: string; notice?: GuardNotice };

export interface GuardContext {
  signedIn: boolean;
  book: Book | null;
  switches: Switches;
  /** Whether a route's screen is built; one that is not goes home like an unknown path (all, when not given). */
  hasScreen?: (name: RouteName) => boolean;
  /**
   * The person has just logged out in this tab: the page they left goes to sign-in without
   * "please sign in" and without coming back to it, however the page's last render and
   * the log-out's own navigation are ordered.
   */
  loggedOut?: boolean;
}

/** The path to come back to after signing in: path and query, encoded for `?to=`. */
export function loginPathFor(returnPath: string): string {
  return `/login?to=${encodeURIComponent(returnPath)}`;
}

/**
 * Decides what a navigation shows. Unknown paths go home; signed-out users reaching a
 * protected page go to sign-in with the return path kept (just sign-in after logging out); signed-in users reaching
 * sign-in or sign-up go home; a page whose switch is off, or a money page for a demo
 * account, goes back to the account hub; a route whose screen is not built yet goes home.
 */
export function resolveGuard(path: string, search: string, context: GuardContext): GuardDecision {
  const match = matchRoute(path);
  if (!match) return { kind: 'redirect', to: '/' };
  const { route } = match;

  if (route.access === 'signed-in' && !context.signedIn) {
    if (context.loggedOut) return { kind: 'redirect', to: '/login' };
    const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
    return { kind: 'redirect', to: loginPathFor(`${path}${query}`), notice: 'notice.login_required' };
  }
  if (route.access === 'signed-out' && context.signedIn) {
    return { kind: 'redirect', to: '/', notice: 'notice.already_logged_in' };
  }
  if ('flag' in route && route.flag && !context.switches[route.flag]) {
    // An account page goes back to the hub; a page open to visitors (customer service) goes home.
    return { kind: 'redirect', to: route.access === 'public' ? '/' : '/user' };
  }
  if ('demo' in route && route.demo === false && isDemoSession(context)) {
    return { kind: 'redirect', to: '/user' };
  }
  if (context.hasScreen && !context.hasScreen(route.name)) return { kind: 'redirect', to: '/' };
  return { kind: 'render', match };
}

/** The `to` query of the sign-in page, accepted only as a local path (no open redirect). */
export function safeReturnPath(to: string | null): string {
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return '/';
  return to;
}
