/**
 * Dialog width in docs/requirements/administration.md#dialog-widths (700 for the dialogs other than e-mail and search).
 */
export const DIALOG_MAX_WIDTH = 700;

/**
 * The dialogs' paper: at most 700 wide, and on a phone nearly the whole width, without going full screen
 * (the snackbar at the bottom would cover the dialog's buttons).
 */
export const dialogSx = {
  '& .MuiDialog-paper': {
    maxWidth: DIALOG_MAX_WIDTH,
    mx: { xs: 1.5, sm: 4 },
    width: { xs: 'calc(100% - 24px)', sm: 'calc(100% - 64px)' },
  },
} as const;
