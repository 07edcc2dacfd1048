import {
  type HolderOrder,
  type HolderOrderPage,
  type Language,
  formatDate,
  formatVehicleNumber,
  isOrderStatus,
  displayStatus,
} from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { DataTablePagination } from '../../app/components/DataTablePagination.tsx';
import { useSession } from '../../app/session.ts';
import { HOLDER_PAGE_SIZE, fetchHolderOrders } from './holder-api.ts';
import { HOLDER_REFRESH_MS } from './holder-view.ts';
import { useRefresh } from './use-refresh.ts';
import LoadFailure from '../../app/components/LoadFailure.tsx';

/** Typing pauses this long before the list is asked for again (as the workshop's order list). */
const SEARCH_DELAY_MS = 300;
/** The server's limit of the search parameter. */
const SEARCH_MAX_LENGTH = 50;

export const holderOrderPath = (order: Pick<HolderOrder, 'id'>) => `/holder/orders/${order.id}`;

/** The search as the user typed it, handed on once typing pauses. */
function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** The wagon number as the project writes vehicle numbers (`31 80 4650 123-4`); a dash when the order has none. */
export const wagonNumberText = (order: Pick<HolderOrder, 'wagonNumber'>) =>
  order.wagonNumber ? formatVehicleNumber(order.wagonNumber) : '—';

/** The repairing workshop with its country, `Werk Nord (DE)`. */
export const workshopText = ({ workshop }: Pick<HolderOrder, 'workshop'>) =>
  workshop.countryCode ? `${workshop.name} (${workshop.countryCode})` : workshop.name;

export function useStatusText() {
  const { t } = useTranslation();
  return (status: string) => (isOrderStatus(status) ? t(`orders.status.${displayStatus(status)}`) : status);
}

function Released({ order }: { order: HolderOrder }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  if (!order.releasedAt)
    return (
      <Typography
        component="span"
        variant="inherit"
        color="text.secondary"
        data-testid="holder-order-released"
        data-released="false"
      >
        {t('holder.list.notReleased')}
      </Typography>
    );
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: 'success.main', whiteSpace: 'nowrap' }}
      data-testid="holder-order-released"
      data-released="true"
    >
      <CheckCircleIcon fontSize="small" />
      {t('holder.list.releasedOn', { date: formatDate(order.releasedAt, language) })}
    </Box>
  );
}

