import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';

export type ToastKind = 'success' | 'error' | 'info';

/** A way forward a toast offers (a button); choosing one closes the toast. */
export interface ToastAction {
  label: string;
  run: () => void;
}

interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  actions: readonly ToastAction[];
}

/** Success toasts last 1500 ms as the specification says; errors stay long enough to read. */
const durationsMs: Record<ToastKind, number> = { success: 1500, info: 2500, error: 3500 };
/** A toast with actions stays long enough to read it and reach a button. */
const withActionsDurationMs = 10_000;
const toasts = signal<Toast[]>([], { name: 'toasts' });
let nextId = 1;

function dismiss(id: number) {
  toasts.value = toasts.peek().filter((toast) => toast.id !== id);
}

export function showToast(kind: ToastKind, message: string, options: { actions?: readonly ToastAction[] } = {}) {
  const id = nextId++;
  const actions = options.actions ?? [];
  toasts.value = [...toasts.peek().filter((toast) => toast.message !== message), { id, kind, message, actions }];
  setTimeout(() => dismiss(id), actions.length > 0 ? withActionsDurationMs : durationsMs[kind]);
}

export function ToastHost() {
  useSignals();
  return (
    <div className="toast-host" aria-live="polite">
      {toasts.value.map((toast) => (
        // Multi-line messages keep their line breaks (preformatted).
        <div key={toast.id} role={toast.kind === 'error' ? 'alert' : 'status'} className={`toast toast-${toast.kind}`}>
          {toast.message}
          {toast.actions.length > 0 ? (
            <span className="toast-actions">
              {toast.actions.map((action) => (
                <button
                  key={action.label}
                  type="button"
                  className="toast-action"
                  onClick={() => {
                    dismiss(toast.id);
                    action.run();
                  }}
                >
                  {action.label}
                </button>
              ))}
            </span>
          ) : null}
        </div>
      ))}
    </div>
  );
}
