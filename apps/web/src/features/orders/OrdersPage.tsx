import {
  type Language,
  type Order,
  type OrderType,
  CONTRACTOR_LIST,
  ROUTES,
  displayStatus,
  formatDate,
  formatVehicleNumber,
  guardRoute,
  isOrderStatus,
  mayWriteOrders,
  ORDER_LIST_COLUMNS,
  ORDER_LIST_OLDER_THAN_PARAM,
  ORDER_LIST_STATUS_PARAM,
  openLongerDaysSchema,
  ORDER_PAGE_SIZES,
  type OrderListColumn,
  ORDER_STATUS_FILTERS,
  ORDER_STATUSES,
  type OrderPage,
  type OrderPageQuery,
  type OrderSort,
  type OrderStatusFilter,
  orderPageSchema,
} from '@vers/domain';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { visuallyHidden } from '@mui/utils';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
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
import TableSortLabel from '@mui/material/TableSortLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import { useLiveQuery } from 'dexie-react-hooks';
import { type KeyboardEvent, startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { OrderTypeIcon } from './order-type.tsx';
import { ApiFailure, call } from '../../app/api.ts';
import { ConfirmDialog } from '../../app/components/ConfirmDialog.tsx';
import { DataTablePagination } from '../../app/components/DataTablePagination.tsx';
import { notifications } from '../../app/notifications.ts';
import { sessionStore, useSession } from '../../app/session.ts';
import { localOrderList } from '../../offline/local-orders.ts';
import { versdb } from '../../offline/versdb.ts';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import LoadFailure from '../../app/components/LoadFailure.tsx';
import { ScanButton } from '../scan/ScanButton.tsx';

/** Typing pauses this long before the list is asked for again. */
const SEARCH_DELAY_MS = 300;
/** The server's limit of the search parameter. */
const SEARCH_MAX_LENGTH = 50;
/** Statuses this screen reports itself; no connection, 401, 403 and 502 keep the app's global reaction. */
const HANDLED = [0, 400, 404, 409, 500, 502, 503, 504] as const;

/** What the list shows: a page of the orders a search and a status filter find, in a column's order. */
type ListQuery = Omit<OrderPageQuery, 'status' | 'olderThanDays'> & {
  status: OrderStatusFilter | '';
  olderThanDays?: number | undefined;
};
/**
 * The status filter of the list's address (`/orders?status=IN_QA`, the quality check's entry of the menu); none, or
 * one the list does not know, shows every order.
 */
function statusOfAddress(params: URLSearchParams): ListQuery['status'] {
  const value = params.get(ORDER_LIST_STATUS_PARAM);
  return (ORDER_STATUS_FILTERS as readonly string[]).includes(value ?? '') ? (value as OrderStatusFilter) : '';
}

/**
 * "Created more than N days ago" from the address (`/orders?status=open&olderThanDays=14`, the start page's "open
 * longer than N days"); none, or one out of range, filters nothing.
 */
function olderThanOfAddress(params: URLSearchParams): number | undefined {
  const parsed = openLongerDaysSchema.safeParse(params.get(ORDER_LIST_OLDER_THAN_PARAM) ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

/** The first page of the list opened at this address. */
const firstQuery = (params: URLSearchParams): ListQuery => ({
  offset: 0,
  limit: ORDER_PAGE_SIZES[0],
  sort: 'created',
  direction: 'desc',
  status: statusOfAddress(params),
  olderThanDays: olderThanOfAddress(params),
  search: '',
});
const FIRST_QUERY = firstQuery(new URLSearchParams(location.search));

const pagePath = (query: ListQuery) => {
  const params = new URLSearchParams({
    offset: String(query.offset),
    limit: String(query.limit),
    sort: query.sort,
    direction: query.direction,
    ...(query.status ? { status: query.status } : {}),
    ...(query.search ? { search: query.search } : {}),
    ...(query.olderThanDays ? { olderThanDays: String(query.olderThanDays) } : {}),
  });
  return `orders/page?${params.toString()}`;
};

// A refusal (403) of the list is said by the page as the rights message, not as a list that could not be loaded.
const fetchPage = (query: ListQuery) => call(pagePath(query), orderPageSchema, { handles: [...HANDLED, 403] });

/**
 * The first page, asked for as soon as this chunk has loaded when the list is the screen being opened (and the
 * session may see it), so that the answer travels while React mounts the frame and the page, instead of after
 * (issue 19: on a phone the request went out ~2 s after the chunk had arrived). Taken once, by the first load.
 */
let firstAnswer: Promise<OrderPage> | null = null;
const firstAnswerSent = Date.now();
/** A page mounted later than this (the user went elsewhere first) asks afresh rather than show an old answer. */
const FIRST_ANSWER_MAX_AGE_MS = 10_000;
const ordersRoute = ROUTES.find((route) => route.name === 'orders');
if (
  ordersRoute &&
  location.pathname === ordersRoute.path &&
  guardRoute(ordersRoute, sessionStore.get()).kind === 'allow'
) {
  firstAnswer = fetchPage(FIRST_QUERY);
  // Its failure is met where it is taken (load); this keeps an untaken one from being reported as unhandled.
  firstAnswer.catch(() => undefined);
}

function pageRequest(query: ListQuery): Promise<OrderPage> {
  const early = pagePath(query) === pagePath(FIRST_QUERY) && Date.now() - firstAnswerSent < FIRST_ANSWER_MAX_AGE_MS;
  const answer = early ? firstAnswer : null;
  firstAnswer = null;
  return answer ?? fetchPage(query);
}

/**
 * Brings the orders this device keeps for offline work up to date, once per visit of the list, beside the page the
 * list shows; the rare orders to ask about (deleted, or lost by a restored server) load the heal code.
 */
async function refreshKeptOrders(): Promise<void> {
  // Loaded after the page: the first rows do not wait for the exchange's code.
  const { syncOrderList } = await import('../../offline/order-list-sync.ts');
  const { asked } = await syncOrderList(versdb);
  if (asked.length > 0) {
    const { settleGoneOrders } = await import('../../offline/restore.ts');
    await settleGoneOrders(versdb, asked);
  }
}

const deleteOrder = (id: string) => call(`orders/${id}`, null, { method: 'DELETE', handles: HANDLED });

/** The local copies of an order (offline store) go with it; nothing there must be sent later. */
async function forgetLocally(orderId: string) {
  await versdb.transaction('rw', versdb.orders, versdb.orderResults, versdb.orderImages, async () => {
    await versdb.orders.delete(orderId);
    await versdb.orderResults.where('orderId').equals(orderId).delete();
    await versdb.orderImages.where('orderId').equals(orderId).delete();
  });
}

/** The search as the user typed it, handed on once typing pauses. */
function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** The status filter's choices: every order, open ones, done ones, or one status as users see it. */
const STATUS_FILTER_CHOICES: readonly (OrderStatusFilter | '')[] = [
  '',
  'open',
  'done',
  ORDER_STATUSES.CREATED,
  ORDER_STATUSES.IN_CREATION,
  ORDER_STATUSES.IN_WORK,
  ORDER_STATUSES.IN_QA,
  ORDER_STATUSES.DONE,
  ORDER_STATUSES.DONE_ARCHIVED,
];

/** The edit route of an order (docs/requirements/orders.md#order-routes): /orders/{wagon|wheelset}/{id}. */
export const editPath = (order: Pick<Order, 'id' | 'type'>) => `/orders/${order.type.toLowerCase()}/${order.id}`;

type Column = OrderListColumn;
const COLUMNS = ORDER_LIST_COLUMNS;

/** Where each column goes in a phone's card: the wagon or wheelset number first, as users look for it. */
const CARD_ORDER: Record<Column, number> = {
  maintenanceNumber: 1,
  type: 2,
  number: 3,
  status: 4,
  contractor: 5,
  externalOrderNumber: 6,
  importedDate: 7,
};

/**
 * On a phone each row becomes a card: the cells stack, each with its column name in front (the header row is
 * hidden, empty cells too), so nothing needs sideways scrolling with gloves. Wider screens keep the table.
 */
const stackedRows = (theme: Theme) => ({
  [theme.breakpoints.down('md')]: {
    '& thead': { display: 'none' },
    '& tbody tr': {
      display: 'grid',
      gridTemplateColumns: '1fr auto',
      columnGap: 1,
      py: 1.5,
      px: 2,
      borderBottom: `1px solid ${theme.palette.divider}`,
    },
    '& tbody td': { display: 'flex', gap: 1, gridColumn: '1', border: 0, p: 0, py: 0.25 },
    '& tbody td[data-empty]': { display: 'none' },
    '& tbody td[data-label]::before': {
      content: 'attr(data-label)',
      flex: '0 0 45%',
      color: theme.palette.text.secondary,
    },
    '& tbody td[data-column="maintenanceNumber"]': { fontSize: '1.1rem', pb: 0.75 },
    '& tbody td[data-column="maintenanceNumber"]::before': { display: 'none' },
    ...Object.fromEntries(
      Object.entries(CARD_ORDER).map(([column, order]) => [`& tbody td[data-column="${column}"]`, { order }]),
    ),
    '& tbody td.actions': { gridColumn: '2', gridRow: '1 / span 7', alignSelf: 'center', width: 'auto' },
  },
});

export default function OrdersPage() {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const navigate = useNavigate();
  // The quality manager reads orders only: no new order, no deletion (the server refuses both anyway).
  const mayWrite = mayWriteOrders(useSession()?.roles ?? []);
  const [search, setSearch] = useState('');
  const settledSearch = useDebounced(search.trim(), SEARCH_DELAY_MS);
  // The status filter lives in the address, so that a menu entry can open the list filtered (the quality check).
  const [params, setParams] = useSearchParams();
  const status = statusOfAddress(params);
  const olderThanDays = olderThanOfAddress(params);
  const [view, setView] = useState<Omit<ListQuery, 'search' | 'status' | 'olderThanDays'>>(() => firstQuery(params));
  // Another filter from the address (the menu, the browser's back button) starts at the first page again.
  const addressFilter = `${status}/${olderThanDays ?? ''}`;
  const [shownFilter, setShownFilter] = useState(addressFilter);
  if (shownFilter !== addressFilter) {
    setShownFilter(addressFilter);
    setView((current) => ({ ...current, offset: 0 }));
  }
  const query = useMemo(
    () => ({ ...view, status, olderThanDays, search: settledSearch }),
    [view, status, olderThanDays, settledSearch],
  );
  const clearOlderThan = () =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        changed.delete(ORDER_LIST_OLDER_THAN_PARAM);
        return changed;
      },
      { replace: true },
    );
  const chooseStatus = (next: ListQuery['status']) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        if (next) changed.set(ORDER_LIST_STATUS_PARAM, next);
        else changed.delete(ORDER_LIST_STATUS_PARAM);
        return changed;
      },
      { replace: true },
    );
  const [orders, setOrders] = useState<Order[] | null>(null);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  /** The list could not be read ('failed': a retry may help) or the server refused it ('forbidden': no rights). */
  const [loadFailed, setLoadFailed] = useState<'failed' | 'forbidden' | false>(false);
  const [unsentIds, setUnsentIds] = useState<ReadonlySet<string>>(new Set());
  const [fromDevice, setFromDevice] = useState(false);
  const [confirming, setConfirming] = useState(false);
  /** Kept after the confirmation closes, so that its text stays while it fades out. */
  const [toDelete, setToDelete] = useState<Order | null>(null);
  const [deleting, setDeleting] = useState(false);
  /** Only the answer to the newest request counts; a slower older one must not overwrite it. */
  const requestNumber = useRef(0);
  const contractors = useLiveQuery(() => versdb.defaultOptions.get([CONTRACTOR_LIST, language]), [language]);

  // Once per visit: the orders kept for offline work follow the server (deletions included).
  const [keptSynced, setKeptSynced] = useState(false);
  useEffect(() => {
    refreshKeptOrders()
      .then(() => setKeptSynced(true))
      .catch((error: unknown) => {
        if (!(error instanceof ApiFailure)) console.error(error);
      });
  }, []);

  const load = useCallback(async (query: ListQuery) => {
    const mine = ++requestNumber.current;
    setLoading(true);
    setLoadFailed(false);
    const local = { ...query, status: query.status || undefined };
    try {
      const answer = await pageRequest(query);
      // Orders created on this device and not yet sent are shown first on the first page, flagged.
      const unsent = query.offset === 0 ? (await localOrderList(versdb, local)).filter((row) => row.sent === 0) : [];
      if (mine !== requestNumber.current) return;
      // The rows render as a transition: in slices that yield to input, not one long task (issue 19).
      startTransition(() => {
        const unsentOrders = unsent.map((row) => row.order);
        setOrders([...unsentOrders, ...answer.orders.filter((order) => !unsentOrders.some((u) => u.id === order.id))]);
        setTotal(answer.total + unsent.length);
        setUnsentIds(new Set(unsentOrders.map((order) => order.id)));
        setFromDevice(false);
      });
    } catch (error) {
      if (mine !== requestNumber.current) return;
      if (error instanceof ApiFailure && (error.status === 0 || error.status >= 502)) {
        // No network: the orders kept on this device, found, sorted and paged by the same rules.
        const rows = await localOrderList(versdb, local);
        if (mine !== requestNumber.current) return;
        startTransition(() => {
          setOrders(rows.slice(query.offset, query.offset + query.limit).map((row) => row.order));
          setTotal(rows.length);
          setUnsentIds(new Set(rows.filter((row) => row.sent === 0).map((row) => row.order.id)));
          setFromDevice(true);
        });
      } else {
        setLoadFailed(error instanceof ApiFailure && error.status === 403 ? 'forbidden' : 'failed');
      }
    } finally {
      // In a transition too, so that the progress bar goes with the rows' arrival, not before it.
      if (mine === requestNumber.current) startTransition(() => setLoading(false));
    }
  }, []);

  // An order created on this device and sent by the scheduler in the meantime: the list shows its new state.
  const unsentOrders = useLiveQuery(() => versdb.orders.where('sent').equals(0).count(), [], 0);
  useEffect(() => {
    void load(query);
  }, [load, query, unsentOrders]);

  const contractorText = useMemo(() => {
    const texts = new Map((contractors?.values ?? []).map((v) => [v.value, v.text]));
    return (code: string) => texts.get(code) ?? code;
  }, [contractors]);

  const remove = async (order: Order) => {
    setDeleting(true);
    try {
      await deleteOrder(order.id).catch((error: unknown) => {
        // Already gone on the server (another device deleted it): the aim is reached.
        if (!(error instanceof ApiFailure && error.status === 404)) throw error;
      });
      await forgetLocally(order.id).catch(() => undefined);
      setOrders((current) => (current ?? []).filter((o) => o.id !== order.id));
      setTotal((current) => Math.max(0, current - 1));
      notifications.show('orders.delete.done', 'success', { number: order.number });
      setConfirming(false);
    } catch (error) {
      if (!(error instanceof ApiFailure) || (HANDLED as readonly number[]).includes(error.status)) {
        notifications.show('common.deleteError', 'error');
      }
    } finally {
      setDeleting(false);
    }
  };

  const visible = orders ?? [];
  const lastPage = Math.max(0, Math.ceil(total / query.limit) - 1);
  const shownPage = Math.min(Math.floor(query.offset / query.limit), lastPage);
  // A list that shrank under the shown page (a deletion, another filter) goes to its last page.
  useEffect(() => {
    if (orders !== null && !loading && query.offset > 0 && orders.length === 0 && total > 0)
      setView((current) => ({ ...current, offset: lastPage * current.limit }));
  }, [orders, loading, total, lastPage, query.offset]);
  const pagination = {
    count: total,
    page: shownPage,
    rowsPerPage: query.limit,
    onPageChange: (page: number) => setView((current) => ({ ...current, offset: page * current.limit })),
    onRowsPerPageChange: (limit: number) => setView((current) => ({ ...current, limit, offset: 0 })),
  };
  const resetPage = () => setView((current) => ({ ...current, offset: 0 }));
  const sortBy = (column: OrderSort) =>
    setView((current) => ({
      ...current,
      sort: column,
      direction: current.sort === column && current.direction === 'asc' ? 'desc' : 'asc',
      offset: 0,
    }));

  const open = (order: Order) => navigate(editPath(order));
  const openByKey = (event: KeyboardEvent, order: Order) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open(order);
    }
  };

  const isEmpty = (order: Order, column: Column) =>
    (column === 'contractor' && !order.contractor) ||
    (column === 'externalOrderNumber' && !order.externalOrderNumber) ||
    (column === 'importedDate' && !formatDate(order.importedDate, language));

  const cell = (order: Order, column: Column) => {
    switch (column) {
      case 'contractor':
        return contractorText(order.contractor);
      case 'externalOrderNumber':
        return order.externalOrderNumber;
      case 'importedDate':
        return formatDate(order.importedDate, language);
      case 'maintenanceNumber':
        return (
          <Box component="span" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
            {formatVehicleNumber(order.maintenanceNumber)}
          </Box>
        );
      case 'number':
        return (
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {order.number}
          </Box>
        );
      case 'status': {
        const status = isOrderStatus(order.status) ? t(`orders.status.${displayStatus(order.status)}`) : order.status;
        if (!unsentIds.has(order.id)) return status;
        return (
          <Box
            component="span"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
            data-testid="order-unsent"
          >
            <CloudOffIcon fontSize="small" color="warning" titleAccess={t('orders.list.unsent')} />
            {status}
          </Box>
        );
      }
      case 'type':
        return (
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, verticalAlign: 'middle' }}>
            <OrderTypeIcon type={order.type as OrderType} />
            {t(`orders.type.${order.type}`)}
          </Box>
        );
    }
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 1400 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <TextField
          label={t('orders.list.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            resetPage();
          }}
          autoComplete="off"
          sx={{ flex: '1 1 280px', maxWidth: { sm: 520 } }}
          slotProps={{
            htmlInput: {
              'data-testid': 'orders-search',
              maxLength: SEARCH_MAX_LENGTH,
              inputMode: 'numeric',
              spellCheck: false,
            },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
              // A number read by the camera searches as if typed, in its printed form.
              endAdornment: (
                <ScanButton
                  field={t('orders.list.search')}
                  testId="orders-search-scan"
                  onNumber={(digits) => {
                    setSearch(formatVehicleNumber(digits));
                    resetPage();
                  }}
                />
              ),
            },
          }}
        />
        <TextField
          select
          label={t('orders.list.statusFilter')}
          value={query.status}
          onChange={(e) => chooseStatus(e.target.value as ListQuery['status'])}
          sx={{ flex: '0 1 220px', minWidth: 180 }}
          slotProps={{
            select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'orders-status-filter' } as object },
            inputLabel: { shrink: true },
          }}
        >
          {STATUS_FILTER_CHOICES.map((choice) => (
            <MenuItem key={choice} value={choice} data-testid={`orders-status-${choice || 'all'}`}>
              {choice === '' || choice === 'open' || choice === 'done'
                ? t(`orders.list.filter.${choice || 'all'}`)
                : t(`orders.status.${choice}`)}
            </MenuItem>
          ))}
        </TextField>
        {olderThanDays !== undefined && (
          <Chip
            label={t('orders.list.olderThan', { days: olderThanDays })}
            onDelete={clearOlderThan}
            data-testid="orders-older-than"
            data-days={olderThanDays}
            sx={{ alignSelf: 'center', minHeight: 40 }}
          />
        )}
        <Box sx={{ flexGrow: 1, display: { xs: 'none', sm: 'block' } }} />
        {mayWrite && (
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => navigate('/orders/add')}
            data-testid="order-new"
            sx={{ minHeight: 56, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
          >
            {t('orders.list.new')}
          </Button>
        )}
      </Box>

      {fromDevice && (
        <Alert severity="info" data-testid="orders-from-device">
          {t('orders.list.fromDevice')}
        </Alert>
      )}
      <LoadFailure
        kind={loadFailed}
        testId="orders"
        message={t('orders.list.loadFailed')}
        retryLabel={t('orders.list.retry')}
        onRetry={() => void load(query)}
      />

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-label={t('app.loading')} />}</Box>
        <TableContainer>
          <Table
            data-testid="orders-table"
            data-kept={keptSynced ? 'synced' : 'pending'}
            aria-label={t('routes.orders')}
            sx={stackedRows}
          >
            <TableHead>
              <TableRow>
                {COLUMNS.map((column) => (
                  <TableCell key={column} sortDirection={query.sort === column ? query.direction : false}>
                    <TableSortLabel
                      active={query.sort === column}
                      direction={query.sort === column ? query.direction : 'asc'}
                      onClick={() => sortBy(column)}
                      data-testid={`orders-sort-${column}`}
                      // The arrow takes room only on the sorted column: seven headings fit a tablet beside the menu.
                      sx={query.sort === column ? undefined : { '& .MuiTableSortLabel-icon': { display: 'none' } }}
                    >
                      {t(`orders.columns.${column}`)}
                    </TableSortLabel>
                  </TableCell>
                ))}
                {mayWrite && (
                  <TableCell>
                    <Box component="span" sx={visuallyHidden}>
                      {t('common.delete')}
                    </Box>
                  </TableCell>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {orders !== null && visible.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length + (mayWrite ? 1 : 0)}>
                    <Typography color="text.secondary" sx={{ py: 2 }} data-testid="orders-empty">
                      {query.search || query.status || query.olderThanDays
                        ? t('orders.list.noMatch')
                        : t('orders.list.empty')}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
              {visible.map((order) => (
                <TableRow
                  key={order.id}
                  hover
                  tabIndex={0}
                  onClick={() => open(order)}
                  onKeyDown={(e) => openByKey(e, order)}
                  sx={{ cursor: 'pointer' }}
                  data-testid={`order-row-${order.number || order.id}`}
                >
                  {COLUMNS.map((column) => (
                    <TableCell
                      key={column}
                      data-column={column}
                      data-label={t(`orders.columns.${column}`)}
                      data-empty={isEmpty(order, column) || undefined}
                    >
                      {cell(order, column)}
                    </TableCell>
                  ))}
                  {mayWrite && (
                    <TableCell align="right" className="actions" sx={{ py: 0.5, width: 72 }}>
                      <Tooltip title={t('common.delete')}>
                        <IconButton
                          size="large"
                          color="error"
                          onClick={(e) => {
                            e.stopPropagation();
                            setToDelete(order);
                            setConfirming(true);
                          }}
                          onKeyDown={(e) => e.stopPropagation()}
                          aria-label={t('orders.delete.label', { number: order.number })}
                          data-testid={`order-delete-${order.number}`}
                        >
                          <DeleteIcon />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {/* Shown once the list has answered: drawn before, the rows coming in pushed it down (a layout shift, CLS 0.06
            in Lighthouse's phone run). The other lists do the same. */}
        {orders !== null && (
          <DataTablePagination
            {...pagination}
            sizes={ORDER_PAGE_SIZES}
            allowAll={false}
            data-testid="orders-pagination"
            selectTestId="orders-rows-per-page"
          />
        )}
      </Paper>

      <ConfirmDialog
        open={confirming}
        title={t('orders.delete.title')}
        message={
          toDelete
            ? t('orders.delete.question', {
                number: toDelete.number,
                vehicle: formatVehicleNumber(toDelete.maintenanceNumber),
              })
            : ''
        }
        confirmLabel={t('common.delete')}
        danger
        busy={deleting}
        onConfirm={() => {
          if (toDelete) void remove(toDelete);
        }}
        onCancel={() => !deleting && setConfirming(false)}
      />
    </Stack>
  );
}
