import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/**
 * The app's error screen, in place of React Router's page for developers: a screen failed to render or its code
 * could not be loaded while the server answered (a version deployed since: app/chunks.ts). A reload starts the current
 * version; edits stored on the device stay and are sent (offline/save-client.ts).
 */
export function ScreenError() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => console.error('screen failed', error), [error]);
  return (
    <Box role="alert" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2, p: 3 }}>
      <Typography data-testid="screen-error">{t('errors.unexpected')}</Typography>
      <Button variant="contained" sx={{ minHeight: 48 }} onClick={() => location.reload()}>
        {t('version.refresh')}
      </Button>
    </Box>
  );
}
