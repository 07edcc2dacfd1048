import {
  type Asset,
  type ExportType,
  LANGUAGES,
  LANGUAGE_NAMES,
  type Language,
  type TafValueKey,
  type TafValues,
  assetSchema,
  formatDateTime,
} from '@vers/domain';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import NoteAddIcon from '@mui/icons-material/NoteAddOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLiveQuery } from 'dexie-react-hooks';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { lazyChunk } from '../../app/chunks.ts';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ApiFailure, call } from '../../app/api.ts';
import { notifications } from '../../app/notifications.ts';
import { useSession } from '../../app/session.ts';
import { SignOffCard } from '../sign-off/SignOffCard.tsx';
import { loadFeatureCatalogue } from '../../i18n/index.ts';
import { useSyncStatus } from '../../offline/scheduler.ts';
import { versdb } from '../../offline/versdb.ts';
import {
  type Message,
  documentsOf,
  failureMessage,
  offeredTypes,
  routeOrderType,
  routeSubVehicles,
  stillGenerating,
} from './documents-view.ts';
import { downloadDocument } from './download.ts';

/** The TAF TSI values dialog: its own chunk, loaded when the server first asks for values. */
const TafValuesDialog = lazyChunk(() => import('./TafValuesDialog.tsx'));

/** How often the list is read again while documents are being made (as the import validation poll). */
export const DOCUMENTS_POLL_MS = 2000;

const assetList = z.array(assetSchema);
/** 4xx/5xx are shown on this screen, not by the global snackbar (0 too: offline is said here). */
const HANDLED = [0, 400, 403, 404, 409, 500, 502, 503, 504];

/**
 * The values a 409 EXPORT_INCOMPLETE names as missing; null for any other failure. (The dialog shows the keys it
 * knows; the definitions stay in its chunk.)
 */
function incompleteExport(error: unknown): TafValueKey[] | null {
  if (!(error instanceof ApiFailure) || error.status !== 409 || error.code !== 'EXPORT_INCOMPLETE') return null;
  return error.missing.length > 0 ? (error.missing as TafValueKey[]) : null;
}

/**
 * Documents screen (docs/requirements/administration.md#documents-screen,
 * `/assets/{orderId}/{orderType}/{anzahlTeilfahrzeuge?}`): choose documents and a language, generate them on the server
 * (background jobs), see them listed in_generation, then available, and download them.
 */
