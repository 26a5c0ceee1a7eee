import type { ReactNode } from 'react';

/** One labelled value of a details drawer; a missing value shows as a dash. */
export interface DetailRow {
  label: string;
  /** Text, or an element (a status badge). */
  value: ReactNode;
  /** up or down colouring of the value. */
  tone?: string;
}

/** The label/value list of an order's details drawer. */
export function DetailList(props: { rows: readonly DetailRow[]; className?: string }) {
  return (
    <dl className={`order-details numeric ${props.className ?? ''}`}>
      {props.rows.map((row) => (
        <div key={row.label}>
          <dt>{row.label}</dt>
          <dd className={row.tone}>{row.value === null || row.value === undefined || row.value === '' ? '—' : row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
