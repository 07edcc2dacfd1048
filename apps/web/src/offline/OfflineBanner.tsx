import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { useSyncStatusOf } from './scheduler.ts';

/** "You are offline" while the scheduler's online check fails (docs/requirements/sync.md#online-check). */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useSyncStatusOf('online');
  if (online) return null;
  return (
    <Alert severity="warning" data-testid="offline-banner" sx={{ mb: 2 }}>
      {t('errors.offline')}
    </Alert>
  );
}
