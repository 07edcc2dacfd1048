import {
  type LogoProblem,
  logoProblem,
  WORKSHOP_ICON_MAX_BYTES,
  WORKSHOP_ICON_MAX_PIXELS,
  type Workshop,
} from '@vers/domain';
import UploadIcon from '@mui/icons-material/Upload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../app/notifications.ts';
import { toBase64 } from '../../app/base64.ts';
import { fetchIcon, handledHere, refusal, uploadIcon } from './workshop-api.ts';

const MAX_KB = String(Math.floor(WORKSHOP_ICON_MAX_BYTES / 1024));

type Problem = { key: string; values?: Record<string, string> };

const LOGO_PROBLEMS: Record<LogoProblem, Problem> = {
  tooLarge: { key: 'workshop.logo.tooLarge', values: { max: MAX_KB } },
  notPng: { key: 'errors.NOT_PNG' },
  truncated: { key: 'errors.NOT_PNG' },
  tooManyPixels: { key: 'workshop.logo.tooManyPixels', values: { max: String(WORKSHOP_ICON_MAX_PIXELS) } },
};

export interface LogoFieldProps {
  workshop: Workshop;
  onChanged: (workshop: Workshop) => void;
}

/**
 * The workshop's logo: shown when there is one, replaced by uploading a PNG (docs/requirements/validation.md#png-only:
 * PNG only).
 */
export function LogoField({ workshop, onChanged }: LogoFieldProps) {
  const { t } = useTranslation();
  const [icon, setIcon] = useState<string | null>(null);
  const [loading, setLoading] = useState(workshop.hasIcon);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  // Loaded once per workshop; an upload shows the new image itself.
  const { id } = workshop;
  const [hasIcon] = useState(workshop.hasIcon);

  useEffect(() => {
    if (!hasIcon) return;
    let live = true;
    fetchIcon(id)
      .then((data) => live && setIcon(data))
      .catch((error: unknown) => {
        if (live && handledHere(error)) notifications.show('workshop.logo.loadError', 'error');
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [id, hasIcon]);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    input.value = ''; // the same file can be chosen again after a refusal
    if (!file) return;
    setProblem(null);
    // The same rule the server applies (packages/domain/src/logo.ts), before anything is sent; a file too large
    // is not even read.
    const bytes = file.size > WORKSHOP_ICON_MAX_BYTES ? null : new Uint8Array(await file.arrayBuffer());
    const found = bytes ? logoProblem(bytes) : 'tooLarge';
    if (!bytes || found) {
      setProblem(LOGO_PROBLEMS[found ?? 'tooLarge']);
      return;
    }
    setBusy(true);
    const data = toBase64(bytes);
    try {
      const answer = await uploadIcon(workshop.id, data);
      setIcon(data);
      notifications.show('workshop.logo.saved', 'success');
      onChanged(answer);
    } catch (error) {
      // The server has the last word on what a PNG is and how large it may be.
      if (refusal(error, 400)?.code === 'NOT_PNG') setProblem(LOGO_PROBLEMS.notPng);
      else if (refusal(error, 400)?.code === 'IMAGE_TOO_LARGE') setProblem(LOGO_PROBLEMS.tooManyPixels);
      else if (refusal(error, 413)) setProblem(LOGO_PROBLEMS.tooLarge);
      else if (handledHere(error)) setProblem({ key: 'workshop.logo.saveError' });
      if (handledHere(error)) notifications.show('workshop.logo.saveError', 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box
        sx={{
          minHeight: 128,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          p: 2,
          // A light backdrop, so that dark and transparent logos stay visible in the dark theme too.
          bgcolor: icon ? '#fff' : 'action.hover',
        }}
      >
        {loading ? (
          <CircularProgress size={32} aria-label={t('app.loading')} />
        ) : icon ? (
          <Box
            component="img"
            src={`data:image/png;base64,${icon}`}
            alt={t('workshop.logo.alt', { name: workshop.name })}
            data-testid="workshop-logo-image"
            sx={{ maxWidth: '100%', maxHeight: 120, objectFit: 'contain', imageRendering: 'auto' }}
          />
        ) : (
          <Typography color="text.secondary" data-testid="workshop-logo-none">
            {t('workshop.logo.none')}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Button
          component="label"
          variant="outlined"
          startIcon={busy ? <CircularProgress size={20} /> : <UploadIcon />}
          disabled={busy || loading}
          sx={{ minWidth: { xs: '100%', sm: 200 } }}
        >
          {icon ? t('workshop.logo.replace') : t('workshop.logo.upload')}
          <input
            type="file"
            accept="image/png,.png"
            hidden
            onChange={(e) => void choose(e)}
            data-testid="workshop-logo-upload"
          />
        </Button>
        <Typography variant="body2" color="text.secondary">
          {t('workshop.logo.hint', { max: MAX_KB })}
        </Typography>
      </Box>
      {problem && (
        <Alert severity="error" onClose={() => setProblem(null)} data-testid="workshop-logo-error">
          {t(problem.key, problem.values ?? {})}
        </Alert>
      )}
    </Box>
  );
}
