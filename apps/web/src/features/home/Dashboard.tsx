import {
  type Dashboard as DashboardFigures,
  DEFAULT_OPEN_LONGER_DAYS,
  type DeadlineFilter,
  dashboardSchema,
  localDate,
  orderListPath,
} from '@vers/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useLiveQuery } from 'dexie-react-hooks';
import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { lazyChunk } from '../../app/chunks.ts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApiFailure, call } from '../../app/api.ts';
import { useSyncStatus } from '../../offline/scheduler.ts';
import { versdb } from '../../offline/versdb.ts';
import { fetchDeadlines } from '../deadlines/deadlines-api.ts';
import { type DeadlineCounts, countDeadlines, deviceFigures, monthLabel, shownCounts } from './dashboard-figures.ts';

// The charts library is large: its chunk loads only here, after the figures, never with the start page itself.
const TurnaroundChart = lazyChunk(() => import('./TurnaroundChart.tsx'));

/** Failures that mean "no server now": the tiles then show what this device holds. */
const OFFLINE_STATUSES = [0, 502, 503, 504] as const;

/** The deadlines tile: the overdue ones and those due within 30 days (the deadline list's default window). */
const DEADLINE_FILTER: DeadlineFilter = { within: 30, overdue: true };

/** The deadlines' counts, from the server or (without one) from the orders this device holds. */
async function loadDeadlineCounts(): Promise<DeadlineCounts | null> {
  const today = localDate();
  try {
    return countDeadlines((await fetchDeadlines(DEADLINE_FILTER, today)).deadlines);
  } catch (error) {
    if (!(error instanceof ApiFailure && (OFFLINE_STATUSES as readonly number[]).includes(error.status))) return null;
    // The device's rule needs the field catalogue: loaded only offline.
    const { deviceDeadlines } = await import('../deadlines/device-deadlines.ts');
    return countDeadlines(await deviceDeadlines(versdb, DEADLINE_FILTER, today));
  }
}

type Source =
  { kind: 'loading' } | { kind: 'server'; figures: DashboardFigures } | { kind: 'device' } | { kind: 'failed' };

