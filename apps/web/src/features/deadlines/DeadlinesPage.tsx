import {
  DEADLINE_WINDOWS,
  type DeadlineFilter,
  type DeadlineList,
  type DeadlineWindow,
  type Language,
  ORDER_ROOTS,
  ROLE_GROUPS,
  formatDate,
  formatVehicleNumber,
  hasAnyRole,
  isOrderType,
  localDate,
  resolveKey,
} from '@vers/domain';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { loadFeatureCatalogue } from '../../i18n/index.ts';
import { fetchDeadlines } from './deadlines-api.ts';

type Row = DeadlineList['deadlines'][number];
type Source = 'server' | 'device';

/** The filter in the address (`/deadlines?within=90&overdue=false`): 30 days and the overdue ones unless it says. */
function filterOf(params: URLSearchParams): DeadlineFilter {
  const within = Number(params.get('within') ?? 30);
  return {
    within: params.get('within') === 'none' ? null : (DEADLINE_WINDOWS.find((days) => days === within) ?? 30),
    overdue: params.get('overdue') !== 'false',
  };
}

/** Where a row leads: the editor's tab holding the field (workshop users), or the holder's order view. */
function rowPath(row: Row, holder: boolean): string {
  if (holder) return `/holder/orders/${row.orderId}`;
  const type = row.orderType;
  const tab = isOrderType(type)
    ? resolveKey(type, `${ORDER_ROOTS[type].out}.${row.field.replaceAll('[]', '[0]')}`)?.tab.id
    : undefined;
  return `/orders/${type.toLowerCase()}/${row.orderId}${tab ? `/${tab}` : ''}`;
}

const vehicleText = (number: string | null) =>
  number === null ? '—' : /^\d{12}$/.test(number) ? formatVehicleNumber(number) : number;

function useRowTexts() {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  return {
    field: (row: Row) => {
      const tab = isOrderType(row.orderType)
        ? resolveKey(row.orderType, `${ORDER_ROOTS[row.orderType].out}.${row.field.replaceAll('[]', '[0]')}`)?.tab.id
        : undefined;
      const label = t(row.labelKey) + (row.entry ? ` ${row.entry}` : '');
      return tab ? `${t(`catalogue.tab.${row.orderType}.${tab}`)} · ${label}` : label;
    },
    vehicle: (row: Row) =>
      row.wheelset
        ? t('deadlines.wheelsetOfWagon', {
            wagon: vehicleText(row.vehicleNumber),
            position: row.wheelset.position,
            number: vehicleText(row.wheelset.number),
          })
        : vehicleText(row.vehicleNumber),
    type: (row: Row) => t(row.orderType === 'WHEELSET' ? 'deadlines.wheelset' : 'deadlines.wagon'),
    due: (row: Row) => formatDate(row.due, language),
  };
}

/** Overdue, due today, or the days left: a chip that says it in words and colour. */
function Urgency({ row }: { row: Row }) {
  const { t } = useTranslation();
  if (row.daysLeft < 0)
    return (
      <Chip color="error" label={t('deadlines.overdue')} data-testid="deadline-overdue" sx={{ fontWeight: 700 }} />
    );
  if (row.daysLeft === 0) return <Chip color="warning" label={t('deadlines.dueToday')} sx={{ fontWeight: 700 }} />;
  return null;
}

