import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The ticket's submit, pinned to the bottom of whatever scrolls the form (the phone's page,
 * the desktop's panel), so that it is in sight however long the form grows.
 */
export function TicketSubmitBar(props: { children: ReactNode }) {
  return <div className="ticket-submit-bar">{props.children}</div>;
}

/**
 * Brings a ticket's result card into view once it shows (it appears above the pinned submit,
 * where a long form may have scrolled it out of sight); the bar's height is kept clear by the
 * card's scroll margin.
 */
export function useScrolledIntoView<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return ref;
}
