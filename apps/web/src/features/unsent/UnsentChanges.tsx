import { fieldText, formatDateTime } from '@vers/domain';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import { useLiveQuery } from 'dexie-react-hooks';
import { type ChangeEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../app/notifications.ts';
import { useSession } from '../../app/session.ts';
import { currentLanguage, loadFeatureCatalogue } from '../../i18n/index.ts';
import { downloadUnsent, type ImportResult, importUnsent, unsentFileName } from '../../offline/unsent-file.ts';
import { versdb } from '../../offline/versdb.ts';
import {
  countWaiting,
  fieldOf,
  type NotAppliedItem,
  notAppliedItems,
  orderLabel,
  reasonOf,
  readUnsentView,
  valueOfRow,
} from './unsent-view.ts';

type Translate = ReturnType<typeof useTranslation>['t'];

/** What the last import did, or why it did not happen (the file could not be read, the database failed). */
type ImportOutcome = ImportResult | { ok: false; reason: 'unreadable' | 'failed' };

/** Large targets: the card is used on tablets, often with gloves. */
const TOUCH = { minHeight: 56, px: 3 } as const;

/** Readable warning text on either theme's paper (the main warning colour is too light on white). */
const OTHERS = {
  mt: 0.5,
  fontWeight: 500,
  color: (theme: Theme) => (theme.palette.mode === 'dark' ? theme.palette.warning.light : theme.palette.warning.dark),
} as const;

function fieldName(t: Translate, item: NotAppliedItem): string {
  if (item.kind === 'order') return t('unsent.notApplied.newOrder');
  const field = fieldOf(item.row.key, item.row.activityType, item.order?.order.type);
  switch (field.kind) {
    case 'status':
      return t('unsent.notApplied.status');
    case 'path':
      return field.key;
    case 'field': {
      // The catalogue's labels load with the editor; until they are here the path is shown.
      const label = t(field.labelKey, { defaultValue: item.row.key });
      if (label === item.row.key) return label;
      const tab = t(field.tabKey, { defaultValue: '' });
      return `${tab ? `${tab} › ` : ''}${label} (${t(`orders.editor.side.${field.side}`)})`;
    }
  }
}

const fieldKindOf = (item: NotAppliedItem & { kind: 'change' }) => {
  const field = fieldOf(item.row.key, item.row.activityType, item.order?.order.type);
  return field.kind === 'field' ? field.fieldKind : undefined;
};

function valueText(t: Translate, item: NotAppliedItem): string {
  // A refused new order: its number is in the heading already, its type says what it is.
  if (item.kind === 'order') return t(`orders.type.${item.order.order.type}`, { defaultValue: item.order.order.type });
  const value = valueOfRow(item.row);
  switch (value.kind) {
    case 'deleted':
      return t('unsent.notApplied.deleted');
    case 'status':
      return t(`orders.status.${value.status}`, { defaultValue: value.status });
    case 'value':
      if (typeof value.value === 'boolean') return t(value.value ? 'orders.editor.yes' : 'orders.editor.no');
      if (Array.isArray(value.value)) return value.value.map(String).join(', ');
      if (value.value === null || value.value === undefined || value.value === '') return '–';
      // A date, month or number as the language writes it ("24.12.25", "27,5" in German, issue 20).
      if (typeof value.value === 'string') {
        const kind = fieldKindOf(item);
        if (kind) return fieldText(kind, value.value, currentLanguage());
      }
      return typeof value.value === 'object' ? JSON.stringify(value.value) : String(value.value);
  }
}

function reasonText(t: Translate, item: NotAppliedItem): string {
  const reason = reasonOf(item.kind === 'change' ? item.row : { refusal: item.order.refusal });
  return 'key' in reason ? t(reason.key) : reason.text;
}

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Typography variant="body2" component="div">
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {label}:{' '}
      </Box>
      {children}
    </Typography>
  );
}

