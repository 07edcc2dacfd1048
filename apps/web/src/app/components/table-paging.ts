import { useTranslation } from 'react-i18next';

/** Rows-per-page choices of the data tables (administration §9), "All" as -1 in MUI's TablePagination. */
export function useRowsPerPageOptions(sizes: readonly number[] = [5, 10, 15, 20]) {
  const { t } = useTranslation();
  return [...sizes, { label: t('table.all'), value: -1 }];
}

/** The rows of one page; `rowsPerPage` -1 shows all. */
export function pageOf<T>(rows: readonly T[], page: number, rowsPerPage: number): readonly T[] {
  return rowsPerPage < 0 ? rows : rows.slice(page * rowsPerPage, page * rowsPerPage + rowsPerPage);
}
