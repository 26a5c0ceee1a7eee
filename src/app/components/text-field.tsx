import { useId, type HTMLInputTypeAttribute, type ReactNode, type Ref } from 'react';

/** A field's message, under it, announced when it appears. */
export function FieldError(props: { id: string; message: string | null | undefined }) {
  if (!props.message) return null;
  return (
    <p id={props.id} className="field-error" role="alert">
      {props.message}
    </p>
  );
}

/** A labelled input with its inline message (the message is already translated). */
export function TextField({ inputRef, ...props }: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  type?: HTMLInputTypeAttribute;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric' | 'decimal';
  maxLength?: number;
  placeholder?: string;
  disabled?: boolean;
  onBlur?: () => void;
  /** Extra class on the input (e.g. tabular figures). */
  inputClassName?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Something beside the input, inside its frame (a toggle, a country select). */
  before?: ReactNode;
  after?: ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      <div className="field-control" data-invalid={props.error ? 'true' : undefined}>
        {props.before}
        <input
          ref={inputRef}
          id={id}
          className={props.inputClassName ? `field-input ${props.inputClassName}` : 'field-input'}
          type={props.type ?? 'text'}
          value={props.value}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          placeholder={props.placeholder}
          disabled={props.disabled}
          spellCheck={false}
          autoCapitalize="off"
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
          onChange={(event) => props.onChange(event.target.value)}
          onBlur={props.onBlur}
        />
        {props.after}
      </div>
      <FieldError id={errorId} message={props.error} />
    </div>
  );
}
