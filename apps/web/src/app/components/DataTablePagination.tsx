import TablePagination from '@mui/material/TablePagination';
import { useTranslation } from 'react-i18next';

export const DEFAULT_PAGE_SIZES = [5, 10, 15, 20] as const;

export interface DataTablePaginationProps {
  count: number;
  page: number;
  /** -1 shows all rows. */
  rowsPerPage: number;
  onPageChange: (page: number) => void;
  onRowsPerPageChange: (rowsPerPage: number) => void;
  sizes?: readonly number[];
  /** False where the rows come from the server a page at a time: no "All". */
  allowAll?: boolean;
  'data-testid'?: string;
  /** Test id of the rows-per-page choice. */
  selectTestId?: string;
}

/**
 * Paging of the data tables (docs/requirements/administration.md#data-tables): 5, 10, 15, 20 and All, labelled in the
 * user's language.
 */
export function DataTablePagination(props: DataTablePaginationProps) {
  const { t } = useTranslation();
  return (
    <TablePagination
      component="div"
      count={props.count}
      page={props.page}
      onPageChange={(_, next) => props.onPageChange(next)}
      rowsPerPage={props.rowsPerPage}
      onRowsPerPageChange={(e) => props.onRowsPerPageChange(Number(e.target.value))}
      rowsPerPageOptions={[
        ...(props.sizes ?? DEFAULT_PAGE_SIZES),
        ...(props.allowAll === false ? [] : [{ label: t('table.all'), value: -1 }]),
      ]}
      labelRowsPerPage={t('table.rowsPerPage')}
      labelDisplayedRows={({ from, to, count }) => t('table.displayedRows', { from, to, count })}
      getItemAriaLabel={(type) => t(`table.page.${type}`)}
      data-testid={props['data-testid']}
      slotProps={
        props.selectTestId
          ? { select: { SelectDisplayProps: { 'data-testid': props.selectTestId } as object } }
          : undefined
      }
      sx={{
        borderTop: 1,
        borderColor: 'divider',
        // On a phone the parts wrap instead of pushing the page buttons out of view.
        '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', rowGap: 0.5, pl: 2 },
        '& .MuiTablePagination-spacer': { display: { xs: 'none', sm: 'block' } },
      }}
    />
  );
}
