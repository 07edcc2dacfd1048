import {
  HOLDER_DOCUMENT_TYPES,
  type HolderDocument,
  type HolderDocumentType,
  type HolderOrderDetail,
  type Language,
  formatDateTime,
  formatSignOffCode,
  signOffCheckPath,
} from '@vers/domain';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import NoteAddIcon from '@mui/icons-material/NoteAddOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { notifications } from '../../app/notifications.ts';
import { loadFeatureCatalogue } from '../../i18n/index.ts';
import { downloadDocument } from '../documents/download.ts';
import { SignOffList } from '../sign-off/SignOffList.tsx';
import { HolderValues } from './HolderValues.tsx';
import { useStatusText, wagonNumberText, workshopText } from './HolderOrdersPage.tsx';
import { fetchHolderOrder, requestHolderDocument } from './holder-api.ts';
import {
  type CodeCheck,
  HOLDER_DOCUMENT_POLL_MS,
  HOLDER_REFRESH_MS,
  checkCodeAgainstOrder,
  documentsGenerating,
  newestDocument,
  outgoingValues,
  valueSections,
} from './holder-view.ts';
import { useRefresh } from './use-refresh.ts';

type Load =
  { kind: 'loading' } | { kind: 'found'; detail: HolderOrderDetail } | { kind: 'notFound' } | { kind: 'failed' };

