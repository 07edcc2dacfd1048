import InstallDesktopIcon from '@mui/icons-material/InstallDesktop';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { installApp, requestPersistentStorage, useAppShell } from '../../app/app-shell.ts';

/** This device: whether the browser keeps VERS's data for sure, and the offer to install VERS as an app. */
export function DeviceCard() {
  const { t } = useTranslation();
  const { persisted, installable } = useAppShell();
  useEffect(() => {
    void requestPersistentStorage();
  }, []);
  const storage = persisted === true ? 'kept' : persisted === false ? 'mayBeCleared' : 'unknown';
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('profile.device.title')}
        </Typography>
        <Stack spacing={2}>
          <Alert
            // Lasting information, not an event: a status, so screen readers do not announce it as an alert.
            role="status"
            severity={persisted === true ? 'success' : 'info'}
            data-testid="device-storage"
            data-persisted={String(persisted)}
          >
            {t(`profile.device.storage.${storage}`)}
          </Alert>
          {installable && (
            <Button
              variant="outlined"
              size="large"
              startIcon={<InstallDesktopIcon />}
              onClick={() => void installApp()}
              data-testid="device-install"
              sx={{ alignSelf: 'flex-start' }}
            >
              {t('profile.device.install')}
            </Button>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
