import { SNACKBAR_TIMEOUT_MS } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';
import { notifications, useCurrentNotification } from './notifications.ts';

export function Notifier() {
  const { t } = useTranslation();
  const current = useCurrentNotification();
  if (!current) return null;
  const close = () => notifications.dismiss(current.id);
  return (
    <Snackbar
      key={current.id}
      open
      autoHideDuration={SNACKBAR_TIMEOUT_MS}
      onClose={(_, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={current.severity}
        variant="filled"
        onClose={close}
        role="alert"
        data-testid="snackbar"
        sx={{ width: '100%' }}
      >
        {t(current.messageKey, current.values ?? {})}
      </Alert>
    </Snackbar>
  );
}
