import { VERSION_DISPLAY_LENGTH } from '@vers/domain';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { notifications } from './notifications.ts';
import { TOUCH_TARGET } from './theme.ts';
import { FRONTEND_VERSION, useVersions } from './versions.ts';

function VersionLine({ label, hash, testId }: { label: string; hash: string | null; testId: string }) {
  const { t } = useTranslation();
  const copy = async () => {
    if (!hash) return;
    await navigator.clipboard?.writeText(hash).catch(() => undefined);
    notifications.show('version.copied', 'success');
  };
  return (
    <ButtonBase
      onClick={() => void copy()}
      // The visible label and short hash are the button's name (what a voice user says to press it); what a press
      // does is its description.
      title={t('version.copy')}
      data-testid={testId}
      sx={{ display: 'flex', justifyContent: 'space-between', width: '100%', minHeight: TOUCH_TARGET, borderRadius: 1 }}
    >
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="caption" sx={{ fontFamily: 'monospace' }}>
        {hash ? hash.slice(0, VERSION_DISPLAY_LENGTH) : '–'}
      </Typography>
    </ButtonBase>
  );
}

/** Front end, current front end and back end, each by the first 8 characters; a click copies the whole hash. */
export function VersionInfo() {
  const { t } = useTranslation();
  const { currentFrontend, backend } = useVersions();
  return (
    <Box sx={{ px: 2, py: 1 }}>
      <VersionLine label={t('version.frontend')} hash={FRONTEND_VERSION} testId="version-frontend" />
      <VersionLine label={t('version.currentFrontend')} hash={currentFrontend} testId="version-current-frontend" />
      <VersionLine label={t('version.backend')} hash={backend} testId="version-backend" />
    </Box>
  );
}
