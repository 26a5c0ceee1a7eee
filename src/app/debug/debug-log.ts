import { signal } from '@preact/signals-react';

export interface DebugEntry {
  atMs: number;
  message: string;
}

const limit = 100;

/** Recent events for the debug console: a bounded ring, newest first. */
export const debugLog = signal<DebugEntry[]>([], { name: 'debugLog' });

export function logDebug(message: string) {
  debugLog.value = [{ atMs: Date.now(), message }, ...debugLog.peek()].slice(0, limit);
}
