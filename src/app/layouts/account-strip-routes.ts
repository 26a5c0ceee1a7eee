import type { RouteName } from '../routing/routes';

/** The trading screens, which show the account strip: quotes, the chart, the tickets and the positions (on desktop, the workspace is home). */
const stripRoutes: ReadonlySet<RouteName> = new Set<RouteName>(['home', 'quotation', 'chart', 'place', 'place-option', 'position']);

export function routeShowsAccountStrip(name: RouteName | undefined): boolean {
  return name !== undefined && stripRoutes.has(name);
}