function DeadlineCard({ row, holder }: { row: Row; holder: boolean }) {
  const { t } = useTranslation();
  const texts = useRowTexts();
  return (
    <Card
      variant="outlined"
      data-testid="deadline-row"
      data-order-id={row.orderId}
      data-days-left={row.daysLeft}
      data-field={row.field}
    >
      <CardActionArea component={RouterLink} to={rowPath(row, holder)} sx={{ p: 2, minHeight: 96 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Stack spacing={0.5} sx={{ flexGrow: 1, minWidth: 0 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
              <Typography component="span" sx={{ fontSize: '1.25rem', fontWeight: 700 }}>
                {texts.due(row)}
              </Typography>
              <Urgency row={row} />
            </Stack>
            <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {texts.vehicle(row)}
            </Typography>
            <Typography component="span" sx={{ overflowWrap: 'anywhere' }}>
              {texts.field(row)}
            </Typography>
            <Typography component="span" color="text.secondary" variant="body2" data-testid="deadline-days">
              {row.daysLeft < 0
                ? t('deadlines.daysOverdue', { days: -row.daysLeft })
                : t('deadlines.daysLeft', { days: row.daysLeft })}{' '}
              · {t('deadlines.order', { number: row.orderNumber })}
            </Typography>
          </Stack>
          <ChevronRightIcon color="action" fontSize="large" />
        </Stack>
      </CardActionArea>
    </Card>
  );
}

/**
 * The deadline list (issue 23, `/deadlines`): the due dates the catalogue marks, of the workshop's orders or a
 * holder's keeper's wagons, most urgent first, filtered by 30, 60 or 90 days ahead and the overdue ones. Online the
 * server's list; a workshop user without a connection gets the list of the orders this device keeps, by the same rule.
 */
export default function DeadlinesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'));
  const texts = useRowTexts();
  const session = useSession();
  const holder = hasAnyRole(session?.roles ?? [], ROLE_GROUPS.holder);
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const filterKey = `${filter.within}:${filter.overdue}`;
  const [result, setResult] = useState<{ key: string; source: Source; rows: Row[] } | null>(null);
  const [failed, setFailed] = useState<'failed' | 'forbidden' | false>(false);
  const [, setLabels] = useState(false);

  useEffect(() => {
    void loadFeatureCatalogue('catalogue').then(() => setLabels(true));
  }, []);

  const requests = useRef(0);
  const load = useCallback(async () => {
    const mine = ++requests.current;
    const [within, overdue] = filterKey.split(':');
    const wanted: DeadlineFilter = {
      within: within === 'null' ? null : (Number(within) as DeadlineWindow),
      overdue: overdue === 'true',
    };
    const today = localDate();
    setFailed(false);
    try {
      const list = await fetchDeadlines(wanted, today);
      if (mine === requests.current) setResult({ key: filterKey, source: 'server', rows: list.deadlines });
    } catch (error) {
      if (mine !== requests.current) return;
      const offline = error instanceof ApiFailure && (error.status === 0 || error.status >= 502);
      if (offline && !holder) {
        // No network: the orders this device keeps, by the same rule (a holder keeps none on the device).
        try {
          const [{ deviceDeadlines }, { versdb }] = await Promise.all([
            import('./device-deadlines.ts'),
            import('../../offline/versdb.ts'),
          ]);
          const rows = await deviceDeadlines(versdb, wanted, today);
          if (mine === requests.current) setResult({ key: filterKey, source: 'device', rows });
          return;
        } catch (deviceError) {
          // That code not loaded before the network went (the service worker does not hold the app yet): the
          // failure with its retry, not a spinner for ever.
          console.error(deviceError);
          if (mine !== requests.current) return;
        }
      }
      setFailed(error instanceof ApiFailure && error.status === 403 ? 'forbidden' : 'failed');
    }
  }, [filterKey, holder]);

  useEffect(() => {
    void load();
  }, [load]);

  const setFilter = (next: DeadlineFilter) => {
    const search = new URLSearchParams(params);
    search.set('within', next.within === null ? 'none' : String(next.within));
    search.set('overdue', String(next.overdue));
    setParams(search, { replace: true });
  };

  const rows = result?.rows ?? [];
  const loading = result?.key !== filterKey && !failed;
  const chipSx = { minHeight: 48, px: 1, fontSize: '1rem', borderRadius: 6 };

  return (
    <Stack spacing={2} sx={{ maxWidth: 1400 }}>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
        role="group"
        aria-label={t('deadlines.filter')}
        data-testid="deadline-filter"
      >
        {DEADLINE_WINDOWS.map((days) => (
          <Chip
            key={days}
            label={t('deadlines.within', { days })}
            color={filter.within === days ? 'primary' : 'default'}
            variant={filter.within === days ? 'filled' : 'outlined'}
            aria-pressed={filter.within === days}
            onClick={() => setFilter({ ...filter, within: filter.within === days ? null : days })}
            data-testid={`deadline-within-${days}`}
            sx={chipSx}
          />
        ))}
        <Chip
          label={t('deadlines.overdueFilter')}
          color={filter.overdue ? 'error' : 'default'}
          variant={filter.overdue ? 'filled' : 'outlined'}
          aria-pressed={filter.overdue}
          onClick={() => setFilter({ ...filter, overdue: !filter.overdue })}
          data-testid="deadline-overdue-filter"
          sx={chipSx}
        />
      </Stack>

      {result && (
        <Alert
          severity={result.source === 'device' ? 'warning' : 'info'}
          data-testid="deadline-source"
          data-source={result.source}
        >
          {result.source === 'device'
            ? t('deadlines.source.device')
            : holder
              ? t('deadlines.source.serverHolder')
              : t('deadlines.source.server')}
        </Alert>
      )}
      {failed === 'forbidden' && (
        <Alert severity="error" data-testid="deadlines-forbidden">
          {t('errors.forbidden')}
        </Alert>
      )}
      {failed === 'failed' && (
        <Alert
          severity="error"
          data-testid="deadlines-load-error"
          action={
            <Button color="inherit" onClick={() => void load()} sx={{ minHeight: 48 }}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('deadlines.loadFailed')}
        </Alert>
      )}

      <Paper
        variant="outlined"
        sx={{ overflow: 'hidden' }}
        data-testid="deadlines"
        data-loading={loading}
        data-filter={filterKey}
        data-source={result?.source ?? ''}
      >
        {loading && <LinearProgress aria-label={t('app.loading')} />}
        {result !== null && !loading && rows.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 3 }} data-testid="deadlines-empty">
            {filter.within === null && !filter.overdue ? t('deadlines.noFilter') : t('deadlines.empty')}
          </Typography>
        )}
        {phone ? (
          <Stack spacing={1.5} sx={{ p: rows.length > 0 ? 1.5 : 0 }}>
            {rows.map((row) => (
              <DeadlineCard key={`${row.orderId}:${row.field}:${row.entry ?? ''}`} row={row} holder={holder} />
            ))}
          </Stack>
        ) : (
          rows.length > 0 && (
            <TableContainer>
              <Table aria-label={t('routes.deadlines')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('deadlines.columns.due')}</TableCell>
                    <TableCell align="right">{t('deadlines.columns.daysLeft')}</TableCell>
                    <TableCell>{t('deadlines.columns.vehicle')}</TableCell>
                    <TableCell>{t('deadlines.columns.deadline')}</TableCell>
                    <TableCell>{t('deadlines.columns.order')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((row) => (
                    <TableRow
                      key={`${row.orderId}:${row.field}:${row.entry ?? ''}`}
                      hover
                      onClick={() => void navigate(rowPath(row, holder))}
                      sx={{ cursor: 'pointer', '& td': { py: 1.5 } }}
                      data-testid="deadline-row"
                      data-order-id={row.orderId}
                      data-days-left={row.daysLeft}
                      data-field={row.field}
                    >
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          <Box component="span" sx={{ fontWeight: 600 }}>
                            {texts.due(row)}
                          </Box>
                          <Urgency row={row} />
                        </Stack>
                      </TableCell>
                      <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                        {row.daysLeft}
                      </TableCell>
                      <TableCell>
                        <Box
                          component={RouterLink}
                          to={rowPath(row, holder)}
                          onClick={(e) => e.stopPropagation()}
                          sx={{
                            color: 'inherit',
                            fontWeight: 600,
                            textDecoration: 'none',
                            '&:hover': { textDecoration: 'underline' },
                          }}
                          data-testid="deadline-vehicle"
                        >
                          {texts.vehicle(row)}
                        </Box>
                        <Typography component="div" variant="body2" color="text.secondary">
                          {texts.type(row)}
                        </Typography>
                      </TableCell>
                      <TableCell>{texts.field(row)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.orderNumber}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )
        )}
      </Paper>
    </Stack>
  );
}
