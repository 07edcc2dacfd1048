import { type Workshop, isSystemAdmin } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { lazyChunk } from '../../app/chunks.ts';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { notifications } from '../../app/notifications.ts';
import { ApiFailure } from '../../app/api.ts';
import { sessionStore, useSession } from '../../app/session.ts';
import { EmailAddresses } from './EmailAddresses.tsx';
import { LogoField } from './LogoField.tsx';
import { WorkshopForm } from './WorkshopForm.tsx';
import { fetchWorkshop, handledHere } from './workshop-api.ts';

// The audit trail is read seldom and brings the date formatting: loaded when the page shows it.
const NotificationMails = lazyChunk(() =>
  import('./NotificationMails.tsx').then((m) => ({ default: m.NotificationMails })),
);
const AuditTrail = lazyChunk(() => import('./AuditTrail.tsx').then((m) => ({ default: m.AuditTrail })));

function Section({ title, children, testId }: { title?: string; children: ReactNode; testId?: string }) {
  return (
    <Card data-testid={testId}>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        {title && (
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            {title}
          </Typography>
        )}
        {children}
      </CardContent>
    </Card>
  );
}

/**
 * The signed-in session keeps a copy of its workshop (docs/requirements/administration.md#session): a save refreshes
 * it.
 */
function refreshSession(workshop: Workshop) {
  const session = sessionStore.get();
  if (!session?.workshop || session.workshop.id !== workshop.id) return;
  const { id, name, countryCode, siteId, revNr, addLastModifier } = workshop;
  sessionStore.set({ ...session, workshop: { id, name, countryCode, siteId, revNr, addLastModifier } });
}

/** The rights message of the guard (errors.forbidden): this page is not the user's to see. */
function NoRights() {
  const { t } = useTranslation();
  return (
    <Alert severity="error" data-testid="workshop-forbidden" sx={{ maxWidth: 900 }}>
      {t('errors.forbidden')}
    </Alert>
  );
}

/**
 * Why the workshop could not be shown. The server answers another workshop's id with 404, as if it did not exist
 * (docs/decisions.md, "Who may lose which rights?"): for a workshop admin that is a page outside their rights, for a
 * system admin, who reaches every workshop, one that does not exist. Anything else may pass: try again.
 */
type Problem = 'forbidden' | 'missing' | 'failed';

function problemOf(error: unknown, systemAdmin: boolean): Problem {
  if (!(error instanceof ApiFailure)) return 'failed';
  if (error.status === 403) return 'forbidden';
  if (error.status === 404) return systemAdmin ? 'missing' : 'forbidden';
  return 'failed';
}

function WorkshopSettings({ workshopId, systemAdmin }: { workshopId: number; systemAdmin: boolean }) {
  const { t } = useTranslation();
  const [workshop, setWorkshop] = useState<Workshop | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const failed = problem !== null;

  const load = useCallback(async () => {
    setProblem(null);
    try {
      setWorkshop(await fetchWorkshop(workshopId));
    } catch (error) {
      const found = problemOf(error, systemAdmin);
      setProblem(found);
      if (found === 'failed' && handledHere(error)) notifications.show('workshop.loadError', 'error');
    }
  }, [workshopId, systemAdmin]);

  useEffect(() => {
    void load();
  }, [load]);

  const changed = (next: Workshop) => {
    setWorkshop(next);
    refreshSession(next);
  };

  if (problem === 'forbidden') return <NoRights />;
  if (problem === 'missing') {
    return (
      <Alert severity="error" data-testid="workshop-missing" sx={{ maxWidth: 900 }}>
        {t('workshop.missing')}
      </Alert>
    );
  }

  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      {failed && (
        <Alert
          severity="error"
          data-testid="workshop-load-error"
          action={
            <Button color="inherit" onClick={() => void load()}>
              {t('workshop.retry')}
            </Button>
          }
        >
          {t('workshop.loadError')}
        </Alert>
      )}
      {!workshop && !failed && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('app.loading')} />
        </Box>
      )}
      {workshop && (
        <>
          <Section title={t('workshop.data')}>
            <WorkshopForm workshop={workshop} onSaved={changed} />
          </Section>
          <Section title={t('workshop.logo.title')}>
            <LogoField workshop={workshop} onChanged={changed} />
          </Section>
        </>
      )}
      {(workshop || !failed) && (
        <Section>
          <EmailAddresses workshopId={workshopId} />
        </Section>
      )}
      {workshop && (
        <Section title={t('workshop.mails.title')} testId="mails-section">
          <Suspense fallback={<CircularProgress size={28} aria-label={t('app.loading')} />}>
            <NotificationMails workshopId={workshopId} />
          </Suspense>
        </Section>
      )}
      {workshop && (
        <Section title={t('workshop.audit.title')} testId="audit-section">
          <Suspense fallback={<CircularProgress size={28} aria-label={t('app.loading')} />}>
            <AuditTrail workshopId={workshopId} />
          </Suspense>
        </Section>
      )}
    </Stack>
  );
}

/** Workshop settings: /workshop/{workshopId} (docs/requirements/administration.md#workshop-settings). */
export default function WorkshopPage() {
  const { t } = useTranslation();
  const { workshopId } = useParams();
  const session = useSession();
  const systemAdmin = isSystemAdmin(session?.roles ?? []);
  const id = Number(workshopId);
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <Alert severity="error" data-testid="workshop-missing">
        {t('workshop.missing')}
      </Alert>
    );
  }
  // A workshop admin reaches their own workshop only: another one's page is outside their rights (issue 20), said
  // without asking the server, which would only answer 404.
  if (!systemAdmin && session?.workshop?.id !== id) return <NoRights />;
  // A new workshop id starts a fresh screen (no data of the previous workshop stays).
  return <WorkshopSettings key={id} workshopId={id} systemAdmin={systemAdmin} />;
}
