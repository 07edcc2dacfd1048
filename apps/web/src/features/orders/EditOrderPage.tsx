import {
  type Language,
  type Order,
  type OrderStatus,
  type OrderType,
  type TabDef,
  type Values,
  type Write,
  displayStatus,
  filterMissing,
  formatVehicleNumber,
  isReadOnlyStatus,
  layoutTab,
  locateKey,
  orderTabs,
  perEntrySummary,
  progressColour,
  recordedSubVehicles,
  resolveKey,
  SENT_STATES,
  tabProgress,
  takeOverWrites,
  valueOf,
} from '@vers/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import EditNoteIcon from '@mui/icons-material/EditNote';
import LockIcon from '@mui/icons-material/Lock';
import SyncIcon from '@mui/icons-material/Sync';
import UndoIcon from '@mui/icons-material/Undo';
import DescriptionIcon from '@mui/icons-material/DescriptionOutlined';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveQuery } from 'dexie-react-hooks';
import { Navigate, useNavigate, useParams } from 'react-router';
import { loadFeatureCatalogue } from '../../i18n/index.ts';
import { ConfirmDialog } from '../../app/components/ConfirmDialog.tsx';
import { notifications } from '../../app/notifications.ts';
import { useSession } from '../../app/session.ts';
import { undoLastChange } from '../../offline/order-results.ts';
import { type EditContext, type EditProblem, editProblems, recordEdit } from '../../offline/record-edit.ts';
import { changeStatus } from '../../offline/status-change.ts';
import { syncScheduler, useSyncStatus } from '../../offline/scheduler.ts';
import { versdb } from '../../offline/versdb.ts';
import { isNotApplied } from '../unsent/unsent-view.ts';
import { OrderTypeIcon } from './OrdersPage.tsx';
import { StatusDialog } from './StatusDialog.tsx';
import { type EditorActions, EntryPickers, TabContent, useEntryTitle } from './editor/TabContent.tsx';
import { fieldLabelKey } from './editor/labels.ts';
import { ENTRY_SEPARATOR, splitTabName } from './editor/tab-title.ts';
import { useOrder } from './editor/useOrder.ts';

/** On a phone the editor's actions show their icons only (named for screen readers), so the fields stay in view. */
const actionSx = { minWidth: 48, minHeight: 48, '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } } as const;

/**
 * The documents screen of the order; a wagon's route carries its sub-vehicles
 * (docs/requirements/administration.md#documents-screen).
 */
function documentsPath(type: OrderType, orderId: string, orderType: string, values: Values): string {
  const base = `/assets/${orderId}/${orderType}`;
  return type === 'WAGON' ? `${base}/${recordedSubVehicles(type, values)}` : base;
}

function ActionLabel({ text }: { text: string }) {
  return (
    <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
      {text}
    </Box>
  );
}

/**
 * The order's status line: type icon, wagon or wheelset number, status and its icon
 * (docs/requirements/orders.md#editor-toolbar).
 */
function OrderFooter({ order, status }: { order: Order; status: OrderStatus }) {
  const { t } = useTranslation();
  const done = isReadOnlyStatus(status);
  return (
    <Paper
      data-testid="order-footer"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        flexWrap: 'wrap',
        px: 2,
        py: 1,
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
      }}
    >
      <OrderTypeIcon type={order.type as OrderType} />
      <Typography sx={{ fontWeight: 600 }}>{formatVehicleNumber(order.maintenanceNumber)}</Typography>
      <Typography color="text.secondary">{order.number}</Typography>
      <Box sx={{ flexGrow: 1 }} />
      {done ? <CheckCircleIcon color="success" /> : <EditNoteIcon color="primary" />}
      <Typography data-testid="order-status">{t(`orders.status.${status}`)}</Typography>
    </Paper>
  );
}

