import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  filterFn_includesString,
  functionalUpdate,
  globalFilteringFeature,
  rowPaginationFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_text,
  tableFeatures,
  useTable,
  type ColumnDef,
  type PaginationState,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The console's grids: sorting, filtering and paging by `@tanstack/react-table` (headless),
 * drawn with the app's surfaces. Lists the server pages (customers, queues, the audit trail,
 * a ledger) sort and filter the page shown and page through the server's pages; lists the
 * server gives whole (products, switches, staff) are paged here.
 */
export const gridFeatures = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  globalFilteringFeature,
  rowPaginationFeature,
  sortedRowModel: createSortedRowModel(),
  filteredRowModel: createFilteredRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
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
  /** Absent: every row is here and the grid pages them itself. */
  serverPages?: ServerPages;
  /** A filter box over the rows shown (text columns). */
  filterable?: boolean;
  pageSize?: number;
  empty?: string;
  rowKey?: (row: T) => string;
  /** Something after the filter box (a status select, a button). */
  toolbar?: ReactNode;
}) {
  const { t } = useTranslation();
  const [sorting, setSorting] = useState<SortingState>([]);
  const [globalFilter, setGlobalFilter] = useState('');
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: props.pageSize ?? 20 });
  const server = props.serverPages;
  const table = useTable({
    features: gridFeatures,
    columns: props.columns,
    data: props.data,
    getRowId: props.rowKey ? (row: T) => props.rowKey?.(row) ?? '' : undefined,
    globalFilterFn: 'includesString',
    state: { sorting, globalFilter, pagination },
    onSortingChange: (updater) => setSorting((previous) => functionalUpdate(updater, previous)),
    onGlobalFilterChange: (updater) => setGlobalFilter((previous: string) => String(functionalUpdate(updater, previous) ?? '')),
    onPaginationChange: (updater) => setPagination((previous) => functionalUpdate(updater, previous)),
    // Server pages arrive one at a time: the grid shows the page it is given.
    manualPagination: server !== undefined,
    pageCount: server ? Math.max(server.pages, 1) : undefined,
    autoResetPageIndex: server === undefined,
  });

  const pageNumber = server ? server.page : pagination.pageIndex + 1;
  const pageTotal = server ? Math.max(server.pages, 1) : Math.max(table.getPageCount(), 1);
  const goTo = (page: number) => {
    if (server) server.onPage(page);
    else table.setPageIndex(page - 1);
  };
  const rows = table.getRowModel().rows;

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
      <div className="staff-table-scroll">
        <table className="staff-table" aria-label={props.label}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
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
                <td className="staff-empty" colSpan={props.columns.length}>
                  {props.empty ?? t('staff.grid.empty')}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id}>
                  {row.getAllCells().map((cell) => (
                    <td key={cell.id}>
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pageTotal > 1 ? (
        <nav className="staff-pager" aria-label={t('staff.grid.pages')}>
          <button type="button" className="button secondary" disabled={pageNumber <= 1} onClick={() => goTo(pageNumber - 1)}>
            {t('staff.grid.previous')}
          </button>
          <span>{t('staff.grid.page_of', { page: pageNumber, pages: pageTotal })}</span>
          <button type="button" className="button secondary" disabled={pageNumber >= pageTotal} onClick={() => goTo(pageNumber + 1)}>
            {t('staff.grid.next')}
          </button>
        </nav>
      ) : null}
    </div>
  );
}
