import { useState } from 'react';

/** The rows of one page; `rowsPerPage` -1 shows all. */
export function pageOf<T>(rows: readonly T[], page: number, rowsPerPage: number): readonly T[] {
  return rowsPerPage < 0 ? rows : rows.slice(page * rowsPerPage, page * rowsPerPage + rowsPerPage);
}

/**
 * Paging of a data table: the rows of the shown page and the props of DataTablePagination. The page is kept
 * within the last one, so a table that shrinks (a search, a deletion) never shows an empty page.
 */
export function usePaging<T>(rows: readonly T[], initialRowsPerPage = 10) {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(initialRowsPerPage);
  const lastPage = rowsPerPage < 0 ? 0 : Math.max(0, Math.ceil(rows.length / rowsPerPage) - 1);
  const shownPage = Math.min(page, lastPage);
  return {
    visible: pageOf(rows, shownPage, rowsPerPage),
    resetPage: () => setPage(0),
    pagination: {
      count: rows.length,
      page: shownPage,
      rowsPerPage,
      onPageChange: setPage,
      onRowsPerPageChange: (size: number) => {
        setRowsPerPage(size);
        setPage(0);
      },
    },
  };
}
