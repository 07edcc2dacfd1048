import { startPath } from '@vers/domain';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LanguageSelect } from '../../app/LanguageSelect.tsx';
import { ThemeSwitch } from '../../app/ThemeSwitch.tsx';
import { LOGIN_REASON_PARAM, sessionStore, useSession } from '../../app/session.ts';
import { signIn } from './sign-in.ts';

/**
 * Why the user was sent here, shown above the form until they sign in (issue 20: a snackbar timed out before it was
 * read). From the URL, so that it stays in the user's language and survives a reload of the sign-in.
 */
const REASONS: Record<string, { key: string; severity: 'warning' | 'error' }> = {
  '401': { key: 'errors.notLoggedIn', severity: 'warning' },
  '403': { key: 'errors.forbidden', severity: 'error' },
};

/** Only paths inside this app are followed after sign-in, never another site. */
function safeRedirect(value: string | null): string | null {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/login') ? value : null;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const [params] = useSearchParams();
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<{ key: string; values?: Record<string, string> } | null>(null);
  const [busy, setBusy] = useState(false);
  const redirect = safeRedirect(params.get('redirect'));
  const reason = REASONS[params.get(LOGIN_REASON_PARAM) ?? ''];

  if (session && !busy) return <Navigate to={redirect ?? startPath(session)} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await signIn({ userName: userName.trim(), password });
    if (result.ok) {
      const signedIn = sessionStore.get();
      navigate(redirect ?? (signedIn ? startPath(signedIn) : '/'), { replace: true });
    } else {
      setError({ key: result.messageKey, ...(result.values ? { values: result.values } : {}) });
    }
    setBusy(false);
  };

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}
    >
      <Paper elevation={3} sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 4 } }}>
        <Typography variant="h4" component="h1" color="primary" sx={{ fontWeight: 700 }}>
          {t('app.name')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          {t('app.tagline')}
        </Typography>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('login.title')}
        </Typography>
        <Box component="form" onSubmit={(e) => void submit(e)} noValidate sx={{ display: 'grid', gap: 2 }}>
          {reason && (
            <Alert severity={reason.severity} data-testid="login-reason">
              {t(reason.key)}
            </Alert>
          )}
          <TextField
            label={t('login.username')}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            value={userName}
            onChange={(e) => setUserName(e.target.value)}
            required
            autoFocus
            slotProps={{ htmlInput: { 'data-testid': 'login-username' } }}
          />
          <TextField
            label={t('login.password')}
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            slotProps={{
              htmlInput: { 'data-testid': 'login-password' },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      onClick={() => setShowPassword((v) => !v)}
                      aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                      edge="end"
                    >
                      {showPassword ? <VisibilityOff /> : <Visibility />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          {error && (
            <Alert severity="error" data-testid="login-error">
              {t(error.key, error.values)}
            </Alert>
          )}
          <Button
            type="submit"
            variant="contained"
            disabled={busy || !userName.trim() || !password}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        </Box>
        <Box sx={{ mt: 3, display: 'grid', gap: 1 }}>
          <LanguageSelect />
          <ThemeSwitch />
        </Box>
      </Paper>
    </Box>
  );
}
