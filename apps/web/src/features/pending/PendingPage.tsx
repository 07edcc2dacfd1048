import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';

/** Routes whose screens come with later issues: guarded and titled already, with an honest notice. */
export default function PendingPage() {
  const { t } = useTranslation();
  return (
    <Alert severity="info" data-testid="pending-page" sx={{ maxWidth: 640 }}>
      {t('pending.text')}
    </Alert>
  );
}
