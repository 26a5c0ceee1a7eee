import { signal } from '@preact/signals-react';
import { Direction } from '../../../shared/trading/direction';

/** The quotation list shows by default when the window is taller than this. */
export const quoteListDefaultMinHeightPx = 790;

/** The desktop start symbol, shown once prices arrive when nothing is selected. */
export const defaultDesktopSymbol = 'BTCUSDT';

/** The product the desktop workspace shows; quote rows and search results select it. */
export const selectedSymbolSignal = signal<string | null>(null, { name: 'selectedSymbol' });

/** Whether the workspace shows its search and quotation panels. */
export const searchPanelOpenSignal = signal(false, { name: 'searchPanelOpen' });
export const quotePanelOpenSignal = signal<boolean | null>(null, { name: 'quotePanelOpen' });

/** The workspace's order placement panel (the top bar's place-order toggle) and its side. */
export const placePanelOpenSignal = signal(false, { name: 'placePanelOpen' });
export const placeDirectionSignal = signal<Direction>(Direction.buy, { name: 'placeDirection' });

/** The workspace's order list: positions or history (the side buttons), or none. */
export type OrderListKind = 'positions' | 'history';
export const orderListSignal = signal<OrderListKind | null>('positions', { name: 'orderList' });
