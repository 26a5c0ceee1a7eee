import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog';

interface ConfirmRequest {
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
  const { t } = useTranslation();
  const request = pending.value;
  if (!request) return null;
  const answer = (confirmed: boolean) => {
    pending.value = null;
    request.resolve(confirmed);
  };
  return (
    <Dialog
      title={request.title}
      heightPx={request.heightPx}
      describe
      onClose={() => answer(false)}
      footer={
        <>
          <button type="button" className="button secondary" onClick={() => answer(false)}>
            {request.cancelLabel ?? t('common.cancel')}
          </button>
          <button type="button" className="button primary" onClick={() => answer(true)}>
            {request.confirmLabel ?? t('common.confirm')}
          </button>
        </>
      }
    >
      <p className="preformatted">{request.message}</p>
    </Dialog>
  );
}
