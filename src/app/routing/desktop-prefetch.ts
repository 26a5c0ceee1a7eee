import type { LazyPart } from './lazy-screen';
import { accountDialog, desktopLayout, workspaceScreen } from './screens';

/** Fetches a screen's code ahead; a failed prefetch costs nothing: the render asks again and shows its own failure. */
export function fetchAhead(screen: Pick<LazyPart<unknown>, 'load'>): Promise<unknown> {
  return screen.load().catch(() => undefined);
}

/** The desktop's frame and terminal (its start page), fetched with the first load there, never on phones. */
export function prefetchDesktop() {
  void fetchAhead(desktopLayout);
  void fetchAhead(workspaceScreen);
  void fetchAhead(accountDialog);
}
