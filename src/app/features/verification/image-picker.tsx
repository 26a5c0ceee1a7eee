import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import { imageAccept } from '../../../shared/uploads/image-rules';
import { ImageRefusedError, prepareImage } from '../money/deposit/prepare-image';
import { usePickedImage } from '../../components/picked-image';
import { useOwnerImage } from './owner-image';
import '../../styles/money.css';

/**
 * One document image of the verification form: picked, made ready the deposit proof's way
 * (extensions, 10 MB, HEIC to JPEG at 0.7, compression), previewed. `keptUrl` names the image
 * of an earlier submission stands in (shown, read with the owner's token) until another is picked.
 */
export function VerificationImagePicker(props: {
  label: string;
  file: File | null;
  /** The owner's URL of the image an earlier submission keeps, if any. */
  keptUrl: string | null;
  disabled: boolean;
  error: string | undefined;
  testId: string;
  onPicked: (file: File) => void;
  onPreparing: (preparing: boolean) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [preparing, setPreparing] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const previewUrl = usePickedImage(props.file);
  const keptImage = useOwnerImage(props.file ? null : props.keptUrl);

  async function pick(file: File | undefined) {
    if (!file) return;
    setPreparing(true);
    props.onPreparing(true);
    try {
      props.onPicked(await prepareImage(file));
      setRefusal(null);
    } catch (error) {
      setRefusal(t(error instanceof ImageRefusedError ? error.messageKey : 'upload.illegal_extension'));
    } finally {
      setPreparing(false);
      props.onPreparing(false);
      if (input.current) input.current.value = '';
    }
  }

  const message = refusal ?? props.error;
  return (
    <div className="field verify-image">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      <input id={id} ref={input} type="file" accept={imageAccept} className="visually-hidden" disabled={props.disabled} onChange={(event) => void pick(event.target.files?.[0])} data-testid={props.testId} />
      <button type="button" className="deposit-proof" onClick={() => input.current?.click()} disabled={props.disabled || preparing} aria-label={props.label}>
        {previewUrl || keptImage ? (
          <img src={previewUrl ?? keptImage ?? ''} alt={props.label} />
        ) : (
          <span>
            {preparing ? (
              t('verify.processing')
            ) : props.keptUrl ? (
              <>
                <Icon name="check" size={14} /> {t('verify.change_image')}
              </>
            ) : (
              t('verify.pick_image')
            )}
          </span>
        )}
      </button>
      {(props.file || props.keptUrl) && !props.disabled ? <span className="field-hint">{t('verify.change_image')}</span> : null}
      {message ? (
        <p className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  );
}