function ProgressBar({ percent, testId, label }: { percent: number; testId: string; label: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <LinearProgress
        aria-label={label}
        variant="determinate"
        value={percent}
        color={progressColour(percent)}
        sx={{ flexGrow: 1, height: 8, borderRadius: 4 }}
        data-testid={testId}
        data-percent={percent}
      />
      <Typography variant="caption" sx={{ minWidth: 36, textAlign: 'right' }}>
        {percent} %
      </Typography>
    </Box>
  );
}

/** The order's tabs with their progress (docs/requirements/orders.md#order-editor). */
function TabList(props: {
  type: OrderType;
  tabs: readonly TabDef[];
  values: Values;
  active: string;
  onSelect: (tabName: string) => void;
}) {
  const { t } = useTranslation();
  const title = useEntryTitle();
  return (
    <Paper
      component="nav"
      aria-label={t(`catalogue.drawerTitle.${props.type}`)}
      sx={{
        width: { xs: '100%', md: 260 },
        flexShrink: 0,
        alignSelf: 'flex-start',
        position: { md: 'sticky' },
        top: { md: 80 },
      }}
      data-testid="order-tabs"
    >
      <Typography variant="overline" component="h2" sx={{ px: 2, pt: 1.5, display: { xs: 'none', md: 'block' } }}>
        {t(`catalogue.drawerTitle.${props.type}`)}
      </Typography>
      {/* Below the tablet width the tabs scroll sideways in one row, so the fields start near the top. */}
      {/* A div, not a ul: its children are the tab buttons and their entries' buttons, not list items. */}
      <List
        component="div"
        dense
        disablePadding
        sx={{ display: { xs: 'flex', md: 'block' }, overflowX: { xs: 'auto', md: 'visible' } }}
      >
        {props.tabs.map((tab) => {
          const progress = tabProgress(props.type, tab, props.values);
          const entries = perEntrySummary(props.type, tab, props.values)?.entries ?? [];
          return (
            <Box key={tab.id} sx={{ display: { xs: 'contents', md: 'block' } }}>
              <ListItemButton
                selected={props.active === tab.id}
                onClick={() => props.onSelect(tab.id)}
                data-testid={`order-tab-${tab.id}`}
                sx={{ display: 'block', minHeight: 56, flexShrink: 0, minWidth: { xs: 150, md: 'auto' } }}
              >
                <ListItemText primary={t(`catalogue.tab.${props.type}.${tab.id}`)} />
                <ProgressBar
                  percent={progress.percent}
                  testId={`progress-${tab.id}`}
                  label={t('orders.editor.progress', { tab: t(`catalogue.tab.${props.type}.${tab.id}`) })}
                />
              </ListItemButton>
              {tab.perEntry &&
                entries.map(({ entry }) => {
                  const name = `${tab.id}${ENTRY_SEPARATOR}${entry.value}`;
                  return (
                    <ListItemButton
                      key={name}
                      selected={props.active === name}
                      onClick={() => props.onSelect(name)}
                      sx={{ pl: { xs: 2, md: 4 }, minHeight: 48, flexShrink: 0, whiteSpace: 'nowrap' }}
                      data-testid={`order-tab-${name}`}
                    >
                      <ListItemText primary={title(tab.perEntry!.differentiator, entry.value)} />
                    </ListItemButton>
                  );
                })}
            </Box>
          );
        })}
      </List>
    </Paper>
  );
}

