import { switchesFromItems, switchesPath } from '../../shared/config/switches';
import type { HttpClient } from '../api/http-client';
import { switchesSignal } from '../app-context';
import { logDebug } from '../debug/debug-log';
import type { EngineRemote } from '../engine/engine-client';

/**
 * Loads the server's feature switches; on failure the defaults stay and the reason is logged.
 * The request client fetches them and the engine checks the answer: the start waits for
 * them, and the page's first load holds no schema (tests/unit/build/budgets.ts).
 */
export async function refreshSwitches(http: HttpClient, engine: Pick<EngineRemote, 'checkSwitchesAnswer'>) {
  try {
    const checked = await engine.checkSwitchesAnswer(await http.answerOf({ path: switchesPath, root: 'api' }, {}, { silent: true }));
    if (checked.ok) switchesSignal.value = switchesFromItems(checked.items);
    else logDebug(`switches not loaded: ${checked.problem}`);
  } catch (error) {
    logDebug(`switches not loaded: ${String(error)}`);
  }
}