/** On a phone: each wagon a card, the whole card one large touch target (readable and hit with gloves). */
function OrderCard({ order }: { order: HolderOrder }) {
  const { t } = useTranslation();
  const statusText = useStatusText();
  return (
    <Card variant="outlined" data-testid="holder-order-row" data-order-id={order.id} data-number={order.number}>
      <CardActionArea component={RouterLink} to={holderOrderPath(order)} sx={{ p: 2, minHeight: 96 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Stack spacing={0.5} sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography
              component="span"
              sx={{ fontSize: '1.25rem', fontWeight: 700, whiteSpace: 'nowrap' }}
              data-testid="holder-order-wagon"
            >
              {wagonNumberText(order)}
            </Typography>
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {order.keeperMarking} · {statusText(order.status)}
            </Typography>
            <Typography component="span" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {workshopText(order)}
            </Typography>
            <Typography component="span" color="text.secondary" variant="body2">
              {t('holder.list.orderNumber', { number: order.number })}
            </Typography>
            <Released order={order} />
          </Stack>
          <ChevronRightIcon color="action" fontSize="large" />
        </Stack>
      </CardActionArea>
    </Card>
  );
}

/**
 * The holder's wagon list (issue 22, `/holder`): the orders of the keeper's wagons across all workshops, newest first,
 * searched by wagon or order number and paged by the server. Read-only; a row opens the order.
 */
export default function HolderOrdersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'));
  const statusText = useStatusText();
  const keeper = useSession()?.keeper ?? null;
  const [search, setSearch] = useState('');
  const settledSearch = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [page, setPage] = useState(0);
  const [result, setResult] = useState<{ search: string; page: number; data: HolderOrderPage } | null>(null);
  const [failed, setFailed] = useState<'failed' | 'forbidden' | false>(false);

  /** Only the newest request's answer is shown: an older search's answer arriving late is dropped. */
  const requests = useRef(0);
  const load = useCallback(async () => {
    const mine = ++requests.current;
    try {
      const data = await fetchHolderOrders(page, settledSearch);
      if (mine !== requests.current) return;
      setResult({ search: settledSearch, page, data });
      setFailed(false);
    } catch (error) {
      if (mine !== requests.current) return;
      setFailed(error instanceof ApiFailure && error.status === 403 ? 'forbidden' : 'failed');
    }
  }, [page, settledSearch]);

  useEffect(() => {
    void load();
  }, [load]);
  useRefresh(() => void load(), HOLDER_REFRESH_MS);

  const current = result?.search === settledSearch && result.page === page ? result.data : null;
  const orders = result?.data.orders ?? [];
  const total = result?.data.total ?? 0;
  const loading = current === null && !failed;

  return (
    <Stack spacing={2} sx={{ maxWidth: 1400 }}>
      {keeper && (
        <Typography color="text.secondary" data-testid="holder-keeper">
          {t('holder.list.keeper', { name: keeper.name, markings: keeper.markings.join(', ') })}
        </Typography>
      )}
      <TextField
        label={t('holder.list.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.target.value);
          setPage(0);
        }}
        autoComplete="off"
        sx={{ maxWidth: { md: 520 } }}
        slotProps={{
          htmlInput: { 'data-testid': 'holder-search', maxLength: SEARCH_MAX_LENGTH, spellCheck: false },
          input: {
            sx: { minHeight: 56 },
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon />
              </InputAdornment>
            ),
          },
        }}
      />

      <LoadFailure kind={failed} testId="holder" message={t('holder.list.loadFailed')} onRetry={() => void load()} />

      <Paper
        variant="outlined"
        sx={{ overflow: 'hidden' }}
        data-testid="holder-orders"
        data-loading={loading}
        data-search={result?.search ?? ''}
      >
        {loading && <LinearProgress aria-label={t('app.loading')} />}
        {result !== null && orders.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 3 }} data-testid="holder-empty">
            {result.search ? t('holder.list.noMatch') : t('holder.list.empty')}
          </Typography>
        )}
        {phone ? (
          <Stack spacing={1.5} sx={{ p: orders.length > 0 ? 1.5 : 0 }}>
            {orders.map((order) => (
              <OrderCard key={order.id} order={order} />
            ))}
          </Stack>
        ) : (
          orders.length > 0 && (
            <TableContainer>
              <Table aria-label={t('routes.holderOrders')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('holder.columns.wagonNumber')}</TableCell>
                    <TableCell>{t('holder.columns.keeperMarking')}</TableCell>
                    <TableCell>{t('holder.columns.workshop')}</TableCell>
                    <TableCell>{t('orders.columns.number')}</TableCell>
                    <TableCell>{t('orders.columns.status')}</TableCell>
                    <TableCell>{t('holder.columns.released')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {orders.map((order) => (
                    <TableRow
                      key={order.id}
                      hover
                      onClick={() => void navigate(holderOrderPath(order))}
                      sx={{ cursor: 'pointer', '& td': { py: 1.5 } }}
                      data-testid="holder-order-row"
                      data-order-id={order.id}
                      data-number={order.number}
                    >
                      <TableCell sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                        <Box
                          component={RouterLink}
                          to={holderOrderPath(order)}
                          onClick={(e) => e.stopPropagation()}
                          sx={{ color: 'inherit', textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}
                          data-testid="holder-order-wagon"
                        >
                          {wagonNumberText(order)}
                        </Box>
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{order.keeperMarking}</TableCell>
                      <TableCell>{workshopText(order)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{order.number}</TableCell>
                      <TableCell>{statusText(order.status)}</TableCell>
                      <TableCell>
                        <Released order={order} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )
        )}
        {result !== null && (
          <DataTablePagination
            count={total}
            page={Math.min(page, Math.max(0, Math.ceil(total / HOLDER_PAGE_SIZE) - 1))}
            rowsPerPage={HOLDER_PAGE_SIZE}
            sizes={[HOLDER_PAGE_SIZE]}
            allowAll={false}
            onPageChange={setPage}
            onRowsPerPageChange={() => setPage(0)}
            selectTestId="holder-rows-per-page"
          />
        )}
      </Paper>
    </Stack>
  );
}
