import type { Theme } from '@mui/material/styles';

/**
 * A data table whose rows become cards below the md breakpoint: the header row is hidden and each cell stacks under
 * the previous one with its column's name in front (the cell's `data-label`), so nothing scrolls sideways on a phone.
 */
export const stackedRowsBelowMd = (theme: Theme) => ({
  [theme.breakpoints.down('md')]: {
    '& thead': { display: 'none' },
    '& tbody tr': { display: 'block', py: 1.5, px: 2, borderBottom: `1px solid ${theme.palette.divider}` },
    '& tbody td': {
      display: 'flex',
      flexDirection: 'row',
      gap: 1,
      border: 0,
      p: 0,
      py: 0.25,
      textAlign: 'left',
      overflowWrap: 'anywhere',
    },
    '& tbody td[data-label]::before': {
      content: 'attr(data-label)',
      flex: '0 0 40%',
      color: theme.palette.text.secondary,
    },
  },
});