/** What a failed document request says: the release needs a current sign-off; anything else as the documents page. */
function documentFailureKey(error: unknown): string {
  if (!(error instanceof ApiFailure)) return 'holder.documents.failed';
  if (error.status === 0) return 'errors.offline';
  if (error.status === 409 && error.code === 'RELEASE_NOT_SIGNED') return 'holder.documents.releaseNotSigned';
  if (error.status === 404) return 'holder.order.notFound';
  return 'holder.documents.failed';
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }} data-testid={testId}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Head({ detail }: { detail: HolderOrderDetail }) {
  const { t } = useTranslation();
  const statusText = useStatusText();
  const { order } = detail;
  const facts: [string, string, string][] = [
    [t('holder.columns.keeperMarking'), order.keeperMarking, 'marking'],
    [t('holder.columns.workshop'), workshopText(order), 'workshop'],
    [t('orders.columns.number'), order.number, 'number'],
  ];
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }} data-testid="holder-order-head">
      <Stack direction="row" useFlexGap spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1.5 }}>
        <Typography
          variant="h5"
          component="h1"
          sx={{ fontWeight: 700, whiteSpace: 'nowrap', flexGrow: 1 }}
          data-testid="holder-order-wagon"
        >
          {wagonNumberText(order)}
        </Typography>
        <Chip label={statusText(order.status)} color="primary" variant="outlined" data-testid="holder-order-status" />
      </Stack>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, gap: 1.5, m: 0 }}
      >
        {facts.map(([label, value, id]) => (
          <Box key={id} data-testid={`holder-order-${id}`}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

function DocumentRow(props: {
  type: HolderDocumentType;
  document: HolderDocument | null;
  busy: boolean;
  onRequest: () => void;
  onDownload: (document: HolderDocument) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const { document } = props;
  const generating = document?.status === 'IN_GENERATION';
  return (
    <ListItem
      divider
      data-testid={`holder-document-${props.type}`}
      data-status={document?.status ?? 'NONE'}
      data-filename={document?.filename ?? ''}
      sx={{ gap: 1, flexWrap: 'wrap', px: 0 }}
    >
      <ListItemText
        sx={{ flex: '1 1 240px', minWidth: 0 }}
        primary={t(`documents.type.${props.type}`)}
        secondary={
          document ? `${formatDateTime(document.created, language)} · ${document.filename}` : t('holder.documents.none')
        }
        slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
      />
      {document && (
        <Chip
          size="small"
          color={document.status === 'AVAILABLE' ? 'success' : document.status === 'FAILED' ? 'error' : 'default'}
          icon={
            generating ? (
              <CircularProgress size={14} />
            ) : document.status === 'FAILED' ? (
              <ErrorOutlineIcon />
            ) : undefined
          }
          label={t(`documents.status.${document.status}`)}
        />
      )}
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
        {document?.status === 'AVAILABLE' && (
          <Button
            variant="contained"
            startIcon={<DownloadIcon />}
            onClick={() => props.onDownload(document)}
            sx={{ minHeight: 48 }}
            data-testid="holder-document-download"
          >
            {t('documents.download')}
          </Button>
        )}
        <Button
          variant="outlined"
          startIcon={props.busy ? <CircularProgress size={20} color="inherit" /> : <NoteAddIcon />}
          disabled={props.busy || generating}
          onClick={props.onRequest}
          sx={{ minHeight: 48 }}
          data-testid="holder-document-request"
        >
          {t('holder.documents.request')}
        </Button>
      </Stack>
    </ListItem>
  );
}

/** The "check a printed code" field: held against this order's sign-offs, then the public check page. */
function CodeCheckField({ detail }: { detail: HolderOrderDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [result, setResult] = useState<CodeCheck | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = checkCodeAgainstOrder(typed, detail.signOffs);
    setResult(check);
    // A code of this order's sign-offs opens its check page, which says whether the order still holds what was signed.
    if (check.kind === 'ofThisOrder') void navigate(signOffCheckPath(check.code));
  };
  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ mt: 2 }} data-testid="holder-code-check">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('holder.code.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('holder.code.intro')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label={t('signOff.check.codeLabel')}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setResult(null);
          }}
          error={result?.kind === 'invalid'}
          helperText={result?.kind === 'invalid' ? t('signOff.check.codeInvalid') : undefined}
          autoComplete="off"
          // Grows beside the button on a wide screen; stacked on a phone it keeps its own height.
          sx={{ flex: { sm: '1 1 280px' }, maxWidth: { sm: 420 } }}
          slotProps={{
            htmlInput: {
              'data-testid': 'holder-code-input',
              autoCapitalize: 'characters',
              spellCheck: false,
              maxLength: 40,
              sx: { fontFamily: 'monospace', fontSize: '1.1rem' },
            },
          }}
        />
        <Button
          type="submit"
          variant="contained"
          startIcon={<FactCheckIcon />}
          disabled={typed.trim() === ''}
          sx={{ minHeight: 56 }}
          data-testid="holder-code-submit"
        >
          {t('signOff.check.submit')}
        </Button>
      </Stack>
      {result?.kind === 'notOfThisOrder' && (
        <Alert
          severity="warning"
          sx={{ mt: 1.5 }}
          data-testid="holder-code-other"
          action={
            <Button
              color="inherit"
              component={RouterLink}
              to={signOffCheckPath(result.code)}
              sx={{ minHeight: 48 }}
              data-testid="holder-code-check-anyway"
            >
              {t('holder.code.checkAnyway')}
            </Button>
          }
        >
          {t('holder.code.notOfThisOrder', { code: formatSignOffCode(result.code) })}
        </Alert>
      )}
    </Box>
  );
}

/**
 * A holder's order (issue 22, `/holder/orders/:orderId`), read-only: head, documents (release to service, keeper XML),
 * sign-offs with the check of a printed code, status history and the outgoing values. Read from the server again on
 * focus and every 10 s (every 2 s while a document is being made), so new sign-offs and documents appear on their own.
 */
