/** One labelled value of a details drawer; a missing value shows as a dash. */
export interface DetailRow {
  label: string;
  value: string | null;
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
          <dd className={row.tone}>{row.value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
