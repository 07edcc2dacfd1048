import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../app/notifications.ts';
import { dialogSx } from './dialog-style.ts';

export interface InitialPasswordDialogProps {
  username: string;
  password: string;
  onClose: () => void;
}

/** Copies text; without the clipboard API (plain http on a workshop network) the old way, by selection. */
async function copyText(text: string, element: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall back below
  }
  if (!element) return false;
  const selection = window.getSelection();
  const range = document.createRange();
  range.selectNodeContents(element);
  selection?.removeAllRanges();
  selection?.addRange(range);
  return document.execCommand('copy');
}

/**
 * The generated initial password of a new user, shown once (docs/requirements/administration.md#initial-password). Only
 * the button closes it, so that a stray tap beside the dialog does not lose the password.
 */
export function InitialPasswordDialog({ username, password, onClose }: InitialPasswordDialogProps) {
  const { t } = useTranslation();
  const passwordRef = useRef<HTMLElement>(null);

  const copy = async () => {
    const copied = await copyText(password, passwordRef.current);
    notifications.show(copied ? 'users.copied' : 'users.copyFailed', copied ? 'success' : 'warning');
  };

  return (
    <Dialog
      open
      onClose={(_, reason) => reason !== 'backdropClick' && onClose()}
      fullWidth
      maxWidth={false}
      data-testid="initial-password-dialog"
      sx={dialogSx}
    >
      <DialogTitle>{t('users.initialTitle', { username })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('users.initialText', { username })}</DialogContentText>
        <Box
          sx={{
            my: 2,
            p: 2,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
            gap: 2,
            borderRadius: 1,
            border: 1,
            borderColor: 'divider',
            bgcolor: 'action.hover',
          }}
        >
          <Box
            component="code"
            ref={passwordRef}
            data-testid="initial-password"
            sx={{
              fontFamily: 'ui-monospace, "Cascadia Mono", "DejaVu Sans Mono", Consolas, monospace',
              fontSize: { xs: '1.5rem', sm: '2rem' },
              fontWeight: 600,
              letterSpacing: '0.08em',
              wordBreak: 'break-all',
              userSelect: 'all',
            }}
          >
            {password}
          </Box>
          <Button
            variant="outlined"
            startIcon={<ContentCopyIcon />}
            onClick={() => void copy()}
            data-testid="initial-password-copy"
          >
            {t('users.copy')}
          </Button>
        </Box>
        <Alert severity="warning">{t('users.initialWarning')}</Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose} data-testid="initial-password-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
