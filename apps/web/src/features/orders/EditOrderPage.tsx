import {
  type Language,
  type OrderStatus,
  SIDES,
  allRows,
  type OrderType,
  type Values,
  displayStatus,
  filterMissing,
  isReadOnlyStatus,
  layoutTab,
  mayWriteOrders,
  orderTabs,
  recordedSubVehicles,
  resolveKey,
  takeOverWrites,
} from '@vers/domain';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
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
import Paper from '@mui/material/Paper';
import { Suspense, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { lazyChunk } from '../../app/chunks.ts';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { loadFeatureCatalogue } from '../../i18n/index.ts';
import { ConfirmDialog } from '../../app/components/ConfirmDialog.tsx';
import { notifications } from '../../app/notifications.ts';
import { useSession } from '../../app/session.ts';
import { undoLastChange } from '../../offline/order-results.ts';
import { changeStatus } from '../../offline/status-change.ts';
import { syncScheduler, useSyncStatusOf } from '../../offline/scheduler.ts';
import { versdb } from '../../offline/versdb.ts';
import { EntrySummary } from './editor/EntrySummary.tsx';
import { NotAppliedNotice } from './editor/NotAppliedNotice.tsx';
import { fieldPlace, usePlaceText } from './editor/field-place.ts';
import { OrderFooter } from './editor/OrderFooter.tsx';
import { useCalculationWarnings } from './editor/useCalculationWarnings.ts';
import { useEditorWrite } from './editor/useEditorWrite.ts';
import { useFieldFocus } from './editor/useFieldFocus.ts';
import { TabList } from './editor/TabList.tsx';
import { type EditorActions, TabContent } from './editor/TabContent.tsx';
import { fieldLabelKey } from './editor/labels.ts';
import { splitTabName } from './editor/tab-title.ts';
import { useOrder } from './editor/useOrder.ts';

/** On a phone the editor's actions show their icons only (named for screen readers), so the fields stay in view. */
// The status dialog, with its sign-off (issue 21), is its own chunk, asked for once the editor is shown (and kept by
// the service worker): it opens at once, offline too.
const loadStatusDialog = () => import('./StatusDialog.tsx');
const StatusDialog = lazyChunk(() => loadStatusDialog().then((module) => ({ default: module.StatusDialog })));
// A wagon's wheelset position (swap, turn, dismount, history) in its own chunk, fetched as the editor opens: the
// editor's first screen does not wait for it (bench/budgets.json EditOrder).
const loadWheelsetPosition = () => import('./editor/WheelsetPosition.tsx');
const WheelsetPosition = lazyChunk(() =>
  loadWheelsetPosition().then((module) => ({ default: module.WheelsetPosition })),
);

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
 * The editor's actions (docs/requirements/orders.md#editor-toolbar). Its own component with plain props, so an edit,
 * which changes the order's values, does not render its buttons again.
 */
const EditorToolbar = memo(function EditorToolbar({
  cameraPath,
  imagesPath,
  documentsPath,
  mayWrite,
  readOnly,
  canUndo,
  canTakeOver,
  onUndo,
  onTakeOver,
  onStatus,
}: {
  cameraPath: string;
  imagesPath: string;
  documentsPath: string;
  /** The roles may change orders at all; without, the actions that only change (camera, undo, take-over) go. */
  mayWrite: boolean;
  readOnly: boolean;
  canUndo: boolean;
  canTakeOver: boolean;
  onUndo: () => void;
  onTakeOver: () => void;
  onStatus: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Paper sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', px: 2, py: 1 }}>
      {mayWrite && (
        <Button
          startIcon={<PhotoCameraIcon />}
          onClick={() => void navigate(cameraPath)}
          data-testid="open-camera"
          aria-label={t('routes.camera')}
          sx={actionSx}
        >
          <ActionLabel text={t('routes.camera')} />
        </Button>
      )}
      <Button
        startIcon={<PhotoLibraryIcon />}
        onClick={() => void navigate(imagesPath)}
        data-testid="open-images"
        aria-label={t('routes.images')}
        sx={actionSx}
      >
        <ActionLabel text={t('routes.images')} />
      </Button>
      <Button
        startIcon={<DescriptionIcon />}
        onClick={() => void navigate(documentsPath)}
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
      {mayWrite && (
        <Tooltip
          title={!readOnly && !canUndo ? t('orders.editor.nothingOwnToUndo') : ''}
          enterTouchDelay={0}
          describeChild
        >
          <span data-testid="undo-wrapper">
            <Button
              startIcon={<UndoIcon />}
              disabled={readOnly || !canUndo}
              onClick={onUndo}
              data-testid="undo"
              aria-label={t('orders.editor.undo')}
              sx={actionSx}
            >
              <ActionLabel text={t('orders.editor.undo')} />
            </Button>
          </span>
        </Tooltip>
      )}
      {mayWrite && canTakeOver && (
        <Button
          startIcon={<ContentCopyIcon />}
          disabled={readOnly}
          onClick={onTakeOver}
          data-testid="take-over"
          aria-label={t('orders.editor.takeOver')}
          sx={actionSx}
        >
          <ActionLabel text={t('orders.editor.takeOver')} />
        </Button>
      )}
      <Button variant="contained" onClick={onStatus} data-testid="status-change">
        {t('orders.statusDialog.title')}
      </Button>
    </Paper>
  );
});

/** A callback of stable identity that always calls the latest `fn` (for memoised children). */
function useLatest<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  const latest = useRef(fn);
  latest.current = fn;
  return useCallback((...args: A) => latest.current(...args), []);
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
  const incompatibleKey = useSyncStatusOf('incompatibleKey');
  const online = useSyncStatusOf('online');
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
  // The quality manager reads orders only: every input shows its value and none changes it (the server refuses it).
  const mayWrite = mayWriteOrders(session?.roles ?? []);
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

  const editorWrite = useEditorWrite(
    ready && session
      ? {
          orderId,
          type,
          fold: ready.fold,
          values,
          readOnly:
            !mayWrite || isReadOnlyStatus(displayStatus((ready.state.status ?? ready.order.status) as OrderStatus)),
          modifier: session.workshop?.addLastModifier ? session.lastName : undefined,
        }
      : null,
  );
  // A calculation's missing inputs are told when the user leaves its group (a field, tab or entry outside it).
  const showSummary = tab?.perEntry && !entry;
  const write = useCalculationWarnings(
    type,
    values,
    editorWrite,
    () =>
      !view || showSummary
        ? []
        : allRows(view).flatMap((row) => SIDES.flatMap((side) => (row[side] ? [row[side].key] : []))),
    tabName ?? '',
  );
  // User Timing: the editor shows a fold of this many rows (bench/src/browser-orders.ts waits for it after an edit).
  const shownFold = ready?.fold;
  useEffect(() => {
    if (shownFold) performance.mark('vers:order-shown', { detail: { rows: shownFold.activities.length } });
  }, [shownFold]);
  const focusField = useFieldFocus();
  const placeText = usePlaceText();

  // The server refused a change as not fitting its field: name the field and its tab
  // (docs/requirements/validation.md#server-value-checks).
  const refused = useRef<string | null>(null);
  useEffect(() => {
    const key = incompatibleKey;
    if (!key || key === refused.current) return;
    refused.current = key;
    const resolved = resolveKey(type, key);
    notifications.show('errors.INCOMPATIBLE_TYPE', 'error', {
      field: resolved?.field ? t(fieldLabelKey(resolved.field)) : key,
      tab: resolved ? t(`catalogue.tab.${type}.${resolved.tab.id}`) : '',
    });
  }, [incompatibleKey, type, t]);

  /** Brings a field into view: its tab, then the field itself. */
  const showField = (key: string) => {
    const place = fieldPlace(type, key, values);
    const path = place && `/orders/${orderType}/${orderId}/${place.tabName}`;
    // The address as it is now, not as this render saw it: a tab chosen a moment ago may not have rendered yet.
    if (path && window.location.pathname !== path) void navigate(path);
    focusField(key);
  };

  const undo = async () => {
    const undone = await undoLastChange(versdb, orderId);
    if (!undone) return notifications.show('orders.editor.nothingToUndo', 'info');
    const place = fieldPlace(type, undone.change.key, values);
    notifications.show('orders.editor.undoneField', 'success', {
      place: place ? placeText(type, place) : undone.change.key,
    });
    showField(undone.change.key);
  };
  // Stable callbacks: the toolbar and the tab list do not render again for an edit.
  const onUndo = useLatest(() => void undo());
  const onTakeOver = useCallback(() => setTakeOver(true), []);
  const onStatusDialog = useCallback(() => setStatusDialog(true), []);
  useEffect(() => {
    void loadStatusDialog().catch(() => undefined); // a failed load is tried again when the dialog opens
  }, []);
  useEffect(() => {
    if (type === 'WAGON') void loadWheelsetPosition().catch(() => undefined); // tried again when a position opens
  }, [type]);
  const open = useLatest((name: string) => void navigate(`/orders/${orderType}/${orderId}/${name}`));

  if (load.kind === 'missing') return <Alert severity="warning">{t('orders.edit.notFound')}</Alert>;
  if (load.kind === 'notKept')
    return (
      <Alert severity="info" data-testid="order-not-kept">
        {t('orders.edit.notKept')}
      </Alert>
    );
  if (!ready || !session || !labels) return null;
  const firstTab = tabs[0];
  if (!tab && firstTab) return <Navigate to={`/orders/${orderType}/${orderId}/${firstTab.id}`} replace />;

  const status = displayStatus((ready.state.status ?? ready.order.status) as OrderStatus);
  const readOnly = !mayWrite || isReadOnlyStatus(status);
  const language = (i18n.resolvedLanguage ?? 'de') as Language;

  const actions: EditorActions = { orderId, values, conflicts: ready.conflicts, readOnly, write };

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

  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}
      data-testid="edit-order"
      lang={language}
    >
      <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', md: 'row' } }}>
        <TabList type={type} tabs={tabs} values={values} active={tabName ?? ''} onSelect={open} />
        <Box sx={{ flexGrow: 1, minWidth: 0, display: 'grid', gap: 2, alignContent: 'start' }}>
          <EditorToolbar
            cameraPath={`/camera/${orderType}/${orderId}/${tabName ?? ''}`}
            imagesPath={`/images/${orderId}`}
            documentsPath={documentsPath(type, orderId ?? '', orderType, values)}
            mayWrite={mayWrite}
            readOnly={readOnly}
            canUndo={ready.undoable !== null}
            canTakeOver={!showSummary}
            onUndo={onUndo}
            onTakeOver={onTakeOver}
            onStatus={onStatusDialog}
          />
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
            <Alert
              severity="info"
              icon={<LockIcon />}
              data-testid="order-read-only"
              data-reason={mayWrite ? 'status' : 'role'}
            >
              {t(mayWrite ? 'orders.edit.readOnly' : 'orders.edit.readOnlyRole')}
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
            <>
              {type === 'WAGON' && tab?.perEntry && entry && (
                <Suspense fallback={null}>
                  <WheelsetPosition
                    orderId={orderId}
                    position={Number(entry)}
                    values={values}
                    readOnly={readOnly}
                    online={online}
                    write={write}
                  />
                </Suspense>
              )}
              <TabContent view={view} actions={actions} />
            </>
          ) : (
            <Alert severity="info">{t('orders.editor.nothingToShow')}</Alert>
          )}
        </Box>
      </Box>
      <OrderFooter order={ready.order} status={status} />
      {/* Only while asked: a closed dialog would still render its modal at every edit. */}
      {takeOver && (
        <ConfirmDialog
          open
          title={t('orders.editor.takeOver')}
          message={t('orders.editor.takeOverWarning')}
          onCancel={() => setTakeOver(false)}
          onConfirm={() => {
            setTakeOver(false);
            if (view) write(takeOverWrites(view, values));
          }}
        />
      )}
      {statusDialog && (
        <Suspense fallback={null}>
          <StatusDialog
            orderId={orderId}
            current={status}
            orderType={type}
            roles={session.roles}
            busy={busy}
            online={online}
            onCancel={() => setStatusDialog(false)}
            onSave={(next) => void onStatus(next)}
            onSigned={() => {
              notifications.show('signOff.signed', 'success');
              setStatusDialog(false);
              void syncScheduler.exchangeNow();
            }}
          />
        </Suspense>
      )}
    </Box>
  );
}
