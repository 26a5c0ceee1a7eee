import { createRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/** What a field takes from its form: its translated message, its input's ref, and a change that clears the message. */
export interface FieldBinding<Value> {
  error: string | null;
  inputRef: RefObject<HTMLInputElement | null>;
  onChange: (value: Value) => void;
}

/**
 * The inline messages of a form's fields (translation keys until shown) and the fields'
 * inputs. `report` shows a check's findings and moves the focus to the first field, in the
 * form's focus order, that has one; typing in a field clears its own message.
 */
export function useFieldErrors<Field extends string>(focusOrder: readonly Field[]) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [inputRefs] = useState(() => new Map(focusOrder.map((field) => [field, createRef<HTMLInputElement>()])));
  const inputRefOf = (field: Field): RefObject<HTMLInputElement | null> => {
    const ref = inputRefs.get(field);
    if (!ref) throw new Error(`field ${field} is not in the focus order`);
    return ref;
  };
  const focus = (field: Field) => inputRefOf(field).current?.focus();

  return {
    /** Shows these messages (and only these); true when there are none, else the first field with one has the focus. */
    report(found: Partial<Record<Field, string>>): boolean {
      setErrors(found);
      const first = focusOrder.find((field) => found[field]);
      if (first === undefined) return true;
      focus(first);
      return false;
    },
    /** No messages. */
    clear: () => setErrors({}),
    focus,
    /** The props of one field; `onValue` takes what was typed. */
    bind<Value>(field: Field, onValue: (value: Value) => void): FieldBinding<Value> {
      const key = errors[field];
      return {
        error: key ? t(key) : null,
        inputRef: inputRefOf(field),
        onChange: (value) => {
          onValue(value);
          setErrors((current) => ({ ...current, [field]: undefined }));
        },
      };
    },
  };
}

export type FieldErrors<Field extends string> = ReturnType<typeof useFieldErrors<Field>>;
