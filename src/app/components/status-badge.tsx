import type { StatusTone } from '../../shared/trading/status-tones';

/**
 * A trade's or option's status in its words and the specification's colour (grey, yellow,
 * blue, red): the words carry it, the colour helps; the text tone reads at 4.5:1 in either
 * scheme (`status-tones.ts`, set by the theme).
 */
export function StatusBadge(props: { text: string; tone: StatusTone; testId?: string }) {
  return (
    <span className={`status-badge status-${props.tone}`} data-tone={props.tone} data-testid={props.testId}>
      {props.text}
    </span>
  );
}
