import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dialogSx } from './dialog-style.ts';
import { PASSWORD_RULES, PASSWORD_RULE_VALUES, passwordRuleState } from './user-form.ts';

export interface PasswordDialogProps {
  username: string;
  onCancel: () => void;
  /** Saves; resolves to the failure, or null when saved (the page then closes the dialog). */
  onSubmit: (password: string) => Promise<unknown>;
}

/** Sets a new password for a user: password and repeat, save disabled until every rule is met. */
export function PasswordDialog({ username, onCancel, onSubmit }: PasswordDialogProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const rules = passwordRuleState(password, repeat);
  const valid = PASSWORD_RULES.every((rule) => rules[rule]);
  const mismatch = repeat.length > 0 && !rules.repeat && password.length > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    const failure = await onSubmit(password);
    if (failure) setBusy(false);
  };

  const visibility = (
    <InputAdornment position="end">
      <IconButton
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? t('login.hidePassword') : t('login.showPassword')}
        edge="end"
      >
        {visible ? <VisibilityOff /> : <Visibility />}
      </IconButton>
    </InputAdornment>
  );

  return (
    <Dialog
      open
      onClose={(_, reason) => reason !== 'backdropClick' && !busy && onCancel()}
      fullWidth
      maxWidth={false}
      data-testid="password-dialog"
      slotProps={{
        paper: { component: 'form', onSubmit: (e: FormEvent) => void submit(e), noValidate: true } as object,
      }}
      sx={dialogSx}
    >
      <DialogTitle>{t('users.passwordTitle', { username })}</DialogTitle>
      <DialogContent>
        {/* Lets password managers file the new password under the right user. */}
        <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            label={t('users.password')}
            type={visible ? 'text' : 'password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            autoFocus
            autoComplete="new-password"
            slotProps={{ htmlInput: { 'data-testid': 'user-password' }, input: { endAdornment: visibility } }}
          />
          <TextField
            label={t('users.passwordRepeat')}
            type={visible ? 'text' : 'password'}
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            required
            autoComplete="new-password"
            error={mismatch}
            helperText={mismatch ? t('users.rules.mismatch') : undefined}
            slotProps={{ htmlInput: { 'data-testid': 'user-password-repeat' } }}
          />
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.75 }}>
            {PASSWORD_RULES.map((rule) => (
              <Box
                component="li"
                key={rule}
                data-testid={`password-rule-${rule}`}
                data-ok={String(rules[rule])}
                sx={{ display: 'flex', alignItems: 'center', gap: 1 }}
              >
                {rules[rule] ? (
                  <CheckCircleIcon color="success" fontSize="small" aria-hidden />
                ) : (
                  <RadioButtonUncheckedIcon color="disabled" fontSize="small" aria-hidden />
                )}
                <Typography variant="body2" color={rules[rule] ? 'text.primary' : 'text.secondary'}>
                  {t(`users.rules.${rule}`, PASSWORD_RULE_VALUES)}
                </Typography>
              </Box>
            ))}
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy} data-testid="password-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={!valid || busy} data-testid="password-save">
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
