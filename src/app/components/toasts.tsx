import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';

export type ToastKind = 'success' | 'error' | 'info';

interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

/** Success toasts last 1500 ms as the specification says; errors stay long enough to read. */
const durationsMs: Record<ToastKind, number> = { success: 1500, info: 2500, error: 3500 };
const toasts = signal<Toast[]>([], { name: 'toasts' });
let nextId = 1;

export function showToast(kind: ToastKind, message: string) {
  const id = nextId++;
  toasts.value = [...toasts.peek().filter((toast) => toast.message !== message), { id, kind, message }];
  setTimeout(() => {
    toasts.value = toasts.peek().filter((toast) => toast.id !== id);
  }, durationsMs[kind]);
}

export function ToastHost() {
  useSignals();
  return (
    <div className="toast-host" aria-live="polite">
      {toasts.value.map((toast) => (
        // Multi-line messages keep their line breaks (preformatted).
        <div key={toast.id} role={toast.kind === 'error' ? 'alert' : 'status'} className={`toast toast-${toast.kind}`}>
          {toast.message}
        </div>
      ))}
    </div>
  );
}
