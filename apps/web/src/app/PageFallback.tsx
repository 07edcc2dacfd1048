import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';
import { ChunkWaitNotice } from './ChunkWaitNotice.tsx';

/**
 * Shown while a screen's code loads: a spinner named for screen readers (axe: aria-progressbar-name). In place of the
 * frame (`notice`), it also says when that code waits for the connection; inside the frame, the frame says it.
 */
export function PageFallback({ notice = false }: { notice?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, p: 4 }}>
      <CircularProgress aria-busy="true" aria-label={t('app.loading')} />
      {notice && <ChunkWaitNotice />}
    </Box>
  );
}
