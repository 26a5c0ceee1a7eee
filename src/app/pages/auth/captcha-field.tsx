import { useId, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { captchaMaxLength } from '../../../shared/auth/validation';
import { TextField } from '../../components/text-field';

function RefreshIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
    </svg>
  );
}

/** Only image data URLs are shown; a bare base64 answer is taken as a PNG. */
export function captchaSource(image: string): string | null {
  if (image.startsWith('data:image/')) return image;
  if (/^[A-Za-z0-9+/=\s]+$/.test(image)) return `data:image/png;base64,${image.replace(/\s/g, '')}`;
  return null;
}

/**
 * The image captcha of phone sign-up without SMS: the image, a refresh button (blocked for
 * a few seconds after each refresh, with the seconds left), and the text typed from it.
 */
export function CaptchaField(props: {
  image: string | null;
  value: string;
  onChange: (value: string) => void;
  onRefresh: () => void;
  /** Seconds left before another refresh, shown only after a refresh was refused. */
  blockedSeconds: number;
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  const noticeId = useId();
  const source = props.image ? captchaSource(props.image) : null;
  return (
    <div className="captcha">
      <TextField
        label={t('auth.captcha')}
        value={props.value}
        onChange={props.onChange}
        error={props.error}
        maxLength={captchaMaxLength}
        autoComplete="off"
        inputRef={props.inputRef}
        after={
          <span className="captcha-image">
            {source ? <img src={source} alt={t('auth.captcha_image')} width={104} height={36} /> : <span className="spinner small" aria-hidden="true" />}
            <button
              type="button"
              className="icon-button"
              aria-label={t('auth.refresh_captcha')}
              aria-describedby={props.blockedSeconds > 0 ? noticeId : undefined}
              onClick={props.onRefresh}
            >
              <RefreshIcon />
            </button>
          </span>
        }
      />
      {props.blockedSeconds > 0 ? (
        <p id={noticeId} className="auth-hint" role="status">
          {t('auth.high_request', { seconds: props.blockedSeconds })}
        </p>
      ) : null}
    </div>
  );
}
