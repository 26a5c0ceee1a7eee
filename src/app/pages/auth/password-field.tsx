import { useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordMaxLength } from '../../../shared/auth/validation';
import { TextField } from '../../components/text-field';

function EyeIcon(props: { crossed: boolean }) {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {props.crossed ? <path d="M4 4l16 16" /> : null}
    </svg>
  );
}

/** A password with a show/hide toggle; at most 140 characters. */
export function PasswordField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** 'current-password' at sign-in, 'new-password' when choosing one. */
  autoComplete: 'current-password' | 'new-password';
  placeholder?: string;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <TextField
      label={props.label}
      value={props.value}
      onChange={props.onChange}
      error={props.error}
      type={shown ? 'text' : 'password'}
      autoComplete={props.autoComplete}
      maxLength={passwordMaxLength}
      placeholder={props.placeholder}
      disabled={props.disabled}
      inputRef={props.inputRef}
      after={
        <button
          type="button"
          className="field-toggle"
          aria-label={t('auth.show_password')}
          aria-pressed={shown}
          onClick={() => setShown(!shown)}
        >
          <EyeIcon crossed={shown} />
        </button>
      }
    />
  );
}
