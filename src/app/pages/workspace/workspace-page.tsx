import { Workspace } from '../../features/workspace/workspace';

/** `/` on desktop: the trading workspace (chart, order placement, order list, quotation and search panels). */
export function WorkspacePage() {
  return <Workspace />;
}