function NotAppliedEntry({ item }: { item: NotAppliedItem }) {
  const { t } = useTranslation();
  const orderText = orderLabel(item.order) ?? t('unsent.notApplied.unknownOrder');
  const waiting = item.kind === 'order' || item.row.sent === 0;
  return (
    <Box
      component="li"
      data-testid="unsent-not-applied-row"
      data-id={item.id}
      data-kind={item.kind}
      data-sent={item.kind === 'change' ? item.row.sent : 0}
      {...(item.kind === 'change' ? { 'data-key': item.row.key } : {})}
      sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}
    >
      <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {orderText} — {fieldName(t, item)}
      </Typography>
      <Stack spacing={0.25} sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
        <Line label={t('unsent.notApplied.value')}>{valueText(t, item)}</Line>
        <Line label={t('unsent.notApplied.made')}>{formatDateTime(item.created, currentLanguage())}</Line>
        <Typography variant="body2" component="div" sx={{ color: 'error.main' }} data-testid="unsent-reason">
          {reasonText(t, item)}
        </Typography>
        {waiting && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('unsent.notApplied.stillWaiting')}
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

function importMessage(t: Translate, outcome: ImportOutcome): string {
  if (outcome.ok) {
    return t('unsent.import.done', {
      changes: outcome.changes,
      orders: outcome.orders,
      skipped: outcome.skipped,
    });
  }
  return t(`unsent.import.${outcome.reason}`);
}

/**
 * Unsent work on this device: how much waits (and how much of it is another user's), a download of it as a file
 * and the import of such a file, and the changes the server did not apply, with the reason. For the profile page.
 */
export default function UnsentChanges() {
  const { t } = useTranslation();
  const session = useSession();
  const view = useLiveQuery(() => readUnsentView(versdb), []);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'download' | 'import' | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);

  const waiting = useMemo(
    () => (view ? countWaiting(view.rows, view.unsentOrders, session?.id) : null),
    [view, session],
  );
  const items = useMemo(() => (view ? notAppliedItems(view) : []), [view]);
  const hasItems = items.length > 0;
  const nothing = !view || (view.rows.length === 0 && view.unsentOrders.length === 0);

  // The start page's "unsent changes" links here (/profile#unsent): a client-side navigation does not scroll to the
  // hash by itself, so the card brings itself into view once its content is read (the address holds the hash by then).
  const card = useRef<HTMLDivElement>(null);
  const loaded = view !== undefined;
  useEffect(() => {
    if (loaded && window.location.hash === '#unsent') card.current?.scrollIntoView({ block: 'start' });
  }, [loaded]);

  // Field labels come from the deferred field catalogue.
  useEffect(() => {
    if (hasItems) void loadFeatureCatalogue('catalogue').catch((error: unknown) => console.error(error));
  }, [hasItems]);

  const download = async () => {
    setBusy('download');
    try {
      const now = new Date();
      await downloadUnsent(versdb, now);
      notifications.show('unsent.downloaded', 'success', { name: unsentFileName(now) });
    } catch (error) {
      console.error(error);
      notifications.show('unsent.downloadFailed', 'error');
    } finally {
      setBusy(null);
    }
  };

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again
    if (!file) return;
    setBusy('import');
    setOutcome(null);
    try {
      let text: string;
      try {
        text = await file.text();
      } catch {
        setOutcome({ ok: false, reason: 'unreadable' });
        return;
      }
      setOutcome(await importUnsent(versdb, text));
    } catch (error) {
      console.error(error);
      setOutcome({ ok: false, reason: 'failed' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card id="unsent" ref={card} data-testid="unsent-changes">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('unsent.title')}
        </Typography>
        <Stack spacing={2}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('unsent.intro')}
          </Typography>
          <div role="status">
            <Typography
              sx={{ fontSize: '1.1rem', fontWeight: 500 }}
              data-testid="unsent-count"
              data-count={waiting?.total ?? ''}
            >
              {waiting === null
                ? t('app.loading')
                : waiting.total === 0
                  ? t('unsent.nothingWaiting')
                  : t('unsent.waiting', { count: waiting.total })}
            </Typography>
            {waiting !== null && waiting.others > 0 && (
              <Typography data-testid="unsent-others" data-count={waiting.others} sx={OTHERS}>
                {t('unsent.others', { count: waiting.others })}
              </Typography>
            )}
          </div>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Button
              variant="contained"
              startIcon={<FileDownloadIcon />}
              disabled={nothing || busy !== null}
              onClick={() => void download()}
              data-testid="unsent-download"
              sx={TOUCH}
            >
              {t('unsent.download')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<FileUploadIcon />}
              disabled={busy !== null}
              onClick={() => input.current?.click()}
              data-testid="unsent-import"
              sx={TOUCH}
            >
              {t('unsent.importButton')}
            </Button>
            <input
              ref={input}
              type="file"
              accept=".json,application/json"
              hidden
              onChange={(event) => void pick(event)}
              data-testid="unsent-import-input"
            />
          </Stack>
          {outcome && (
            <Alert
              severity={outcome.ok ? 'success' : 'error'}
              onClose={() => setOutcome(null)}
              data-testid="unsent-import-result"
              data-ok={String(outcome.ok)}
              {...(outcome.ok ? {} : { 'data-reason': outcome.reason })}
              slotProps={{ closeButton: { title: t('common.close'), sx: { p: 1.5 } } }}
            >
              {importMessage(t, outcome)}
            </Alert>
          )}
          {hasItems && (
            <Box component="section" aria-labelledby="unsent-not-applied-title">
              <Typography id="unsent-not-applied-title" variant="subtitle1" component="h3" sx={{ fontWeight: 500 }}>
                {t('unsent.notApplied.title', { count: items.length })}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
                {t('unsent.notApplied.hint')}
              </Typography>
              <Stack
                component="ul"
                spacing={1}
                data-testid="unsent-not-applied-list"
                sx={{ listStyle: 'none', m: 0, p: 0 }}
              >
                {items.map((item) => (
                  <NotAppliedEntry key={`${item.kind}:${item.id}`} item={item} />
                ))}
              </Stack>
            </Box>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
