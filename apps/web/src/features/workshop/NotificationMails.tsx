import { type Language, type NotificationMail, formatDateTime } from '@vers/domain';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../app/notifications.ts';
import { downloadFile } from '../documents/download.ts';
import { fetchNotificationMails, handledHere } from './workshop-api.ts';

const STATUS_COLOR = { SENT: 'success', FAILED: 'error', WAITING: 'default' } as const;

/**
 * The workshop's sent e-mails: per address whether a notification went out, is waiting (queued or being retried) or
 * failed, with the mail server's reason. Without an SMTP server the mails are files in the outbox: downloadable.
 */
export function NotificationMails({ workshopId }: { workshopId: number }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const [mails, setMails] = useState<NotificationMail[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setBusy(true);
    try {
      setMails(await fetchNotificationMails(workshopId));
      setFailed(false);
    } catch (error) {
      setFailed(true);
      if (handledHere(error)) notifications.show('workshop.mails.loadError', 'error');
    } finally {
      setBusy(false);
    }
  }, [workshopId]);

  useEffect(() => {
    void load();
  }, [load]);

  async function download(mail: NotificationMail) {
    try {
      // Named by the mail's id, as the outbox holds it.
      await downloadFile(`notificationMails/${mail.id}/eml`, `${mail.id}.eml`);
    } catch {
      notifications.show('workshop.mails.downloadError', 'error');
    }
  }

  const anyFile = mails?.some((mail) => mail.hasFile) ?? false;

  return (
    <Box data-testid="notification-mails">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('workshop.mails.hint')}
      </Typography>
      {failed && <Alert severity="error">{t('workshop.mails.loadError')}</Alert>}
      {!mails && !failed && <CircularProgress size={28} aria-label={t('app.loading')} />}
      {mails?.length === 0 && <Typography color="text.secondary">{t('workshop.mails.empty')}</Typography>}
      {mails && mails.length > 0 && (
        <List dense disablePadding>
          {mails.map((mail) => (
            <ListItem
              key={mail.id}
              divider
              disableGutters
              data-testid="notification-mail"
              // On a phone the status and the download go below the text, which keeps the width.
              sx={{ gap: 1, alignItems: { xs: 'center', sm: 'flex-start' }, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
            >
              <Box sx={{ flex: 1, minWidth: 0, flexBasis: { xs: '100%', sm: 'auto' } }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {t(`workshop.mails.kind.${mail.kind}`, { order: mail.orderNumber ?? '–' })}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {t('workshop.mails.toAt', {
                    address: mail.address,
                    language: mail.language.toUpperCase(),
                    time: formatDateTime(mail.sentAt ?? mail.created, language),
                  })}
                </Typography>
                {mail.reason && (
                  <Typography
                    variant="body2"
                    color={mail.status === 'FAILED' ? 'error' : 'text.secondary'}
                    sx={{ overflowWrap: 'anywhere' }}
                    data-testid="notification-mail-reason"
                  >
                    {t('workshop.mails.reason', { reason: mail.reason })}
                  </Typography>
                )}
              </Box>
              <Chip
                size="small"
                color={STATUS_COLOR[mail.status]}
                label={t(`workshop.mails.status.${mail.status}`)}
                sx={{ mt: { xs: 0, sm: 0.5 } }}
              />
              {mail.hasFile ? (
                <IconButton
                  aria-label={t('workshop.mails.download', { address: mail.address })}
                  onClick={() => void download(mail)}
                  sx={{ width: 48, height: 48 }}
                >
                  <DownloadIcon />
                </IconButton>
              ) : (
                // The same place kept free, so the statuses stand in one column when some mails are files.
                anyFile && <Box sx={{ width: 48, flexShrink: 0, display: { xs: 'none', sm: 'block' } }} />
              )}
            </ListItem>
          ))}
        </List>
      )}
      <Button sx={{ mt: 1, minHeight: 48 }} disabled={busy} onClick={() => void load()}>
        {t('workshop.mails.refresh')}
      </Button>
    </Box>
  );
}
