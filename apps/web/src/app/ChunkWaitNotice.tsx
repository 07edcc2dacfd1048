import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useChunkWaiting } from './chunks.ts';

/**
 * "This screen opens once the connection is back" while the code of a screen waits for the network (app/chunks.ts).
 * The frame shows it above the page: a menu entry chosen keeps the previous screen on view until the next one has
 * loaded (React Router's navigations are transitions), and the user is told why nothing changes yet.
 */
export function ChunkWaitNotice() {
  const { t } = useTranslation();
  const waiting = useChunkWaiting();
  if (!waiting) return null;
  return (
    <Typography role="status" color="text.secondary" sx={{ mb: 2 }} data-testid="page-waits-for-connection">
      {t('app.waitsForConnection')}
    </Typography>
  );
}