/** The summary of a repeated tab: the incoming and outgoing wheelsets side by side, with add and remove. */
function EntrySummary(props: {
  type: OrderType;
  tab: TabDef;
  actions: EditorActions;
  onOpen: (tabName: string) => void;
}) {
  const { t } = useTranslation();
  const title = useEntryTitle();
  const view = perEntrySummary(props.type, props.tab, props.actions.values);
  if (!view) return null;
  const summaryField = view.collection.summaryField;
  const summaryOf = (scope: string) =>
    summaryField ? valueOf(props.actions.values[`${scope}.${summaryField}`]) : null;
  // Positions (numbers) are added lowest first without asking (docs/requirements/orders.md#differentiator-entries);
  // other values are picked.
  const values = view.collection.values;
  const numbered = Array.isArray(values) && (values as readonly string[]).every((v) => /^\d+$/.test(v));
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }} data-testid="entry-summary">
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
        {(['in', 'out'] as const).map((side) => (
          <Box key={side}>
            <Typography variant="h6" component="h2">
              {t(`orders.editor.entries.${side}`, {
                entries: t(`catalogue.tab.${props.type}.${props.tab.id}`),
              })}
            </Typography>
            <List dense data-testid={`wheelsets-${side}`}>
              {view.entries
                .filter((entry) => entry.entry.exists[side])
                .map((entry) => {
                  const summary = summaryOf(entry.scope[side]);
                  return (
                    <ListItem key={entry.entry.value} disablePadding>
                      <ListItemButton
                        onClick={() => props.onOpen(`${props.tab.id}${ENTRY_SEPARATOR}${entry.entry.value}`)}
                      >
                        <ListItemText
                          primary={title(view.collection.differentiator, entry.entry.value)}
                          secondary={
                            summaryField
                              ? typeof summary === 'string' && summary !== ''
                                ? formatVehicleNumber(summary)
                                : '—'
                              : undefined
                          }
                        />
                      </ListItemButton>
                    </ListItem>
                  );
                })}
            </List>
          </Box>
        ))}
      </Box>
      <EntryPickers view={view} actions={props.actions} addLowest={numbered} />
    </Paper>
  );
}

/**
 * Changes to this order that the server did not apply (refused, order unknown, order done): never dropped
 * silently — the editor says how many, and the profile page lists each with its reason.
 */
