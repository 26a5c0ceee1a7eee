import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';

export interface PickerOption {
  id: number;
  label: string;
  detail?: string;
}

/**
 * A field that opens a drawer (a dialog on desktop) listing the choices: the coin/network
 * picker, the saved address picker and the bank card picker of the withdrawal form.
 */
export function OptionPicker(props: {
  label: string;
  placeholder: string;
  options: readonly PickerOption[];
  selectedId: number | null;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  onSelect: (id: number) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const selected = props.options.find((option) => option.id === props.selectedId) ?? null;
  return (
    <div className="field">
      <span className="field-label">{props.label}</span>
      <button type="button" className="picker-field" data-testid={props.testId} onClick={props.onOpen}>
        <span>{selected ? selected.label : props.placeholder}</span>
        {selected?.detail ? <span className="picker-detail numeric">{selected.detail}</span> : null}
      </button>
      {props.open ? (
        <Dialog title={props.label} onClose={props.onClose}>
          <ul className="picker-list" role="listbox" aria-label={props.label}>
            {props.options.map((option) => (
              <li key={option.id}>
                <button
                  type="button"
                  role="option"
                  aria-selected={option.id === props.selectedId}
                  className="picker-option"
                  onClick={() => {
                    props.onSelect(option.id);
                    props.onClose();
                  }}
                >
                  <span>{option.label}</span>
                  {option.detail ? <span className="picker-detail numeric">{option.detail}</span> : null}
                </button>
              </li>
            ))}
            {props.options.length === 0 ? <li className="picker-empty">{t('common.no_data')}</li> : null}
          </ul>
        </Dialog>
      ) : null}
    </div>
  );
}
