import { useTranslation } from 'react-i18next';

/** A console dialog's two buttons: Cancel, and the action it exists for (held off while it runs or while the form is refused). */
export function DialogFooter(props: { confirmLabel: string; disabled?: boolean; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <button type="button" className="button secondary" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
      <button type="button" className="button primary" disabled={props.disabled} onClick={props.onConfirm}>
        {props.confirmLabel}
      </button>
    </>
  );
}
