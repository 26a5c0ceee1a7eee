import type { ReactNode } from 'react';

/** A console page: its title, what it offers beside the title, and its content. */
export function ConsolePage(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="staff-page" aria-labelledby="staff-page-title">
      <header className="staff-page-header">
        <h1 id="staff-page-title">{props.title}</h1>
        {props.actions ? <div className="staff-page-actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}

/** A titled card inside a page. */
export function Card(props: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="staff-card" aria-label={props.title}>
      <header className="staff-card-header">
        <h2>{props.title}</h2>
        {props.actions}
      </header>
      {props.children}
    </section>
  );
}

/** Label → value pairs (facts of a customer, a review item). */
export function Facts(props: { rows: ReadonlyArray<readonly [string, ReactNode]> }) {
  return (
    <dl className="staff-facts">
      {props.rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Tabs as buttons (the state lives in the page or its address). */
export function Tabs<T extends string>(props: { label: string; tabs: ReadonlyArray<{ id: T; label: string }>; current: T; onChange: (id: T) => void }) {
  return (
    <div className="staff-tabs" role="tablist" aria-label={props.label}>
      {props.tabs.map((tab) => (
        <button key={tab.id} type="button" role="tab" aria-selected={tab.id === props.current} className="staff-tab" onClick={() => props.onChange(tab.id)}>
          {tab.label}
        </button>
      ))}
    </div>
  );
}
