import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { Icon } from '../components/icons';
import {
  placePanelOpenSignal,
  quoteListDefaultMinHeightPx,
  quotePanelOpenSignal,
  searchPanelOpenSignal,
} from '../features/workspace/selection';
import { useViewport } from './use-viewport';

export interface WorkspaceToggle {
  /** Also the control's name in the top bar's fold order. */
  key: 'placeOrder' | 'search' | 'quoteList';
  label: string;
  /** Shown on the start page now. */
  shown: boolean;
  toggle: () => void;
}

// Module-level: the panels' signals are the start page's state, not this hook's.
function flipPlacePanel(onWorkspace: boolean) {
  placePanelOpenSignal.value = onWorkspace ? !placePanelOpenSignal.peek() : true;
}
function flipSearchPanel(onWorkspace: boolean) {
  searchPanelOpenSignal.value = onWorkspace ? !searchPanelOpenSignal.peek() : true;
}
function flipQuotePanel(onWorkspace: boolean, shownNow: boolean) {
  quotePanelOpenSignal.value = onWorkspace ? !shownNow : true;
}

/** The place-order, search and quote-list panels of the start page: shown or hidden, from any page (it goes to the start page to show one). */
export function useWorkspaceToggles(): WorkspaceToggle[] {
  useSignals();
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const { height } = useViewport();
  const quotesOpen = quotePanelOpenSignal.value ?? height > quoteListDefaultMinHeightPx;
  const onWorkspace = location === '/';
  const toggler = (flip: () => void) => () => {
    flip();
    if (!onWorkspace) navigate('/');
  };
  return [
    {
      key: 'placeOrder',
      label: t('desktop.place_order'),
      shown: onWorkspace && placePanelOpenSignal.value,
      toggle: toggler(() => flipPlacePanel(onWorkspace)),
    },
    {
      key: 'search',
      label: t('common.search'),
      shown: onWorkspace && searchPanelOpenSignal.value,
      toggle: toggler(() => flipSearchPanel(onWorkspace)),
    },
    {
      key: 'quoteList',
      label: t('desktop.quote_list'),
      shown: onWorkspace && quotesOpen,
      toggle: toggler(() => flipQuotePanel(onWorkspace, quotesOpen)),
    },
  ];
}

/** The workspace toggles as top-bar buttons, pressed while their panel shows (search as an icon); `hidden` ones are in "More". */
export function WorkspaceToggles(props: { hidden: ReadonlySet<string> }) {
  const toggles = useWorkspaceToggles().filter((toggle) => !props.hidden.has(toggle.key));
  return (
    <>
      {toggles.map((toggle) =>
        toggle.key === 'search' ? (
          <button key={toggle.key} type="button" className="icon-button" aria-label={toggle.label} title={toggle.label} aria-pressed={toggle.shown} onClick={toggle.toggle}>
            <Icon name="search" />
          </button>
        ) : (
          <button key={toggle.key} type="button" className="tool-button" aria-pressed={toggle.shown} onClick={toggle.toggle}>
            {toggle.label}
          </button>
        ),
      )}
    </>
  );
}
