import { useRef } from 'react';
import type { FieldVerdict } from '../../../shared/trading/form-rules';

/**
 * A field the form rewrites (a stop loss set to the price, a volume to its maximum) is seen
 * before it is sent. Pressing the submit button while typing in a field leaves the field,
 * whose check rewrites it, and then submits at once: that submit sends nothing and the
 * message stays, so a value the person did not type never goes out unseen. The next submit
 * sends what the field shows.
 */
export function useRewrittenField() {
  const pressing = useRef(false);
  const rewrittenInPress = useRef(false);
  return {
    /** Notes a check's verdict on what was typed. */
    checked(typed: string, verdict: FieldVerdict) {
      if (pressing.current && !verdict.ok && verdict.value !== typed) rewrittenInPress.current = true;
    },
    /** For the submit button: a press starts (the field's blur, and its check, come after it). */
    submitPress: {
      onPointerDown: () => {
        pressing.current = true;
        rewrittenInPress.current = false;
      },
    },
    /** Whether this submit is held back, once, for a field its own press rewrote. */
    holdsSubmit(): boolean {
      const held = rewrittenInPress.current;
      pressing.current = false;
      rewrittenInPress.current = false;
      return held;
    },
  };
}
