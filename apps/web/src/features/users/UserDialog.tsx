import { ALL_ROLES, type Keeper, type User } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../app/api.ts';
import { dialogSx } from './dialog-style.ts';
import { type FieldError, type UserForm, exclusiveHolder, needsKeeper, userFormErrors } from './user-form.ts';

export interface UserDialogProps {
  /** The user to edit; null for a new one. */
  user: User | null;
  /** Roles the signed-in admin may hand out (GET users/roles). */
  assignableRoles: readonly string[];
  /** Editing one's own account: roles and the enabled flag stay as they are (the server refuses changes). */
  self: boolean;
  /** A system admin's new user: which workshop it joins ("Workshop: …", or none). */
  workshopNote?: string;
  /**
   * The keepers a holder may belong to (issue 22; system admins only, who alone hand out ROLE_HOLDER): null while they
   * load, or when they could not be read.
   */
  keepers?: readonly Keeper[] | null;
  onCancel: () => void;
  /** Saves; resolves to the failure, or null when saved (the page then closes the dialog). */
  onSubmit: (form: UserForm) => Promise<unknown>;
}

type Field = 'username' | 'firstName' | 'lastName' | 'roles' | 'keeper';

/**
 * New and edit user dialog (docs/requirements/administration.md#user-management): save stays disabled while the form is
 * invalid.
 */
