import { EMAIL_ADDRESSES_MAX, EMAIL_ADDRESSES_MIN, type EmailAddress, LANGUAGE_NAMES } from '@vers/domain';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../app/components/ConfirmDialog.tsx';
import { notifications } from '../../app/notifications.ts';
import { EmailDialog } from './EmailDialog.tsx';
import { deleteEmailAddress, fetchEmailAddresses, handledHere, refusal } from './workshop-api.ts';

type Editing = { key: number; existing: EmailAddress | null };

/**
 * The workshop's notification addresses: at least 1, at most 10 (docs/requirements/administration.md#email-addresses).
 */
export function EmailAddresses({ workshopId }: { workshopId: number }) {
  const { t } = useTranslation();
  const [addresses, setAddresses] = useState<EmailAddress[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  // Kept after closing, so that the question does not change while the dialog fades out.
  const [deleting, setDeleting] = useState<{ address: EmailAddress; open: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setAddresses(await fetchEmailAddresses(workshopId));
      setFailed(false);
    } catch (error) {
      setFailed(true);
      if (handledHere(error)) notifications.show('workshop.email.loadError', 'error');
    }
  }, [workshopId]);

  useEffect(() => {
    void load();
  }, [load]);

  const count = addresses?.length ?? 0;
  const full = count >= EMAIL_ADDRESSES_MAX;
  const atMinimum = count <= EMAIL_ADDRESSES_MIN;

  // A fresh dialog (new key) each time, so it starts from the chosen address or empty.
  const openDialog = (existing: EmailAddress | null) => {
    setEditing((current) => ({ key: (current?.key ?? 0) + 1, existing }));
    setDialogOpen(true);
  };

  const saved = (address: EmailAddress) => {
    setDialogOpen(false);
    setAddresses((current) => {
      const list = current ?? [];
      return list.some((a) => a.id === address.id)
        ? list.map((a) => (a.id === address.id ? address : a))
        : [...list, address];
    });
  };

  const remove = async () => {
    if (!deleting) return;
    const { address } = deleting;
    setBusy(true);
    try {
      await deleteEmailAddress(address.id);
      setAddresses((current) => (current ?? []).filter((a) => a.id !== address.id));
      notifications.show('workshop.email.deleted', 'success', { address: address.address });
    } catch (error) {
      const conflict = refusal(error, 409);
      if (conflict) notifications.show(`errors.${conflict.code}`, 'error', { address: address.address });
      else if (handledHere(error))
        notifications.show('workshop.email.deleteError', 'error', { address: address.address });
      void load(); // the list may have changed meanwhile
    } finally {
      setBusy(false);
      setDeleting({ address, open: false });
    }
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexGrow: 1, minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {t('workshop.email.title')}
          </Typography>
          {addresses && (
            <Chip
              label={`${count} / ${EMAIL_ADDRESSES_MAX}`}
              color={full ? 'warning' : 'default'}
              data-testid="email-count"
            />
          )}
        </Box>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => openDialog(null)}
          disabled={!addresses || full}
          data-testid="email-add"
          sx={{ minWidth: { xs: '100%', sm: 'auto' } }}
        >
          {t('workshop.email.add')}
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('workshop.email.intro')}
      </Typography>
      {addresses && full && (
        <Alert severity="info" sx={{ mb: 1 }} data-testid="email-max-hint">
          {t('workshop.email.maxReached', { max: String(EMAIL_ADDRESSES_MAX) })}
        </Alert>
      )}
      {!addresses && !failed && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
          <CircularProgress size={32} aria-label={t('app.loading')} />
        </Box>
      )}
      {!addresses && failed && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void load()}>
              {t('workshop.retry')}
            </Button>
          }
        >
          {t('workshop.email.loadError')}
        </Alert>
      )}
      {addresses && (
        <List data-testid="email-list" disablePadding>
          {addresses.map((address, index) => (
            <ListItem key={address.id} divider data-testid={`email-row-${index}`} sx={{ px: 0, minHeight: 64, gap: 1 }}>
              <ListItemText
                primary={address.address}
                secondary={LANGUAGE_NAMES[address.languageCode]}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } }, secondary: { lang: address.languageCode } }}
              />
              <Box sx={{ display: 'flex', flexShrink: 0, gap: 0.5 }}>
                <IconButton
                  size="large"
                  onClick={() => openDialog(address)}
                  aria-label={t('workshop.email.editAddress', { address: address.address })}
                  data-testid={`email-edit-${index}`}
                >
                  <EditIcon />
                </IconButton>
                <IconButton
                  size="large"
                  color="error"
                  onClick={() => setDeleting({ address, open: true })}
                  disabled={atMinimum}
                  aria-label={t('workshop.email.deleteAddress', { address: address.address })}
                  data-testid={`email-delete-${index}`}
                >
                  <DeleteIcon />
                </IconButton>
              </Box>
            </ListItem>
          ))}
        </List>
      )}
      {addresses && atMinimum && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="email-min-hint">
          {t('workshop.email.minReached')}
        </Typography>
      )}
      {editing && (
        <EmailDialog
          key={editing.key}
          open={dialogOpen}
          workshopId={workshopId}
          existing={editing.existing}
          onClose={() => setDialogOpen(false)}
          onSaved={saved}
          onRefused={() => void load()}
        />
      )}
      <ConfirmDialog
        open={deleting?.open ?? false}
        title={t('workshop.email.deleteTitle')}
        message={t('workshop.email.deleteMessage', { address: deleting?.address.address ?? '' })}
        confirmLabel={t('common.delete')}
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => deleting && setDeleting({ ...deleting, open: false })}
      />
    </Box>
  );
}
