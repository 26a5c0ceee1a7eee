import { useState } from 'react';

/**
 * A polite live region that speaks `text` once per `subject` (the product being traded,
 * its side): a screen reader hears the price when the form opens or the product changes,
 * not on every tick. The region is always in the page, so the change is announced.
 */
export function AnnounceOnce(props: { subject: string; text: string | null }) {
  const [spoken, setSpoken] = useState<{ subject: string; text: string } | null>(null);
  // Kept from the first render that has a text for this subject (React's state-from-props pattern).
  if (props.text !== null && spoken?.subject !== props.subject) setSpoken({ subject: props.subject, text: props.text });
  return (
    <span className="visually-hidden" role="status" data-testid="announced-once">
      {spoken?.subject === props.subject ? spoken.text : ''}
    </span>
  );
}
