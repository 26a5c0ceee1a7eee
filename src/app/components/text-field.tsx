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

/**
 * A field's frame: its label, the control (`controlClassName`, marked invalid while there is
 * a message) and the message under it; `fieldMessageAria` ties the input to the message.
 */
export function FieldFrame(props: { id: string; label: string; error?: string | null; controlClassName: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={props.id}>
        {props.label}
      </label>
      <div className={props.controlClassName} data-invalid={props.error ? 'true' : undefined}>
        {props.children}
      </div>
      <FieldError id={fieldErrorId(props.id)} message={props.error} />
    </div>
  );
}

function fieldErrorId(id: string): string {
  return `${id}-error`;
}

/** The input's side of its message: invalid, and described by it, while there is one. */
export function fieldMessageAria(id: string, error: string | null | undefined) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? fieldErrorId(id) : undefined };
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
  /** Values offered as the field is typed in (a datalist: typing something else stays allowed). */
  suggestions?: readonly string[];
}) {
  const id = useId();
  const listId = `${id}-suggestions`;
  return (
    <FieldFrame id={id} label={props.label} error={props.error} controlClassName="field-control">
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
        {...fieldMessageAria(id, props.error)}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        list={props.suggestions ? listId : undefined}
      />
      {props.suggestions ? (
        <datalist id={listId}>
          {props.suggestions.map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      ) : null}
      {props.after}
    </FieldFrame>
  );
}
