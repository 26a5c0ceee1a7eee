import { useId } from 'react';
import '../../../styles/loan.css';

/** A labelled range slider with its value and marks under it (the loan's amount, term and repayment). */
export function LoanSlider(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  marks: readonly number[];
  /** How the value and the marks read ("50,000", "7 days"). */
  display: (value: number) => string;
  onChange: (value: number) => void;
  disabled?: boolean;
  testId: string;
}) {
  const id = useId();
  const span = props.max - props.min;
  return (
    <div className="field loan-slider">
      <div className="loan-slider-head">
        <label className="field-label" htmlFor={id}>
          {props.label}
        </label>
        <output htmlFor={id} className="numeric loan-slider-value" data-testid={`${props.testId}-value`}>
          {props.display(props.value)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(event) => props.onChange(Number(event.target.value))}
      />
      <div className="loan-slider-marks" aria-hidden="true">
        {props.marks.map((mark) => (
          <span key={mark} className="numeric" style={{ insetInlineStart: `${span === 0 ? 0 : ((mark - props.min) / span) * 100}%` }}>
            {props.display(mark)}
          </span>
        ))}
      </div>
    </div>
  );
}
