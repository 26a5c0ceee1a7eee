import { getAllConfigStatusWeb } from '../../shared/api/anonymous';
import { switchesFromItems } from '../../shared/config/switches';
import type { HttpClient } from '../api/http-client';
import { switchesSignal } from '../app-context';
import { logDebug } from '../debug/debug-log';

/** Loads the server's feature switches; on failure the defaults stay and the reason is logged. */
export async function refreshSwitches(http: HttpClient) {
  try {
    const { items } = await http.call(getAllConfigStatusWeb, {}, { silent: true });
    switchesSignal.value = switchesFromItems(items);
  } catch (error) {
    logDebug(`switches not loaded: ${String(error)}`);
  }
}