export default function HolderOrderPage() {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const navigate = useNavigate();
  const { orderId = '' } = useParams();
  const [state, setState] = useState<Load>({ kind: 'loading' });
  const [requesting, setRequesting] = useState<HolderDocumentType | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const statusText = useStatusText();

  const load = useCallback(async () => {
    try {
      const detail = await fetchHolderOrder(orderId);
      setState({ kind: 'found', detail });
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 404) setState({ kind: 'notFound' });
      // A failed refresh keeps what is shown; only a first load that fails says so.
      else setState((current) => (current.kind === 'found' ? current : { kind: 'failed' }));
    }
  }, [orderId]);

  useEffect(() => {
    setState({ kind: 'loading' });
    void load();
    void loadFeatureCatalogue('catalogue');
  }, [load]);

  const detail = state.kind === 'found' ? state.detail : null;
  const generating = detail !== null && documentsGenerating(detail.documents);
  useRefresh(() => void load(), generating ? HOLDER_DOCUMENT_POLL_MS : HOLDER_REFRESH_MS);

  const sections = useMemo(() => (detail ? valueSections(outgoingValues(detail.values)) : []), [detail]);

  const request = async (type: HolderDocumentType) => {
    setRequesting(type);
    setProblem(null);
    try {
      const created = await requestHolderDocument(orderId, type, language);
      setState((current) =>
        current.kind === 'found'
          ? { ...current, detail: { ...current.detail, documents: [created, ...current.detail.documents] } }
          : current,
      );
    } catch (error) {
      setProblem(documentFailureKey(error));
    } finally {
      setRequesting(null);
    }
  };

  const download = async (document: HolderDocument) => {
    try {
      await downloadDocument(document, 'holder/documents');
    } catch (error) {
      notifications.show(
        error instanceof ApiFailure && error.status === 0 ? 'errors.offline' : 'documents.error.notFound',
        'error',
      );
    }
  };

  const back = (
    <Button
      startIcon={<ArrowBackIcon />}
      onClick={() => void navigate('/holder')}
      sx={{ minHeight: 48, alignSelf: 'flex-start' }}
    >
      {t('holder.order.back')}
    </Button>
  );

  if (state.kind === 'loading')
    return (
      <Stack spacing={2}>
        {back}
        <LinearProgress aria-label={t('app.loading')} />
      </Stack>
    );
  if (state.kind === 'notFound' || state.kind === 'failed')
    return (
      <Stack spacing={2} sx={{ maxWidth: 1200 }}>
        {back}
        <Alert
          severity={state.kind === 'notFound' ? 'warning' : 'error'}
          data-testid={state.kind === 'notFound' ? 'holder-order-not-found' : 'holder-order-load-error'}
          action={
            state.kind === 'failed' ? (
              <Button color="inherit" onClick={() => void load()} sx={{ minHeight: 48 }}>
                {t('common.retry')}
              </Button>
            ) : undefined
          }
        >
          {t(state.kind === 'notFound' ? 'holder.order.notFound' : 'holder.order.loadFailed')}
        </Alert>
      </Stack>
    );

  const { detail: shown } = state;
  return (
    <Stack spacing={2} sx={{ maxWidth: 1200 }} data-testid="holder-order">
      {back}
      <Head detail={shown} />
      <Section title={t('holder.documents.title')} testId="holder-documents">
        {problem && (
          <Alert severity="error" onClose={() => setProblem(null)} data-testid="holder-document-error" sx={{ mb: 1 }}>
            {t(problem)}
          </Alert>
        )}
        <List disablePadding>
          {HOLDER_DOCUMENT_TYPES.map((type) => (
            <DocumentRow
              key={type}
              type={type}
              document={newestDocument(shown.documents, type)}
              busy={requesting === type}
              onRequest={() => void request(type)}
              onDownload={(document) => void download(document)}
            />
          ))}
        </List>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('holder.documents.languageNote')}
        </Typography>
      </Section>
      <Section title={t('signOff.card.title')} testId="holder-sign-offs">
        {shown.signOffs.length === 0 ? (
          <Typography color="text.secondary" data-testid="sign-off-none">
            {t('signOff.card.none')}
          </Typography>
        ) : (
          <SignOffList signOffs={shown.signOffs} />
        )}
        <CodeCheckField detail={shown} />
      </Section>
      <Section title={t('holder.history.title')} testId="holder-status-history">
        {shown.statusHistory.length === 0 ? (
          <Typography color="text.secondary">{t('holder.history.none')}</Typography>
        ) : (
          <List dense disablePadding>
            {[...shown.statusHistory].reverse().map((entry, index) => (
              <ListItem key={`${entry.at}-${index}`} divider sx={{ px: 0 }} data-testid="holder-status-row">
                <ListItemText primary={statusText(entry.status)} secondary={formatDateTime(entry.at, language)} />
              </ListItem>
            ))}
          </List>
        )}
      </Section>
      <Box>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('holder.order.values')}
        </Typography>
        <HolderValues sections={sections} />
      </Box>
    </Stack>
  );
}
