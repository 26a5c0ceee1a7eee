import { useRef } from 'react';
import type { FieldVerdict } from '../../../shared/trading/form-rules';

/**
 * A field the form has just rewritten (a stop loss clamped to the price, a volume set to its
 * maximum) is seen before it is sent. Leaving the field by pressing the submit button
 * rewrites it and then submits at once: that submit sends nothing and the message stays, so a
 * value the person did not type never goes out unseen. The next submit, or an edit, lets it.
 */
export function useRewrittenField() {
  const unseen = useRef(false);
  return {
    /** Notes a check's verdict on what was typed. */
    checked(typed: string, verdict: FieldVerdict) {
      if (!verdict.ok && verdict.value !== typed) unseen.current = true;
    },
    /** The person typed in a field. */
    edited() {
      unseen.current = false;
    },
    /** Whether this submit is held back (once) for a value just rewritten. */
    holdsSubmit(): boolean {
      const held = unseen.current;
      unseen.current = false;
      return held;
    },
  };
}
