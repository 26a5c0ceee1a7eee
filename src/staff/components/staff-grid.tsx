import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  createSortedRowModel,
  filterFn_includesString,
  functionalUpdate,
  globalFilteringFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_text,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualRows } from '../../app/components/virtual-list';

/**
 * The console's grids: sorting and filtering by `@tanstack/react-table` (headless),
 * drawn with the app's surfaces. Lists the server pages (customers, queues, the audit trail,
 * a ledger) sort and filter the page shown and page through the server's pages; lists the
 * server gives whole (products, currencies, a customer's open orders) are sorted and filtered
 * here and shown whole in one scroll area, virtualized (`virtual-list.tsx`): only the rows in
 * view exist, while the table keeps its columns and tells screen readers its full row count.
 */
export const gridFeatures = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  globalFilteringFeature,
  sortedRowModel: createSortedRowModel(),
  filteredRowModel: createFilteredRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, text: sortFn_text, basic: sortFn_basic },
  filterFns: { includesString: filterFn_includesString },
});

export type GridFeatures = typeof gridFeatures;
/** A column of any value type (each accessor keeps its own type where it is declared). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table library's own idiom for a list of columns of mixed value types
export type GridColumn<T extends RowData> = ColumnDef<GridFeatures, T, any>;
export function gridColumns<T extends RowData>() {
  return createColumnHelper<GridFeatures, T>();
}

/** Server paging: the page shown (1-based), how many there are, and how to ask for another. */
/** A row's height before it is measured (cells wrap, so rows are measured). */
const rowEstimatePx = 41;

/** The header row's height, kept up to date: the sticky header covers that much of the scroll area. */
function useHeadHeightPx() {
  const head = useRef<HTMLTableSectionElement>(null);
  const [heightPx, setHeightPx] = useState(0);
  useEffect(() => {
    const target = head.current;
    if (!target) return;
    const observer = new ResizeObserver(() => setHeightPx(target.offsetHeight));
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  return { head, heightPx };
}

export interface ServerPages {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

export function StaffGrid<T extends RowData>(props: {
  /** The grid's accessible name. */
  label: string;
  columns: GridColumn<T>[];
  data: T[];
  /** Absent: every row is here, and the grid shows them all in its virtualized scroll area. */
  serverPages?: ServerPages;
  /** A filter box over the rows shown (text columns). */
  filterable?: boolean;
  empty?: string;
  rowKey?: (row: T) => string;
  /** Something after the filter box (a status select, a button). */
  toolbar?: ReactNode;
}) {
  const { t } = useTranslation();
  const [sorting, setSorting] = useState<SortingState>([]);
  const [globalFilter, setGlobalFilter] = useState('');
  const server = props.serverPages;
  const table = useTable({
    features: gridFeatures,
    columns: props.columns,
    data: props.data,
    getRowId: props.rowKey ? (row: T) => props.rowKey?.(row) ?? '' : undefined,
    globalFilterFn: 'includesString',
    state: { sorting, globalFilter },
    onSortingChange: (updater) => setSorting((previous) => functionalUpdate(updater, previous)),
    onGlobalFilterChange: (updater) => setGlobalFilter((previous: string) => String(functionalUpdate(updater, previous) ?? '')),
  });

  // Every sorted and filtered row: of the whole list, or of the server's page (it pages by itself).
  const rows = table.getRowModel().rows;
  const { head, heightPx: headHeightPx } = useHeadHeightPx();
  // A server page is short: it is drawn whole, and only whole lists go through the virtualizer.
  const { scrollRef, rows: windowRows, spaceBeforePx, spaceAfterPx } = useVirtualRows({
    items: server ? [] : rows,
    itemKey: (row) => row.id,
    sizing: { estimatePx: rowEstimatePx },
    semantics: { kind: 'table', firstRowIndex: 2 },
    placement: 'flow',
    overscan: 10,
    scrollMarginPx: headHeightPx,
  });
  const shown = server ? rows.map((row, index) => ({ item: row, index, key: row.id, props: { 'aria-rowindex': index + 2 } })) : windowRows;
  const columnCount = props.columns.length;

  return (
    <div className="staff-grid">
      {props.filterable || props.toolbar ? (
        <div className="staff-grid-toolbar">
          {props.filterable ? (
            <input
              className="staff-input"
              type="search"
              aria-label={t('staff.grid.filter')}
              placeholder={t('staff.grid.filter')}
              value={globalFilter}
              onChange={(event) => setGlobalFilter(event.target.value)}
            />
          ) : null}
          {props.toolbar}
        </div>
      ) : null}
      <div className={server ? 'staff-table-scroll' : 'staff-table-scroll whole'} ref={scrollRef}>
        <table className="staff-table" aria-label={props.label} aria-rowcount={rows.length + 1}>
          <thead ref={head}>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id} aria-rowindex={1}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const canSort = header.column.getCanSort();
                  return (
                    <th key={header.id} scope="col" aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                      {header.isPlaceholder ? null : canSort ? (
                        <button type="button" className="staff-sort" onClick={header.column.getToggleSortingHandler()}>
                          <table.FlexRender header={header} />
                          <span aria-hidden="true" className="staff-sort-mark">
                            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                          </span>
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td className="staff-empty" colSpan={columnCount}>
                  {props.empty ?? t('staff.grid.empty')}
                </td>
              </tr>
            ) : (
              <>
                {spaceBeforePx > 0 ? (
                  <tr aria-hidden="true" className="staff-spacer">
                    <td colSpan={columnCount} style={{ height: spaceBeforePx }} />
                  </tr>
                ) : null}
                {shown.map(({ item: row, key, props: place }) => (
                  <tr key={key} {...place}>
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id}>
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                ))}
                {spaceAfterPx > 0 ? (
                  <tr aria-hidden="true" className="staff-spacer">
                    <td colSpan={columnCount} style={{ height: spaceAfterPx }} />
                  </tr>
                ) : null}
              </>
            )}
          </tbody>
        </table>
      </div>
      {server ? <ServerPager {...server} /> : null}
    </div>
  );
}

/** Previous, "page N of M" and next through the server's pages; nothing while there is only one. The grids' pager, and any other server-paged list's. */
export function ServerPager(props: ServerPages) {
  const { t } = useTranslation();
  const pageTotal = Math.max(props.pages, 1);
  if (pageTotal <= 1) return null;
  return (
    <nav className="staff-pager" aria-label={t('staff.grid.pages')}>
      <button type="button" className="button secondary" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        {t('staff.grid.previous')}
      </button>
      <span>{t('staff.grid.page_of', { page: props.page, pages: pageTotal })}</span>
      <button type="button" className="button secondary" disabled={props.page >= pageTotal} onClick={() => props.onPage(props.page + 1)}>
        {t('staff.grid.next')}
      </button>
    </nav>
  );
}
