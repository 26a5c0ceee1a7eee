import { useId, type Ref } from 'react';
import { verificationCodeLength } from '../../../shared/auth/validation';
import { FieldFrame, fieldMessageAria } from '../../components/text-field';

/** Keeps the digits of what was typed or pasted, up to `length` ("123 456" and "123-456" paste whole). */
export function codeDigits(input: string, length = verificationCodeLength): string {
  return input.replace(/\D/g, '').slice(0, length);
}

/**
 * A 6-digit code: one real input (so paste, autofill of one-time codes and screen readers
 * work) drawn as six boxes. Digits only; a paste keeps up to six digits.
 */
export function CodeInput({ inputRef, ...props }: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Called when the sixth digit arrives. */
  onComplete?: (value: string) => void;
  error?: string | null;
  disabled?: boolean;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const boxes = Array.from({ length: verificationCodeLength }, (_, index) => props.value[index] ?? '');
  return (
    <FieldFrame id={id} label={props.label} error={props.error} controlClassName="code-input">
      <div className="code-boxes" aria-hidden="true">
        {boxes.map((digit, index) => (
          <span key={index} className="code-box" data-current={index === Math.min(props.value.length, verificationCodeLength - 1) ? 'true' : undefined}>
            {digit}
          </span>
        ))}
      </div>
      <input
        ref={inputRef}
        id={id}
        className="code-input-field"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        value={props.value}
        disabled={props.disabled}
        autoFocus={props.autoFocus}
        {...fieldMessageAria(id, props.error)}
        onChange={(event) => {
          const digits = codeDigits(event.target.value);
          props.onChange(digits);
          if (digits.length === verificationCodeLength && digits !== props.value) props.onComplete?.(digits);
        }}
      />
    </FieldFrame>
  );
}
