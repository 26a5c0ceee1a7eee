import { useTranslation } from 'react-i18next';
import type { ConfirmRequest } from './confirm';
import { Dialog } from './dialog';

/** The question of `confirmDialog` (confirm.tsx), answered once by a button or a dismissal. */
export default function ConfirmDialog({ request, answer }: { request: ConfirmRequest; answer: (confirmed: boolean) => void }) {
  const { t } = useTranslation();
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
