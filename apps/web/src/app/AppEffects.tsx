import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { setApiNavigator } from './api.ts';
import { Notifier } from './Notifier.tsx';
import { FRONTEND_VERSION, useVersionPolling, useVersions } from './versions.ts';
import { isBrowserSupported } from './browser-support.ts';

/** What runs beside every page: navigation for the API's global reactions, version polling, messages. */
export function AppEffects() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { currentFrontend } = useVersions();
  useEffect(() => setApiNavigator((path) => void navigate(path)), [navigate]);
  useVersionPolling();
  const outdated = currentFrontend !== null && currentFrontend !== FRONTEND_VERSION;
  return (
    <>
      {!isBrowserSupported() && (
        <Alert severity="warning" square data-testid="browser-too-old">
          {t('errors.browserTooOld')}
        </Alert>
      )}
      {outdated && (
        <Alert
          severity="info"
          square
          data-testid="new-version"
          sx={{ position: 'fixed', bottom: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.snackbar + 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => window.location.reload()}>
              {t('version.refresh')}
            </Button>
          }
        >
          {t('version.newVersion')}
        </Alert>
      )}
      <Notifier />
    </>
  );
}
