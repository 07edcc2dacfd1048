import type { Keeper, KeeperRequest } from '@vers/domain';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dialogSx } from '../users/dialog-style.ts';
import { KEEPER_MARKINGS_MAX, KEEPER_NAME_MAX, keeperFormErrors, parseMarkings } from './keeper-form.ts';

export interface KeeperDialogProps {
  /** The keeper to edit; null for a new one. */
  keeper: Keeper | null;
  onCancel: () => void;
  /** Saves; resolves to true when saved (the page then closes the dialog). */
  onSubmit: (request: KeeperRequest) => Promise<boolean>;
}

/**
 * New and edit keeper dialog (issue 22): the company's name and its Vehicle Keeper Markings, typed as VKMs (`GATX`) or
 * as painted on the wagon (`D-GATX`); below the field, what will be stored. Save stays disabled while the form is
 * invalid, as in the user dialog.
 */
export function KeeperDialog({ keeper, onCancel, onSubmit }: KeeperDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(keeper?.name ?? '');
  const [markingsText, setMarkingsText] = useState(keeper?.markings.join(', ') ?? '');
  const [touched, setTouched] = useState<ReadonlySet<'name' | 'markings'>>(new Set());
  const [busy, setBusy] = useState(false);

  const markings = parseMarkings(markingsText);
  const errors = keeperFormErrors(name, markings);
  const valid = Object.keys(errors).length === 0;
  const touch = (field: 'name' | 'markings') => setTouched((current) => new Set(current).add(field));

  const nameHelp =
    errors.name && touched.has('name')
      ? t(`keepers.validation.name.${errors.name}`, { max: KEEPER_NAME_MAX })
      : undefined;
  const markingsProblem =
    errors.markings && (touched.has('markings') || errors.markings !== 'required')
      ? t(`keepers.validation.markings.${errors.markings}`, {
          entries: markings.invalid.join(', '),
          max: KEEPER_MARKINGS_MAX,
        })
      : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    const saved = await onSubmit({ name: name.trim(), markings: markings.vkms });
    if (!saved) setBusy(false);
  };

  return (
    <Dialog
      open
      onClose={(_, reason) => reason !== 'backdropClick' && !busy && onCancel()}
      fullWidth
      maxWidth={false}
      data-testid="keeper-dialog"
      slotProps={{
        paper: { component: 'form', onSubmit: (e: FormEvent) => void submit(e), noValidate: true } as object,
      }}
      sx={dialogSx}
    >
      <DialogTitle>{keeper ? t('keepers.editTitle', { name: keeper.name }) : t('keepers.newTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            label={t('keepers.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => touch('name')}
            required
            autoFocus
            autoComplete="off"
            error={nameHelp !== undefined}
            helperText={nameHelp}
            slotProps={{ htmlInput: { 'data-testid': 'keeper-name', maxLength: KEEPER_NAME_MAX + 50 } }}
          />
          <TextField
            label={t('keepers.markings')}
            value={markingsText}
            onChange={(e) => setMarkingsText(e.target.value)}
            onBlur={() => touch('markings')}
            required
            autoComplete="off"
            error={markingsProblem !== undefined}
            helperText={markingsProblem ?? t('keepers.markingsHelp')}
            slotProps={{
              htmlInput: { 'data-testid': 'keeper-markings', autoCapitalize: 'characters', spellCheck: false },
            }}
          />
          <Box data-testid="keeper-stored" aria-live="polite">
            <Typography variant="body2" color="text.secondary" gutterBottom>
              {t('keepers.stored')}
            </Typography>
            {markings.vkms.length === 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
                {t('keepers.storedNone')}
              </Typography>
            ) : (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                {markings.vkms.map((vkm) => (
                  <Chip key={vkm} label={vkm} data-testid={`keeper-stored-${vkm}`} sx={{ fontFamily: 'monospace' }} />
                ))}
              </Box>
            )}
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy} data-testid="keeper-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={!valid || busy} data-testid="keeper-save">
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
