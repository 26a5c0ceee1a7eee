import { batch, signal } from '@preact/signals-react';
import {
  signedOutSession,
  type EngineBatch,
  type EngineKind,
  type SessionSnapshot,
} from '../../shared/protocol/engine';

/** Live state pushed by the data engine; each view reads only the signals it shows. */
export const sessionSignal = signal<SessionSnapshot>(signedOutSession, { name: 'session' });
export const engineKindSignal = signal<EngineKind | null>(null, { name: 'engineKind' });

let lastSeq = 0;

/** Applies one batch in one commit; a batch older than the last applied one is dropped. */
export function applyEngineBatch(engineBatch: EngineBatch) {
  if (engineBatch.seq <= lastSeq) return;
  lastSeq = engineBatch.seq;
  batch(() => {
    for (const event of engineBatch.events) {
      switch (event.type) {
        case 'session':
          if (event.payload.version >= sessionSignal.peek().version) sessionSignal.value = event.payload;
          break;
      }
    }
  });
}

/** A new hello (after eviction) restarts the engine's numbering for this tab. */
export function resetBatchSequence() {
  lastSeq = 0;
}
