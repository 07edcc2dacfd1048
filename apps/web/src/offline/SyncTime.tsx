import { type Language, formatDateTime } from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSyncStatus } from './scheduler.ts';

/**
 * The editor's toolbar line (docs/requirements/orders.md#editor-toolbar): the last synchronisation time, with a check
 * icon when everything is exchanged and a warning icon while changes wait or the server cannot be reached.
 */
export function SyncTime() {
  const { t, i18n } = useTranslation();
  const status = useSyncStatus();
  const inSync = status.online && status.unsentCount === 0 && status.lastSync !== null;
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const label = status.lastSync
    ? t('sync.lastSync', { time: formatDateTime(status.lastSync, language) })
    : t('sync.neverSynced');
  return (
    <Box
      sx={{ display: { xs: 'none', sm: 'flex' }, alignItems: 'center', gap: 0.75, px: 1 }}
      data-testid="sync-time"
      data-in-sync={String(inSync)}
      title={label}
    >
      {inSync ? <CheckCircleIcon fontSize="small" /> : <WarningAmberIcon fontSize="small" color="warning" />}
      <Typography variant="body2" noWrap>
        {label}
      </Typography>
    </Box>
  );
}