export default function DocumentsPage() {
  const { t, i18n } = useTranslation();
  const uiLanguage = (i18n.resolvedLanguage ?? 'de') as Language;
  const navigate = useNavigate();
  const { orderId = '', orderType: typeSegment, anzahlTeilfahrzeuge } = useParams();
  const orderType = routeOrderType(typeSegment) ?? 'WAGON';
  const subVehicles = routeSubVehicles(anzahlTeilfahrzeuge);
  const { online } = useSyncStatus();
  const order = useLiveQuery(() => versdb.orders.get(orderId), [orderId]);
  const [chosen, setChosen] = useState<ExportType[]>([]);
  const [language, setLanguage] = useState<Language>(uiLanguage);
  const [documents, setDocuments] = useState<Asset[] | null>(null);
  /** What went wrong; `fetch`: the list could not be read, so the message offers to try again until a read works. */
  const [problem, setProblem] = useState<(Message & { fetch?: true }) | null>(null);
  const [busy, setBusy] = useState(false);
  const session = useSession();
  /** Bumped when the server said the release is not signed: the sign-off card reads its list again. */
  const [signOffRefresh, setSignOffRefresh] = useState(0);
  /**
   * The TAF TSI values the server asked for (409 EXPORT_INCOMPLETE), all asked so far; the dialog is open while set.
   */
  const [tafAsked, setTafAsked] = useState<ReadonlySet<TafValueKey> | null>(null);

  const load = useCallback(async () => {
    try {
      const assets = await call(`assets/order/${orderId}`, assetList, { handles: HANDLED });
      setDocuments(documentsOf(assets));
      setProblem((current) => (current?.fetch ? null : current));
    } catch (error) {
      setProblem({ ...failureMessage(error, 'fetch', orderType, t), fetch: true });
    }
  }, [orderId, orderType, t]);

  useEffect(() => {
    void load();
    // The incompatible-data message names fields and tabs from the field catalogue.
    void loadFeatureCatalogue('catalogue');
  }, [load]);

  const generating = documents !== null && stillGenerating(documents);
  useEffect(() => {
    if (!generating) return;
    const timer = setInterval(() => void load(), DOCUMENTS_POLL_MS);
    return () => clearInterval(timer);
  }, [generating, load]);

  /** Sends the export; `tafTsi`: the values the dialog asked for, when the TAF TSI dataset needed them. */
  const generate = async (tafTsi?: TafValues) => {
    setBusy(true);
    setProblem(null);
    try {
      const created = await call(`export/${orderId}/${language}`, assetList, {
        method: 'POST',
        body: { types: chosen, ...(subVehicles ? { subVehicles } : {}), ...(tafTsi ? { tafTsi } : {}) },
        handles: HANDLED,
      });
      setDocuments((current) => documentsOf([...created, ...(current ?? [])]));
      setChosen([]);
      setTafAsked(null);
    } catch (error) {
      const missing = incompleteExport(error);
      if (missing) {
        // The order lacks values the TAF TSI dataset requires: asked for in the dialog, then sent again.
        setTafAsked((current) => new Set([...(current ?? []), ...missing]));
        return;
      }
      setTafAsked(null);
      setProblem(failureMessage(error, 'create', orderType, t));
      setSignOffRefresh((count) => count + 1);
    } finally {
      setBusy(false);
    }
  };

  const download = async (document: Asset) => {
    try {
      await downloadDocument(document);
    } catch (error) {
      const message = failureMessage(error, 'download', orderType, t);
      notifications.show(message.key, 'error', message.values);
    }
  };

  const toggle = (type: ExportType) =>
    setChosen((current) => (current.includes(type) ? current.filter((t) => t !== type) : [...current, type]));
  const orderPath = `/orders/${orderType.toLowerCase()}/${orderId}/basedata`;

  return (
    <Stack spacing={2} data-testid="documents-page">
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate(orderPath)} sx={{ minHeight: 48 }}>
          {t('documents.backToOrder')}
        </Button>
        {order && (
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {order.order.number || order.order.maintenanceNumber}
          </Typography>
        )}
      </Stack>
      {!online && (
        <Alert severity="warning" data-testid="documents-offline">
          {t('documents.needsConnection')}
        </Alert>
      )}
      {problem && (
        <Alert
          severity="error"
          data-testid="documents-error"
          onClose={() => setProblem(null)}
          action={
            problem.fetch ? (
              <Button color="inherit" onClick={() => void load()} data-testid="documents-retry">
                {t('common.retry')}
              </Button>
            ) : undefined
          }
        >
          {t(problem.key, problem.values)}
        </Alert>
      )}
      <SignOffCard
        orderId={orderId}
        orderType={orderType}
        roles={session?.roles ?? []}
        online={online}
        refresh={signOffRefresh}
      />
      <Paper sx={{ p: 2 }}>
        <Typography variant="subtitle1" component="h3" gutterBottom>
          {t('documents.generate')}
        </Typography>
        <FormGroup sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}>
          {offeredTypes(orderType).map((type) => (
            <FormControlLabel
              key={type}
              sx={{ minHeight: 48 }}
              control={
                <Checkbox
                  checked={chosen.includes(type)}
                  onChange={() => toggle(type)}
                  slotProps={{ input: { 'data-testid': `documents-type-${type}` } as object }}
                />
              }
              label={t(`documents.type.${type}`)}
            />
          ))}
        </FormGroup>
        <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            select
            label={t('documents.language')}
            value={language}
            onChange={(event) => setLanguage(event.target.value as Language)}
            sx={{ minWidth: 200 }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'documents-language' } as object } }}
          >
            {LANGUAGES.map((code) => (
              <MenuItem key={code} value={code} data-testid={`documents-language-${code}`} lang={code}>
                {LANGUAGE_NAMES[code]}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="contained"
            startIcon={busy ? <CircularProgress size={20} color="inherit" /> : <NoteAddIcon />}
            disabled={chosen.length === 0 || busy || !online}
            onClick={() => void generate()}
            sx={{ minHeight: 48 }}
            data-testid="documents-generate"
          >
            {t('documents.generateButton')}
          </Button>
        </Stack>
      </Paper>
      {tafAsked && (
        <Suspense fallback={null}>
          <TafValuesDialog
            asked={tafAsked}
            busy={busy}
            onSubmit={(values) => void generate(values)}
            onCancel={() => setTafAsked(null)}
          />
        </Suspense>
      )}
      <Paper sx={{ p: 2 }}>
        <Typography variant="subtitle1" component="h3">
          {t('documents.list')}
        </Typography>
        {documents?.length === 0 && (
          <Typography color="text.secondary" data-testid="documents-empty" sx={{ py: 1 }}>
            {t('documents.none')}
          </Typography>
        )}
        <List data-testid="documents-list">
          {documents?.map((document) => (
            <ListItem
              key={document.id}
              divider
              data-testid="document-row"
              data-type={document.type}
              data-status={document.status}
              sx={{ gap: 1, flexWrap: 'wrap', px: 0 }}
            >
              <ListItemText
                sx={{ flex: '1 1 240px', minWidth: 0 }}
                primary={t(`documents.type.${document.type}`)}
                secondary={`${formatDateTime(document.created, uiLanguage)}${
                  document.status === 'AVAILABLE' ? ` · ${Math.max(1, Math.round(document.size / 1024))} KB` : ''
                } · ${document.filename}`}
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
              <Chip
                size="small"
                data-testid="document-status"
                color={document.status === 'AVAILABLE' ? 'success' : document.status === 'FAILED' ? 'error' : 'default'}
                icon={
                  document.status === 'IN_GENERATION' ? (
                    <CircularProgress size={14} />
                  ) : document.status === 'FAILED' ? (
                    <ErrorOutlineIcon />
                  ) : undefined
                }
                label={t(`documents.status.${document.status}`)}
              />
              {/* The same width for every row, with or without the button: the chips stay in one column. */}
              <Box sx={{ width: 168, display: 'flex', justifyContent: 'flex-end' }}>
                {document.status === 'AVAILABLE' && (
                  <Button
                    startIcon={<DownloadIcon />}
                    onClick={() => void download(document)}
                    sx={{ minHeight: 48 }}
                    data-testid="document-download"
                  >
                    {t('documents.download')}
                  </Button>
                )}
              </Box>
            </ListItem>
          ))}
        </List>
      </Paper>
    </Stack>
  );
}
