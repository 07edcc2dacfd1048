import CloudDoneIcon from '@mui/icons-material/CloudDone';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import WifiOffIcon from '@mui/icons-material/WifiOff';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useSyncStatus } from './scheduler.ts';

/**
 * The unsent-events counter of the toolbar, with a wifi-off icon when offline
 * (docs/requirements/administration.md#indicators).
 */
export function SyncIndicator() {
  const { t } = useTranslation();
  const status = useSyncStatus();
  const icon = !status.online ? <WifiOffIcon /> : status.unsentCount > 0 ? <CloudUploadIcon /> : <CloudDoneIcon />;
  const label = status.online
    ? t('sync.unsent', { count: status.unsentCount })
    : `${t('errors.offline')} ${t('sync.unsent', { count: status.unsentCount })}`;
  return (
    <Tooltip title={label}>
      <Box
        role="status"
        aria-label={label}
        data-testid="sync-indicator"
        data-online={String(status.online)}
        data-unsent={status.unsentCount}
        sx={{ display: 'flex', alignItems: 'center', px: 1 }}
      >
        <Badge badgeContent={status.unsentCount} color="warning" max={999}>
          {icon}
        </Badge>
      </Box>
    </Tooltip>
  );
}