function Tile({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card data-testid={testId} sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h3" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** A figure that opens the list it counts. Large enough to hit with a glove (at least 48 px high). */
function FigureLink({
  to,
  value,
  label,
  testId,
}: {
  to: string;
  value: number | string;
  label: string;
  testId: string;
}) {
  return (
    <Link
      component={RouterLink}
      to={to}
      data-testid={testId}
      data-value={value}
      underline="hover"
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 2,
        minHeight: 48,
        px: 1,
        borderRadius: 1,
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      <Typography component="span" sx={{ color: 'text.primary' }}>
        {label}
      </Typography>
      <Typography component="span" variant="h5" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Typography>
    </Link>
  );
}

/**
 * The start page's figures for the workshop roles (issue 23): orders by status, orders open longer than N days,
 * median turnaround per month, this device's unsent changes. Online they are the workshop's (GET dashboard);
 * without a server they are this device's, and say so, and the turnaround needs a connection.
 */
export default function Dashboard() {
  const { t, i18n } = useTranslation();
  const sync = useSyncStatus();
  const [source, setSource] = useState<Source>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const days = DEFAULT_OPEN_LONGER_DAYS;
  const [deadlines, setDeadlines] = useState<DeadlineCounts | null | 'failed'>(null);
  const device = useLiveQuery(async () => deviceFigures(await versdb.orders.toArray(), days, new Date()), [days]);

  useEffect(() => {
    let live = true;
    call(`dashboard?days=${days}`, dashboardSchema, { handles: OFFLINE_STATUSES })
      .then((figures) => live && setSource({ kind: 'server', figures }))
      .catch((error: unknown) => {
        if (!live) return;
        if (error instanceof ApiFailure && (OFFLINE_STATUSES as readonly number[]).includes(error.status))
          setSource({ kind: 'device' });
        else setSource({ kind: 'failed' }); // the API client's global reaction has said why
      });
    return () => {
      live = false;
    };
  }, [days, attempt]);

  useEffect(() => {
    let live = true;
    loadDeadlineCounts()
      .then((counts) => live && setDeadlines(counts ?? 'failed'))
      .catch((error: unknown) => {
        console.error(error);
        if (live) setDeadlines('failed');
      });
    return () => {
      live = false;
    };
  }, [attempt]);

  // Back online after a failed call: the workshop's figures again.
  useEffect(() => {
    if (sync.online && source.kind === 'device') setAttempt((n) => n + 1);
  }, [sync.online, source.kind]);

  const fromServer = source.kind === 'server' ? source.figures : null;
  // Without the server's figures (no connection, or a failed call) the tiles show what this device holds.
  const onDevice = source.kind === 'device' || source.kind === 'failed';
  const decimal = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const counts = fromServer !== null ? shownCounts(fromServer.byStatus) : onDevice && device ? device.byStatus : null;
  const openLonger = fromServer ? fromServer.openLongerCount : onDevice ? device?.openLongerCount : null;
  // The newest month with a finished order: its median as a number, beside the chart.
  const latest = fromServer?.turnaround.findLast((month) => month.medianDays !== null) ?? null;

  return (
    <Box
      component="section"
      aria-labelledby="dashboard-title"
      data-testid="dashboard"
      data-source={source.kind}
      sx={{ mt: 3 }}
    >
      <Typography id="dashboard-title" variant="h5" component="h2" gutterBottom>
        {t('dashboard.title')}
      </Typography>
      {source.kind === 'failed' && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('dashboard.failed')}
        </Alert>
      )}
      {source.kind === 'device' && (
        <Alert severity="info" data-testid="dashboard-device-note" sx={{ mb: 2 }}>
          {t('dashboard.deviceFigures')}
        </Alert>
      )}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
        }}
      >
        <Tile title={t('dashboard.byStatus')} testId="dashboard-by-status">
          {counts ? (
            <>
              {counts.map(({ status, count }) => (
                <FigureLink
                  key={status}
                  to={orderListPath(status)}
                  value={count}
                  label={t(`orders.status.${status}`)}
                  testId={`dashboard-status-${status}`}
                />
              ))}
            </>
          ) : (
            <Skeleton variant="rounded" height={240} />
          )}
        </Tile>
        <Tile title={t('dashboard.openLonger', { days })} testId="dashboard-open-longer">
          {openLonger !== null && openLonger !== undefined ? (
            <FigureLink
              to={orderListPath('open', days)}
              value={openLonger}
              label={t('dashboard.openLongerLabel', { days })}
              testId="dashboard-open-longer-count"
            />
          ) : (
            <Skeleton variant="rounded" height={48} />
          )}
        </Tile>
        <Tile title={t('dashboard.deadlines')} testId="dashboard-deadlines">
          {deadlines === 'failed' ? (
            <Typography color="text.secondary">{t('dashboard.deadlinesFailed')}</Typography>
          ) : deadlines ? (
            <>
              <FigureLink
                to="/deadlines?within=none&overdue=true"
                value={deadlines.overdue}
                label={t('dashboard.overdue')}
                testId="dashboard-deadlines-overdue"
              />
              <FigureLink
                to="/deadlines?within=30&overdue=false"
                value={deadlines.dueSoon}
                label={t('dashboard.dueSoon', { days: DEADLINE_FILTER.within })}
                testId="dashboard-deadlines-due-soon"
              />
            </>
          ) : (
            <Skeleton variant="rounded" height={96} />
          )}
        </Tile>
        <Tile title={t('dashboard.unsent')} testId="dashboard-unsent">
          <FigureLink
            to="/profile#unsent"
            value={sync.unsentCount}
            label={t('dashboard.unsentLabel')}
            testId="dashboard-unsent-count"
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('dashboard.unsentHint')}
          </Typography>
        </Tile>
        <Box sx={{ gridColumn: { sm: '1 / -1' } }}>
          <Tile title={t('dashboard.turnaround')} testId="dashboard-turnaround">
            {fromServer ? (
              <>
                {latest ? (
                  <FigureLink
                    to={orderListPath('done')}
                    value={decimal.format(latest.medianDays ?? 0)}
                    label={t('dashboard.latestMedian', {
                      month: monthLabel(latest.month, i18n.language),
                      count: latest.orders,
                    })}
                    testId="dashboard-latest-median"
                  />
                ) : (
                  <Typography color="text.secondary" data-testid="dashboard-no-turnaround">
                    {t('dashboard.noTurnaround')}
                  </Typography>
                )}
                <Suspense fallback={<Skeleton variant="rounded" height={260} />}>
                  <TurnaroundChart months={fromServer.turnaround} language={i18n.language} />
                </Suspense>
              </>
            ) : onDevice ? (
              <Alert severity="warning" data-testid="dashboard-needs-connection">
                {t('dashboard.needsConnection')}
              </Alert>
            ) : (
              <Skeleton variant="rounded" height={260} />
            )}
          </Tile>
        </Box>
      </Box>
    </Box>
  );
}
