import { formatDateTime } from '@vers/domain';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../app/LanguageSelect.tsx';
import { ThemeSwitch } from '../../app/ThemeSwitch.tsx';
import { useSession } from '../../app/session.ts';
import { currentLanguage } from '../../i18n/index.ts';
import UnsentChanges from '../unsent/UnsentChanges.tsx';
import { DeviceCard } from './DeviceCard.tsx';
import { PasswordChange } from './PasswordChange.tsx';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography component="div">{children}</Typography>
    </div>
  );
}

export default function ProfilePage() {
  const { t } = useTranslation();
  const session = useSession();
  if (!session) return null;
  return (
    <Stack spacing={2} sx={{ maxWidth: 640 }}>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('profile.account')}
          </Typography>
          <Stack spacing={1.5}>
            <Field label={t('profile.username')}>
              <span data-testid="profile-username">{session.username}</span>
            </Field>
            <Field label={t('profile.name')}>{`${session.firstName} ${session.lastName}`}</Field>
            <Field label={t('profile.roles')}>
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', pt: 0.5 }}>
                {session.roles.map((role) => (
                  <Chip key={role} label={t(`roles.${role}`)} size="small" />
                ))}
              </Stack>
            </Field>
            {session.workshop && <Field label={t('profile.workshop')}>{session.workshop.name}</Field>}
            <Typography variant="body2" color="text.secondary">
              {t('profile.sessionUntil', { date: formatDateTime(session.expiresAt, currentLanguage()) })}
            </Typography>
          </Stack>
        </CardContent>
      </Card>
      <PasswordChange />
      <UnsentChanges />
      <DeviceCard />
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('profile.settings')}
          </Typography>
          <Stack spacing={2} sx={{ maxWidth: 360 }}>
            <LanguageSelect />
            <ThemeSwitch />
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
