import {
  type Activity,
  type FieldDef,
  changeValue,
  fieldHistory,
  fieldText,
  formatDateTime,
  isFieldChange,
  type Language,
  SENT_STATES,
} from '@vers/domain';
import HistoryIcon from '@mui/icons-material/History';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog.tsx';
import { notifications } from '../../../app/notifications.ts';
import { useSession } from '../../../app/session.ts';
import { revertChange } from '../../../offline/order-results.ts';
import { syncScheduler } from '../../../offline/scheduler.ts';
import { versdb } from '../../../offline/versdb.ts';

/**
 * A value of a field as one line of text: lists joined, yes/no for booleans, a date, month or number as the language
 * writes it (as its field shows it: "24.12.25", "27,5" in German), a fixed code by its text as its switch shows it (a
 * wheelset's direction: "Turned", not TURNED), a dash for a cleared field.
 */
export function useValueText(field: Pick<FieldDef, 'kind' | 'path' | 'choices'>) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  return (value: unknown): string => {
    if (value === null || value === undefined || value === '') return t('orders.editor.history.cleared');
    if (typeof value === 'boolean') return t(value ? 'orders.editor.yes' : 'orders.editor.no');
    if (Array.isArray(value)) return value.map(String).join(', ');
    if (typeof value === 'string' && field.choices?.includes(value))
      return t(`catalogue.entryValue.${field.path}.${value}`, { defaultValue: value });
    if (typeof value === 'string' || typeof value === 'number') return fieldText(field.kind, String(value), language);
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
}

/** Who made a change: "you" for the signed-in user's own, else the name the server keeps beside it. */
export function useAuthor() {
  const { t } = useTranslation();
  const session = useSession();
  return (activity: Activity): string => {
    const mine = session !== null && (activity.owner === session.id || activity.authorId === session.id);
    if (mine) return t('orders.editor.history.you');
    return activity.author || activity.lastModifier || t('orders.editor.history.someone');
  };
}

function States({ activity }: { activity: Activity }) {
  const { t } = useTranslation();
  const chips: { key: string; label: string; color: 'default' | 'warning' | 'error' | 'info' }[] = [];
  if (activity.reverted) chips.push({ key: 'undone', label: t('orders.editor.history.undone'), color: 'default' });
  if (activity.restores !== undefined && activity.restores !== null)
    chips.push({ key: 'restores', label: t('orders.editor.history.restores'), color: 'info' });
  if (activity.sent === SENT_STATES.UNSENT)
    chips.push({ key: 'unsent', label: t('orders.editor.history.unsent'), color: 'warning' });
  if (activity.sent === SENT_STATES.REFUSED || activity.sent === SENT_STATES.ORDER_UNKNOWN)
    chips.push({ key: 'refused', label: t('orders.editor.history.refused'), color: 'error' });
  if (chips.length === 0) return null;
  return (
    <Stack direction="row" spacing={0.5} component="span" sx={{ display: 'inline-flex', ml: 1 }}>
      {chips.map((chip) => (
        <Chip key={chip.key} size="small" label={chip.label} color={chip.color} component="span" />
      ))}
    </Stack>
  );
}

/** A change the history may revert: one the server holds, still in effect, made by a user (not a status). */
const revertible = (activity: Activity) =>
  activity.sent === SENT_STATES.SENT && !activity.reverted && isFieldChange(activity);

function HistoryList({ orderId, keys, field, sideOf, readOnly }: HistoryProps) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const valueText = useValueText(field);
  const author = useAuthor();
  const [reverting, setReverting] = useState<Activity | null>(null);
  const revert = async (activity: Activity) => {
    setReverting(null);
    if (await revertChange(versdb, activity.id)) {
      notifications.show('orders.editor.history.reverted', 'success');
      void syncScheduler.exchangeNow();
    } else {
      notifications.show('orders.editor.history.notReverted', 'warning');
    }
  };
  // Straight from the device's activity log: offline too, and live while the dialog is open.
  const entries = useLiveQuery(
    async () => fieldHistory(await versdb.orderResults.where('orderId').equals(orderId).toArray(), keys),
    [orderId, keys.join('\u0000')],
  );
  if (!entries) return null;
  if (entries.length === 0)
    return <Typography data-testid="history-empty">{t('orders.editor.history.empty')}</Typography>;
  return (
    <List dense disablePadding data-testid="history-list">
      {entries.map((activity) => (
        <ListItem key={activity.id} divider disableGutters data-testid="history-entry">
          <ListItemText
            primary={
              <>
                <strong>{valueText(changeValue(activity))}</strong>
                {sideOf(activity.key) && (
                  <Typography component="span" variant="body2" color="text.secondary">
                    {' · '}
                    {sideOf(activity.key)}
                  </Typography>
                )}
                <States activity={activity} />
              </>
            }
            secondary={`${author(activity)} · ${formatDateTime(activity.created, language)}${
              activity.refusal ? ` · ${activity.refusal.message}` : ''
            }`}
          />
          {!readOnly && revertible(activity) && (
            <Button
              size="large"
              onClick={() => setReverting(activity)}
              data-testid="history-revert"
              sx={{ flexShrink: 0, ml: 1 }}
            >
              {t('orders.editor.history.revert')}
            </Button>
          )}
        </ListItem>
      ))}
      <ConfirmDialog
        open={reverting !== null}
        danger
        title={t('orders.editor.history.revert')}
        message={
          reverting
            ? t('orders.editor.history.revertQuestion', {
                who: author(reverting),
                value: valueText(changeValue(reverting)),
              })
            : ''
        }
        onCancel={() => setReverting(null)}
        onConfirm={() => reverting && void revert(reverting)}
      />
    </List>
  );
}

interface HistoryProps {
  orderId: string;
  /** The field's keys: its incoming and outgoing value. */
  keys: readonly string[];
  /** The field: how its values read. */
  field: Pick<FieldDef, 'kind' | 'path' | 'choices'>;
  /** "Incoming"/"Outgoing" for a key, to tell the sides apart in one list. */
  sideOf: (key: string) => string | undefined;
  /** A done order: nothing can be reverted. */
  readOnly: boolean;
}

/** A field's history on demand: every value it had, who set it and when, undos and unsent changes included. */
export function FieldHistoryButton(props: HistoryProps & { label: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const title = t('orders.editor.history.title', { field: props.label });
  return (
    <>
      <IconButton
        aria-label={title}
        // A plain title, not an MUI tooltip: one button per field row, and a tab has hundreds of rows.
        title={title}
        onClick={() => setOpen(true)}
        data-testid="history-open"
        // 44 px: a touch target for gloved hands (the field rows are 56 px high anyway).
        sx={{ ml: 0.5, width: 44, height: 44, color: 'text.secondary' }}
      >
        <HistoryIcon fontSize="small" />
      </IconButton>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" data-testid="history-dialog">
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>{open && <HistoryList {...props} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} data-testid="history-close" size="large">
            {t('orders.editor.history.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
