import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useEffect } from 'react';

/**
 * The dialog's markup, focus trap and Escape handling are not in the first load (the first
 * screen asks nothing before a tap); they are fetched once the page has loaded and is idle,
 * because a question may come when the server cannot be reached (the reconnect alert).
 */
const loadConfirmDialog = () => import('./confirm-dialog');
const ConfirmDialog = lazy(loadConfirmDialog);

function fetchWhenIdle() {
  const fetch = () => void loadConfirmDialog().catch(() => undefined);
  const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fetch, { timeout: 3000 }) : setTimeout(fetch, 200));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel?: string;
  /** The dismissing button's words, where "Cancel" would be ambiguous (cancelling a withdrawal). */
  cancelLabel?: string;
  /** Mobile drawer height, where the specification fixes one. */
  heightPx?: number;
  resolve: (confirmed: boolean) => void;
}

const pending = signal<ConfirmRequest | null>(null, { name: 'confirmRequest' });

/**
 * Asks the user; resolves true on confirm and false on cancel or dismiss. `signal`: the
 * question no longer stands (the connection it was about came back): the dialog closes, false.
 */
export function confirmDialog(request: Omit<ConfirmRequest, 'resolve'>, signal?: AbortSignal): Promise<boolean> {
  pending.peek()?.resolve(false);
  return new Promise((resolve) => {
    const asked: ConfirmRequest = { ...request, resolve };
    pending.value = asked;
    signal?.addEventListener('abort', () => {
      if (pending.peek() !== asked) return;
      pending.value = null;
      resolve(false);
    });
  });
}

export function ConfirmHost() {
  useSignals();
  useEffect(fetchWhenIdle, []);
  const request = pending.value;
  if (!request) return null;
  const answer = (confirmed: boolean) => {
    pending.value = null;
    request.resolve(confirmed);
  };
  return (
    <Suspense fallback={null}>
      <ConfirmDialog request={request} answer={answer} />
    </Suspense>
  );
}