export function UserDialog({
  user,
  assignableRoles,
  self,
  workshopNote,
  keepers = null,
  onCancel,
  onSubmit,
}: UserDialogProps) {
  const { t } = useTranslation();
  const isNew = user === null;
  const [form, setForm] = useState<UserForm>(() => ({
    username: user?.username ?? '',
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    roles: user?.roles.map((r) => r.name) ?? [],
    enabled: user?.enabled ?? true,
    keeperId: user?.keeperId ?? null,
  }));
  const [touched, setTouched] = useState<Set<Field>>(new Set());
  const [busy, setBusy] = useState(false);
  /** The server's answer about the username (USER_EXISTS), until the username changes. */
  const [usernameTaken, setUsernameTaken] = useState(false);

  const errors = userFormErrors(form, isNew);
  const valid = Object.keys(errors).length === 0 && !usernameTaken;
  // The roles a user holds stay choosable even when the admin could not hand them out.
  const held = user?.roles.map((r) => r.name) ?? [];
  const roleOptions = ALL_ROLES.filter((role) => assignableRoles.includes(role) || held.includes(role));

  const touch = (field: Field) => setTouched((current) => new Set(current).add(field));
  const change = <K extends keyof UserForm>(field: K, value: UserForm[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    if (field === 'username') setUsernameTaken(false);
  };
  const message = (error: FieldError | undefined, field: Field) =>
    error && touched.has(field) ? t(error.key, error.values ?? {}) : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    const failure = await onSubmit({
      ...form,
      username: form.username.trim(),
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
    });
    if (failure) {
      setBusy(false);
      if (failure instanceof ApiFailure && failure.code === 'USER_EXISTS') setUsernameTaken(true);
    }
  };

  const holder = needsKeeper(form);
  // The keeper the user belongs to stays choosable while the list loads.
  const keeperOptions = keepers ?? [];

  const usernameHelp = usernameTaken
    ? t('errors.USER_EXISTS')
    : (message(errors.username, 'username') ?? (isNew ? undefined : t('users.usernameFixed')));

  return (
    <Dialog
      open
      onClose={(_, reason) => reason !== 'backdropClick' && !busy && onCancel()}
      fullWidth
      maxWidth={false}
      data-testid="user-dialog"
      slotProps={{
        paper: { component: 'form', onSubmit: (e: FormEvent) => void submit(e), noValidate: true } as object,
      }}
      sx={dialogSx}
    >
      <DialogTitle>{isNew ? t('users.newTitle') : t('users.editTitle', { username: user.username })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          {workshopNote && (
            <Typography color="text.secondary" data-testid="user-workshop-note">
              {holder && isNew ? t('users.holderNoWorkshop') : workshopNote}
            </Typography>
          )}
          <TextField
            label={t('users.username')}
            value={form.username}
            onChange={(e) => change('username', e.target.value)}
            onBlur={() => touch('username')}
            required={isNew}
            autoFocus={isNew}
            autoComplete="off"
            error={isNew && (usernameTaken || message(errors.username, 'username') !== undefined)}
            helperText={usernameHelp}
            slotProps={{
              htmlInput: {
                'data-testid': 'user-username',
                readOnly: !isNew,
                autoCapitalize: 'none',
                spellCheck: false,
              },
              input: { readOnly: !isNew },
            }}
            sx={isNew ? undefined : { '& .MuiInputBase-input': { color: 'text.secondary' } }}
          />
          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField
              label={t('users.firstName')}
              value={form.firstName}
              onChange={(e) => change('firstName', e.target.value)}
              onBlur={() => touch('firstName')}
              required
              autoFocus={!isNew}
              autoComplete="off"
              error={message(errors.firstName, 'firstName') !== undefined}
              helperText={message(errors.firstName, 'firstName')}
              slotProps={{ htmlInput: { 'data-testid': 'user-firstname' } }}
            />
            <TextField
              label={t('users.lastName')}
              value={form.lastName}
              onChange={(e) => change('lastName', e.target.value)}
              onBlur={() => touch('lastName')}
              required
              autoComplete="off"
              error={message(errors.lastName, 'lastName') !== undefined}
              helperText={message(errors.lastName, 'lastName')}
              slotProps={{ htmlInput: { 'data-testid': 'user-lastname' } }}
            />
          </Box>
          <TextField
            select
            label={t('users.roles')}
            value={form.roles}
            required
            disabled={self}
            error={message(errors.roles, 'roles') !== undefined}
            helperText={message(errors.roles, 'roles')}
            onChange={(e) => {
              const value = e.target.value as unknown as string[] | string;
              const chosen = typeof value === 'string' ? value.split(',') : value;
              change(
                'roles',
                exclusiveHolder(
                  form.roles,
                  roleOptions.filter((role) => chosen.includes(role)),
                ),
              );
              touch('roles');
            }}
            slotProps={{
              select: {
                multiple: true,
                onClose: () => touch('roles'),
                renderValue: (selected) => (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                    {(selected as string[]).map((role) => (
                      <Chip key={role} label={t(`roles.${role}`)} size="small" />
                    ))}
                  </Box>
                ),
                SelectDisplayProps: { 'data-testid': 'user-roles' } as object,
                MenuProps: { slotProps: { paper: { sx: { maxHeight: 480 } } } },
              },
            }}
          >
            {roleOptions.map((role) => (
              <MenuItem key={role} value={role} data-testid={`role-option-${role}`} sx={{ minHeight: 52 }}>
                <Checkbox checked={form.roles.includes(role)} sx={{ py: 0 }} />
                <ListItemText primary={t(`roles.${role}`)} />
              </MenuItem>
            ))}
          </TextField>
          {holder && (
            <TextField
              select
              label={t('users.keeper')}
              value={form.keeperId ?? ''}
              required
              disabled={self}
              error={message(errors.keeper, 'keeper') !== undefined}
              helperText={message(errors.keeper, 'keeper') ?? t('users.keeperHelp')}
              onChange={(e) => {
                change('keeperId', e.target.value === '' ? null : Number(e.target.value));
                touch('keeper');
              }}
              slotProps={{
                select: {
                  onClose: () => touch('keeper'),
                  SelectDisplayProps: { 'data-testid': 'user-keeper' } as object,
                },
              }}
            >
              {keepers === null && form.keeperId !== null && (
                <MenuItem value={form.keeperId}>{t('users.keeperLoading')}</MenuItem>
              )}
              {keeperOptions.map((keeper) => (
                <MenuItem
                  key={keeper.id}
                  value={keeper.id}
                  data-testid={`keeper-option-${keeper.id}`}
                  sx={{ minHeight: 52 }}
                >
                  <ListItemText primary={keeper.name} secondary={keeper.markings.join(', ')} />
                </MenuItem>
              ))}
              {keepers !== null && keepers.length === 0 && (
                <MenuItem disabled value="">
                  {t('users.noKeepers')}
                </MenuItem>
              )}
            </TextField>
          )}
          {!isNew && (
            <FormControlLabel
              control={
                <Switch
                  checked={form.enabled}
                  disabled={self}
                  onChange={(e) => change('enabled', e.target.checked)}
                  slotProps={{ input: { 'data-testid': 'user-enabled' } as object }}
                />
              }
              label={t('users.enabled')}
            />
          )}
          {self && (
            <Alert severity="info" data-testid="user-self-hint">
              {t('users.selfHint')}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy} data-testid="user-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={!valid || busy} data-testid="user-save">
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
