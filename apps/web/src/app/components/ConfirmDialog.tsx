import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  /** Label of the confirming button; default "OK" in the user's language. */
  confirmLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={props.open} onClose={props.onCancel} maxWidth="xs" fullWidth data-testid="confirm-dialog">
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{props.message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} data-testid="confirm-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          onClick={props.onConfirm}
          color={props.danger ? 'error' : 'primary'}
          variant="contained"
          disabled={props.busy}
          data-testid="confirm-ok"
        >
          {props.confirmLabel ?? t('common.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
