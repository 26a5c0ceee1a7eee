/** Covers the whole app when it cannot run (no config); there is nothing behind it to use. */
export function BlockingOverlay(props: { message: string; details?: string[] }) {
  return (
    <div className="blocking-overlay" role="alertdialog" aria-modal="true" aria-label={props.message}>
      <div className="blocking-card">
        <p>{props.message}</p>
        {props.details && props.details.length > 0 ? (
          <ul className="blocking-details">
            {props.details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

export function LoadingScreen(props: { label: string }) {
  return (
    <div className="loading-screen" role="progressbar" aria-label={props.label} aria-busy="true">
      <div className="spinner" />
      <p>{props.label}</p>
    </div>
  );
}
