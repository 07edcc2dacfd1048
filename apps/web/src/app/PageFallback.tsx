import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

/** Shown while a screen's code loads: a spinner named for screen readers (axe: aria-progressbar-name). */
export function PageFallback() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress aria-busy="true" aria-label={t('app.loading')} />
    </Box>
  );
}
