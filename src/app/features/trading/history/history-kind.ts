import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { SessionSnapshot } from '../../../../shared/protocol/engine';
import { sessionAccount } from '../../../../shared/protocol/engine';
import type { HttpClient } from '../../../api/http-client';
import { useApp } from '../../../app-context';
import type { DetailRow } from '../../../components/detail-list';
import type { GridColumn } from '../../../components/virtual-grid';
import { sessionSignal } from '../../../engine/signals';
import type { BrandFormat } from '../../../format/use-brand-format';
import type { StatusTone } from '../../../../shared/trading/status-tones';
import { usePagedList, type PagedList, type PagedListState, type PageOf } from './use-paged-list';

/** The specification's page size for history lists. */
export const historyPageSize = 10;
/** Loading stops for good after more than this many failed loads in a row (the retry button resets it). */
export const historyFailureCap = 5;
/** A failed load is tried again after this many ms per failure so far, up to the ceiling. */
const retryDelayStepMs = 500;
const retryDelayMaxMs = 3_000;

/** What every history item has: its id, and the product it was for. */
export interface HistoryItem {
  uid: string;
  productName: string;
}

/** How a view words and formats what it shows. */
export interface HistoryLook {
  t: TFunction;
  format: BrandFormat;
}

/** An item's result as the row and the grid show it: the figure, its up/down tone, and its test id. */
export interface HistoryResult {
  /** What happened, in words, above the figure ("Win", "Void: amount and fee refunded"); none for a market order. */
  note?: string;
  /** The figure (the win/loss, a refund); empty when there is none to show. */
  text: string;
  tone: string;
  testId: string;
}

/** An item's direction (buy or sell, up or down) in words, and whether it is the rising one. */
export interface HistoryDirection {
  text: string;
  up: boolean;
}

/** What the phone row of an item shows besides its product, direction and result. */
export interface HistoryRowParts {
  /** Beside the direction: the volume, the delivery time. */
  detail: string;
  /** Start → end price. */
  prices: string;
  /** When it ended, formatted. */
  time: string;
}

/**
 * One kind of history (closed market orders, settled options): how a page of it loads, and
 * how its items look in the phone row, the desktop grid and the details drawer.
 */
export interface HistoryKind<Item extends HistoryItem, Page extends PageOf<Item>> {
  /** A page of the signed-in account's history (the session says which book); failures are told in the list, not as toasts. */
  fetchPage(http: HttpClient, session: SessionSnapshot, page: number, signal: AbortSignal): Promise<Page>;
  /** The account's realized result of today and of all time, as the last page tells them (lists without totals leave it out). */
  totalsOf?(page: Page): { today: string; total: string };
  /** Translation keys of the list's name, of an empty list and of its end. */
  texts: { label: string; empty: string; end: string };
  /** Whether the item went the rising way (buy, up), and the words for either way. */
  isUp(item: Item): boolean;
  directionKeys: { up: string; down: string };
  resultOf(item: Item, look: HistoryLook): HistoryResult;
  /** The item's status in words and the specification's colour for it. */
  statusOf(item: Item, look: HistoryLook): { text: string; tone: StatusTone };
  rowOf(item: Item, look: HistoryLook): HistoryRowParts;
  /** The specification's desktop columns after the product, the id and the direction. */
  columns(look: HistoryLook): GridColumn<Item>[];
  /** Widths of the id and direction columns. */
  leadingWidths: { uid: string; direction: string };
  /** Every field after the id and the direction, for the details drawer. */
  detailsOf(item: Item, look: HistoryLook): DetailRow[];
}

/** What a history list shows: its pages, totals and texts. */
export interface HistorySource<Item, Page extends PageOf<Item>> {
  paged: { state: PagedListState<Item, Page>; list: PagedList<Item, Page> };
  today: string | null;
  total: string | null;
  /** Whether the kind has totals at all (the summary above the list shows only then). */
  hasTotals: boolean;
  label: string;
  emptyText: string;
  endText: string;
}

export function historyKey(item: HistoryItem): string {
  return item.uid;
}

/** An item's name for screen readers: product and id. */
export function historyRowLabel(item: HistoryItem): string {
  return `${item.productName} ${item.uid}`;
}

/**
 * The signed-in account's history of one kind, page by page. A new list starts from page 1
 * when the account (user or real/demo book) changes; a token refresh keeps the list.
 * The caller's component must track signals (`useSignals`).
 */
export function useHistorySource<Item extends HistoryItem, Page extends PageOf<Item>>(kind: HistoryKind<Item, Page>): HistorySource<Item, Page> {
  const { t } = useTranslation();
  const { http } = useApp();
  const session = sessionSignal.value;
  const paged = usePagedList<Item, Page>({
    resetKey: sessionAccount(session) ?? '',
    fetchPage: (page, signal) => kind.fetchPage(http, session, page, signal),
    keyOf: historyKey,
    failureCap: historyFailureCap,
    retryDelayMs: (failures) => Math.min(retryDelayStepMs * failures, retryDelayMaxMs),
  });
  const totals = paged.state.lastPage && kind.totalsOf ? kind.totalsOf(paged.state.lastPage) : null;
  return {
    paged,
    today: totals?.today ?? null,
    total: totals?.total ?? null,
    hasTotals: kind.totalsOf !== undefined,
    label: t(kind.texts.label),
    emptyText: t(kind.texts.empty),
    endText: t(kind.texts.end),
  };
}

/** An item's direction in words. */
export function historyDirection<Item extends HistoryItem>(kind: HistoryKind<Item, PageOf<Item>>, item: Item, t: TFunction): HistoryDirection {
  const up = kind.isUp(item);
  return { text: t(up ? kind.directionKeys.up : kind.directionKeys.down), up };
}
