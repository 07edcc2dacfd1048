import { passwordProblems, signInResponseSchema } from '@vers/domain';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, call } from '../../app/api.ts';
import { notifications } from '../../app/notifications.ts';
import { sessionStore } from '../../app/session.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { type Message, tooManyAttempts } from '../auth/too-many-attempts.ts';

/** The own password: the old one is asked; save stays disabled until the new one meets the rule twice. */
export function PasswordChange() {
  const { t } = useTranslation();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const weak = newPassword !== '' && passwordProblems(newPassword).length > 0;
  const differs = repeat !== '' && repeat !== newPassword;
  // What the server said about the old password: wrong, or too many wrong ones (then until when to wait).
  const oldPasswordError = error?.key.startsWith('errors.') ? error : null;
  const valid = oldPassword !== '' && newPassword !== '' && !weak && repeat === newPassword;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The change ends every session of the user; the answer carries this browser's new one.
      const session = await call('users/current/password', signInResponseSchema, {
        method: 'PUT',
        body: { oldPassword, newPassword },
        handles: [400, 429],
      });
      sessionStore.set(session);
      setOldPassword('');
      setNewPassword('');
      setRepeat('');
      notifications.show('profile.passwordChanged', 'success');
    } catch (failure) {
      // Too many wrong old passwords: the server ended this session too; the next call leads to the sign-in.
      if (failure instanceof ApiFailure && failure.status === 429) {
        setError(tooManyAttempts(failure, currentLanguage()));
      } else if (failure instanceof ApiFailure && failure.status === 400) {
        setError({ key: failure.code === 'WRONG_PASSWORD' ? 'errors.WRONG_PASSWORD' : 'validation.passwordRules' });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('profile.password')}
        </Typography>
        <Stack component="form" spacing={2} sx={{ maxWidth: 360 }} onSubmit={(e) => void submit(e)} noValidate>
          <TextField
            type="password"
            label={t('profile.oldPassword')}
            autoComplete="current-password"
            value={oldPassword}
            onChange={(e) => setOldPassword(e.target.value)}
            error={oldPasswordError !== null}
            helperText={oldPasswordError ? t(oldPasswordError.key, oldPasswordError.values) : ' '}
            slotProps={{ htmlInput: { 'data-testid': 'profile-old-password' } }}
          />
          <TextField
            type="password"
            label={t('profile.newPassword')}
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
            error={weak}
            helperText={t('validation.passwordRules')}
            slotProps={{ htmlInput: { 'data-testid': 'profile-new-password' } }}
          />
          <TextField
            type="password"
            label={t('profile.repeatPassword')}
            autoComplete="new-password"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            error={differs}
            helperText={differs ? t('validation.passwordRepeat') : ' '}
            slotProps={{ htmlInput: { 'data-testid': 'profile-repeat-password' } }}
          />
          <Button type="submit" variant="contained" disabled={!valid || busy} data-testid="profile-password-save">
            {t('common.save')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
