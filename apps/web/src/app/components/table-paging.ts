/** The rows of one page; `rowsPerPage` -1 shows all. */
export function pageOf<T>(rows: readonly T[], page: number, rowsPerPage: number): readonly T[] {
  return rowsPerPage < 0 ? rows : rows.slice(page * rowsPerPage, page * rowsPerPage + rowsPerPage);
}
