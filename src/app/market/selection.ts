import { signal } from '@preact/signals-react';

/** The desktop start symbol, shown once prices arrive when nothing is selected. */
export const defaultDesktopSymbol = 'BTCUSDT';

/** The product the desktop workspace shows; quote rows and search results select it. */
export const selectedSymbolSignal = signal<string | null>(null, { name: 'selectedSymbol' });

/** Whether the workspace shows its search and quotation panels. */
export const searchPanelOpenSignal = signal(false, { name: 'searchPanelOpen' });
export const quotePanelOpenSignal = signal<boolean | null>(null, { name: 'quotePanelOpen' });
