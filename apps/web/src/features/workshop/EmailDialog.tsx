import { type EmailAddress, LANGUAGES, LANGUAGE_NAMES, type Language, emailAddressRequestSchema } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../app/notifications.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { createEmailAddress, handledHere, refusal, updateEmailAddress } from './workshop-api.ts';

/** Dialog width for e-mail addresses (docs/requirements/administration.md#dialog-widths). */
const DIALOG_MAX_WIDTH = 500;

export interface EmailDialogProps {
  open: boolean;
  workshopId: number;
  /** The address to edit; null adds a new one. */
  existing: EmailAddress | null;
  onClose: () => void;
  onSaved: (saved: EmailAddress) => void;
  /** The server refused (e.g. the list is full or changed meanwhile): the list should be read again. */
  onRefused: () => void;
}

/** Add or edit one notification address: address and language; Esc or Cancel closes without saving. */
export function EmailDialog({ open, workshopId, existing, onClose, onSaved, onRefused }: EmailDialogProps) {
  const { t } = useTranslation();
  const [address, setAddress] = useState(existing?.address ?? '');
  const [languageCode, setLanguageCode] = useState<Language>(existing?.languageCode ?? currentLanguage());
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);

  const parsed = emailAddressRequestSchema.safeParse({ address, languageCode });
  const showInvalid = !parsed.success && (touched || address.trim() !== '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success || busy) return;
    const request = parsed.data;
    setBusy(true);
    setErrorKey(null);
    try {
      const saved = existing
        ? await updateEmailAddress(existing.id, request)
        : await createEmailAddress(workshopId, request);
      notifications.show(existing ? 'workshop.email.updated' : 'workshop.email.created', 'success', {
        address: saved.address,
      });
      onSaved(saved);
    } catch (error) {
      // The dialog stays open with the user's input; the reason shows in it.
      const conflict = refusal(error, 409) ?? refusal(error, 404);
      if (conflict) {
        setErrorKey(`errors.${conflict.code}`);
        if (conflict.code !== 'EMAIL_EXISTS') onRefused();
      } else if (handledHere(error)) {
        setErrorKey(refusal(error, 400) ? 'workshop.validation.email' : 'errors.unexpected');
      }
      if (handledHere(error)) {
        notifications.show(existing ? 'workshop.email.updateError' : 'workshop.email.createError', 'error', {
          address: request.address,
        });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth={false}
      aria-labelledby="email-dialog-title"
      data-testid="email-dialog"
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, mx: 2, width: 'calc(100% - 32px)' } } }}
    >
      <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id="email-dialog-title">
          {existing ? t('workshop.email.editTitle') : t('workshop.email.addTitle')}
        </DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField
            label={t('workshop.email.address')}
            type="email"
            name="email"
            value={address}
            onChange={(e) => {
              setAddress(e.target.value);
              setErrorKey(null);
            }}
            onBlur={() => setTouched(true)}
            required
            autoFocus
            fullWidth
            autoComplete="email"
            error={showInvalid}
            helperText={showInvalid ? t('workshop.validation.email') : undefined}
            slotProps={{ htmlInput: { maxLength: 254, inputMode: 'email', 'data-testid': 'email-address' } }}
          />
          <FormControl fullWidth>
            <InputLabel id="email-language-label">{t('settings.language')}</InputLabel>
            <Select
              labelId="email-language-label"
              id="email-language"
              label={t('settings.language')}
              value={languageCode}
              onChange={(e) => setLanguageCode(e.target.value as Language)}
              data-testid="email-language"
            >
              {LANGUAGES.map((language) => (
                <MenuItem
                  key={language}
                  value={language}
                  lang={language}
                  data-testid={`email-language-${language}`}
                  sx={{ minHeight: 48 }}
                >
                  {LANGUAGE_NAMES[language]}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          {errorKey && (
            <Alert severity="error" data-testid="email-dialog-error">
              {t(errorKey, { address: address.trim() })}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, gap: 1 }}>
          <Button onClick={onClose} data-testid="email-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={!parsed.success || busy} data-testid="email-save">
            {t('common.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
