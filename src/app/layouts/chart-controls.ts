import { matchRoute, type RouteName } from '../routing/routes';

/** The desktop routes that show a chart: the workspace (`/`) and the chart page. */
const desktopChartRoutes: ReadonlySet<RouteName> = new Set<RouteName>(['home', 'chart']);

/** Whether the desktop top bar carries the chart controls (period, candle type, indicators) on this path: only where a chart is. */
export function desktopPathShowsChart(path: string): boolean {
  const match = matchRoute(path);
  return match !== null && desktopChartRoutes.has(match.route.name);
}