function NotAppliedNotice({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Through the [sent+orderId] index: only waiting, unknown-order and refused rows are read, never the whole
  // order (a live query re-runs after every save; 5,000 rows each time slowed every edit by a tenth of a second).
  const count = useLiveQuery(
    () =>
      versdb.orderResults
        .where('[sent+orderId]')
        .anyOf([SENT_STATES.UNSENT, SENT_STATES.ORDER_UNKNOWN, SENT_STATES.REFUSED].map((sent) => [sent, orderId]))
        .filter(isNotApplied)
        .count(),
    [orderId],
    0,
  );
  if (count === 0) return null;
  return (
    <Alert
      severity="error"
      data-testid="order-not-applied"
      data-count={count}
      action={
        <Button color="inherit" onClick={() => void navigate('/profile')} data-testid="order-not-applied-show">
          {t('orders.editor.notApplied.show')}
        </Button>
      }
    >
      {t('orders.editor.notApplied.text', { count })}
    </Alert>
  );
}

/**
 * The order editor (docs/requirements/orders.md#order-editor): the order's tabs with their progress, the open tab's
 * chapters with incoming and outgoing values side by side, take-over, undo and the status dialog. Every change is
 * stored in IndexedDB first and shown at once; the scheduler sends it.
 */
export default function EditOrderPage() {
  const { t, i18n } = useTranslation();
  const { orderId = '', orderType = '', tabName } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const load = useOrder(orderId);
  const sync = useSyncStatus();
  const [statusDialog, setStatusDialog] = useState(false);
  const [takeOver, setTakeOver] = useState(false);
  const [busy, setBusy] = useState(false);

  // The field catalogue's labels load with the editor, not with the login screen.
  const [labels, setLabels] = useState(false);
  useEffect(() => {
    void loadFeatureCatalogue('catalogue').then(() => setLabels(true));
  }, []);

  // The open order is exchanged every 10 s and at once on opening; leaving the editor exchanges at once
  // (docs/requirements/sync.md#scheduler).
  useEffect(() => {
    if (!orderId) return;
    syncScheduler.setOpenOrder(orderId);
    void syncScheduler.exchangeNow();
    return () => {
      syncScheduler.setOpenOrder(null);
      void syncScheduler.exchangeNow();
    };
  }, [orderId]);

  const ready = load.kind === 'ready' ? load : null;
  const type = (ready?.order.type ?? orderType.toUpperCase()) as OrderType;
  const values: Values = useMemo(() => ready?.state.values ?? {}, [ready?.state.values]);
  const tabs = orderTabs(type);
  const { tabId, entry } = splitTabName(tabName);
  const tab = tabs.find((candidate) => candidate.id === tabId);
  // A tab with a filter (the load limit grid by its type) filters unless the user switched it off, or the
  // incoming value it filters by is still missing (then the editor says so and shows everything).
  const [filterOff, setFilterOff] = useState(false);
  const missingFilter = tab ? filterMissing(type, tab, values) : false;
  const unfiltered = filterOff || missingFilter;
  const view = useMemo(
    () => (tab ? layoutTab(type, tab, values, entry, { unfiltered }) : null),
    [tab, type, values, entry, unfiltered],
  );

  // One stable write function for the field rows (they re-render only when their own values change); it calls
  // the newest closure, which knows the current values.
  const latestWrite = useRef<(writes: Write[], context?: EditContext) => EditProblem[]>(() => []);
  const stableWrite = useCallback((writes: Write[], context?: EditContext) => latestWrite.current(writes, context), []);
  const entryTitle = useEntryTitle();

  // A field to bring into view once its tab is shown (after an undo or a jump to a conflict). Its row takes the
  // focus, not its input: an input would open a tablet's keyboard, and keep its old text while focused.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  useEffect(() => {
    if (!focusKey) return;
    const input = document.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"]`);
    const row = input?.closest<HTMLElement>('[data-field-row]');
    if (!row) return;
    row.scrollIntoView({ block: 'center' });
    // Marked while it holds the focus, so the outline shows where the editor went (also after a tap).
    row.dataset.movedHere = 'true';
    row.addEventListener('blur', () => delete row.dataset.movedHere, { once: true });
    row.focus({ preventScroll: true });
    setFocusKey(null);
  });

  // The server refused a change as not fitting its field: name the field and its tab
  // (docs/requirements/validation.md#server-value-checks).
  const refused = useRef<string | null>(null);
  useEffect(() => {
    const key = sync.incompatibleKey;
    if (!key || key === refused.current) return;
    refused.current = key;
    const resolved = resolveKey(type, key);
    notifications.show('errors.INCOMPATIBLE_TYPE', 'error', {
      field: resolved?.field ? t(fieldLabelKey(resolved.field)) : key,
      tab: resolved ? t(`catalogue.tab.${type}.${resolved.tab.id}`) : '',
    });
  }, [sync.incompatibleKey, type, t]);

  if (load.kind === 'missing') return <Alert severity="warning">{t('orders.edit.notFound')}</Alert>;
  if (!ready || !session || !labels) return null;
  const firstTab = tabs[0];
  if (!tab && firstTab) return <Navigate to={`/orders/${orderType}/${orderId}/${firstTab.id}`} replace />;

  const status = displayStatus((ready.state.status ?? ready.order.status) as OrderStatus);
  const readOnly = isReadOnlyStatus(status);
  const modifier = session.workshop?.addLastModifier ? session.lastName : undefined;
  const language = (i18n.resolvedLanguage ?? 'de') as Language;

  /**
   * Checks the writes against the field catalogue (the server's rule) and answers what does not fit, storing nothing;
   * else stores them and their recalculations (docs/requirements/validation.md#calculations).
   */
  const write = (writes: Write[], context: EditContext = {}): EditProblem[] => {
    if (readOnly || writes.length === 0) return [];
    const problems = editProblems(type, writes);
    if (problems.length > 0) return problems;
    recordEdit(versdb, { orderId, type, writes, rows: ready.rows, values, modifier, ...context })
      .then(({ missing }) => {
        for (const { field, parameters } of missing) {
          notifications.show('orders.editor.missingParameters', 'warning', {
            field: t(`catalogue.field.${field}`),
            parameters: parameters.join(', '),
          });
        }
      })
      .catch((error: unknown) => {
        console.error('change not stored', error);
        notifications.show('common.saveError', 'error');
      });
    return [];
  };
  latestWrite.current = write;
  const actions: EditorActions = { orderId, values, conflicts: ready.conflicts, readOnly, write: stableWrite };

  /** Where a change's field is: "Brake › Brake weight, outgoing", and the tab route that shows it. */
  const placeOf = (key: string) => {
    const location = locateKey(type, key, values);
    if (!location) return null;
    const parts = [t(`catalogue.tab.${type}.${location.tab.id}`)];
    if (location.entry && location.tab.perEntry)
      parts.push(entryTitle(location.tab.perEntry.differentiator, location.entry));
    const field = location.field ? t(fieldLabelKey(location.field)) : '';
    return {
      text: `${[...parts, field].filter(Boolean).join(' › ')}, ${t(`orders.editor.side.${location.side}`)}`,
      tabName: location.entry ? `${location.tab.id}${ENTRY_SEPARATOR}${location.entry}` : location.tab.id,
    };
  };

  /** Brings a field into view: its tab, then the field itself. */
  const showField = (key: string) => {
    const place = placeOf(key);
    const path = place && `/orders/${orderType}/${orderId}/${place.tabName}`;
    // The address as it is now, not as this render saw it: a tab chosen a moment ago may not have rendered yet.
    if (path && window.location.pathname !== path) void navigate(path);
    setFocusKey(key);
  };

  const undo = async () => {
    const undone = await undoLastChange(versdb, orderId);
    if (!undone) return notifications.show('orders.editor.nothingToUndo', 'info');
    const place = placeOf(undone.change.key);
    notifications.show('orders.editor.undoneField', 'success', { place: place?.text ?? undone.change.key });
    showField(undone.change.key);
  };
  const firstConflict = [...ready.conflicts.keys()][0];

  const onStatus = async (next: OrderStatus) => {
    setBusy(true);
    try {
      const outcome = await changeStatus(versdb, orderId, next);
      if (outcome === 'refused') return notifications.show('orders.statusDialog.failed', 'error');
      notifications.show(
        outcome === 'updated' ? 'orders.statusDialog.updated' : 'orders.editor.statusSavedLocally',
        outcome === 'updated' ? 'success' : 'info',
      );
      setStatusDialog(false);
      if (outcome === 'updated') await syncScheduler.exchangeNow();
    } finally {
      setBusy(false);
    }
  };

  const open = (name: string) => navigate(`/orders/${orderType}/${orderId}/${name}`);
  const showSummary = tab?.perEntry && !entry;
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}
      data-testid="edit-order"
      lang={language}
    >
      <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', md: 'row' } }}>
        <TabList type={type} tabs={tabs} values={values} active={tabName ?? ''} onSelect={open} />
        <Box sx={{ flexGrow: 1, minWidth: 0, display: 'grid', gap: 2, alignContent: 'start' }}>
          <Paper sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', px: 2, py: 1 }}>
            <Button
              startIcon={<PhotoCameraIcon />}
              onClick={() => void navigate(`/camera/${orderType}/${orderId}/${tabName ?? ''}`)}
              data-testid="open-camera"
              aria-label={t('routes.camera')}
              sx={actionSx}
            >
              <ActionLabel text={t('routes.camera')} />
            </Button>
            <Button
              startIcon={<PhotoLibraryIcon />}
              onClick={() => void navigate(`/images/${orderId}`)}
              data-testid="open-images"
              aria-label={t('routes.images')}
              sx={actionSx}
            >
              <ActionLabel text={t('routes.images')} />
            </Button>
            <Button
              startIcon={<DescriptionIcon />}
              onClick={() => void navigate(documentsPath(type, orderId ?? '', orderType, values))}
              data-testid="open-documents"
              aria-label={t('routes.assets')}
              sx={actionSx}
            >
              <ActionLabel text={t('routes.assets')} />
            </Button>
            <Box sx={{ flexGrow: 1 }} />
            <Button
              startIcon={<SyncIcon />}
              onClick={() => void syncScheduler.exchangeNow()}
              data-testid="sync-now"
              aria-label={t('orders.editor.syncNow')}
              sx={actionSx}
            >
              <ActionLabel text={t('orders.editor.syncNow')} />
            </Button>
            {/* A disabled button hears no pointer: the wrapper shows why, also at a touch. */}
            <Tooltip
              title={!readOnly && !ready.undoable ? t('orders.editor.nothingOwnToUndo') : ''}
              enterTouchDelay={0}
              describeChild
            >
              <span data-testid="undo-wrapper">
                <Button
                  startIcon={<UndoIcon />}
                  disabled={readOnly || !ready.undoable}
                  onClick={() => void undo()}
                  data-testid="undo"
                  aria-label={t('orders.editor.undo')}
                  sx={actionSx}
                >
                  <ActionLabel text={t('orders.editor.undo')} />
                </Button>
              </span>
            </Tooltip>
            {!showSummary && (
              <Button
                startIcon={<ContentCopyIcon />}
                disabled={readOnly}
                onClick={() => setTakeOver(true)}
                data-testid="take-over"
                aria-label={t('orders.editor.takeOver')}
                sx={actionSx}
              >
                <ActionLabel text={t('orders.editor.takeOver')} />
              </Button>
            )}
            <Button variant="contained" onClick={() => setStatusDialog(true)} data-testid="status-change">
              {t('orders.statusDialog.title')}
            </Button>
          </Paper>
          {tab?.filter && (
            <Paper sx={{ px: 2, py: 1, display: 'grid', gap: 1 }}>
              <FormControlLabel
                control={
                  <Switch
                    checked={!filterOff}
                    onChange={(event) => setFilterOff(!event.target.checked)}
                    slotProps={{ input: { 'data-testid': 'tab-filter' } as object }}
                  />
                }
                label={t('orders.editor.gridFilter')}
              />
              {!filterOff && missingFilter && (
                <Alert severity="warning" data-testid="tab-filter-missing">
                  {t(tab.filter.message)}
                </Alert>
              )}
            </Paper>
          )}
          {readOnly && (
            <Alert severity="info" icon={<LockIcon />} data-testid="order-read-only">
              {t('orders.edit.readOnly')}
            </Alert>
          )}
          <NotAppliedNotice orderId={orderId} />
          {firstConflict && (
            <Alert
              severity="warning"
              data-testid="order-conflicts"
              data-count={ready.conflicts.size}
              action={
                <Button color="inherit" onClick={() => showField(firstConflict)} data-testid="order-conflicts-show">
                  {t('orders.editor.conflict.show')}
                </Button>
              }
            >
              {t('orders.editor.conflict.summary', { count: ready.conflicts.size })}
            </Alert>
          )}
          {showSummary && tab ? (
            <EntrySummary type={type} tab={tab} actions={actions} onOpen={open} />
          ) : view && view.chapters.length > 0 ? (
            <TabContent view={view} actions={actions} />
          ) : (
            <Alert severity="info">{t('orders.editor.nothingToShow')}</Alert>
          )}
        </Box>
      </Box>
      <OrderFooter order={ready.order} status={status} />
      <ConfirmDialog
        open={takeOver}
        title={t('orders.editor.takeOver')}
        message={t('orders.editor.takeOverWarning')}
        onCancel={() => setTakeOver(false)}
        onConfirm={() => {
          setTakeOver(false);
          if (view) write(takeOverWrites(view, values));
        }}
      />
      {statusDialog && (
        <StatusDialog
          current={status}
          orderType={type}
          roles={session.roles}
          busy={busy}
          onCancel={() => setStatusDialog(false)}
          onSave={(next) => void onStatus(next)}
        />
      )}
    </Box>
  );
}
