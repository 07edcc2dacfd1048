import { type Activity, changeValue, type Conflict, type FieldDef, formatDateTime, type Language } from '@vers/domain';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/session.ts';
import { useAuthor, useValueText } from './FieldHistory.tsx';
import type { FieldConflicts } from './useOrder.ts';

/** A change the signed-in user made: on this device, or sent from another of theirs. */
function useIsMine() {
  const session = useSession();
  return (activity: Activity) =>
    session !== null && (activity.owner === session.id || activity.authorId === session.id);
}

/**
 * Beside a field whose value replaced another that its author had not seen
 * (docs/requirements/sync.md#data-flow-conflicts): both values, who entered them and when, told from the side of
 * whoever reads it; one tap keeps either value, as a new change that the history shows. It stays, on every device of
 * the order, until someone who has seen both decides.
 */
export function ConflictNote(props: {
  field: FieldConflicts;
  /** The field whose values these are: how they read. */
  valueField: Pick<FieldDef, 'kind' | 'path' | 'choices'>;
  side?: string | undefined;
  readOnly: boolean;
  onKeep: (value: unknown) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const valueText = useValueText(props.valueField);
  const author = useAuthor();
  const isMine = useIsMine();
  const when = (activity: Activity) => formatDateTime(activity.created, language);
  const message = (conflict: Conflict) => {
    const values = {
      replaced: valueText(changeValue(conflict.replaced)),
      value: valueText(changeValue(conflict.by)),
      replacedWho: author(conflict.replaced),
      replacedWhen: when(conflict.replaced),
      who: author(conflict.by),
      when: when(conflict.by),
    };
    if (isMine(conflict.replaced) && !isMine(conflict.by)) return t('orders.editor.conflict.yoursReplaced', values);
    if (isMine(conflict.by) && !isMine(conflict.replaced)) return t('orders.editor.conflict.youReplaced', values);
    return t('orders.editor.conflict.replaced', values);
  };
  // One button per value to keep: each value that was replaced, and the one that stands now.
  const choices = new Map<string, unknown>();
  for (const conflict of props.field.conflicts) {
    const value = changeValue(conflict.replaced);
    choices.set(JSON.stringify(value), value);
  }
  const standing = props.field.current ? changeValue(props.field.current) : null;
  choices.set(JSON.stringify(standing), standing);
  return (
    <Alert severity="warning" data-testid="conflict" sx={{ '& .MuiAlert-message': { width: '100%' } }}>
      <AlertTitle>
        {props.side ? `${props.side}: ` : ''}
        {t('orders.editor.conflict.title')}
      </AlertTitle>
      {props.field.conflicts.map((conflict) => (
        <Box key={`${conflict.replaced.id}>${conflict.by.id}`} data-testid="conflict-text" sx={{ mb: 1 }}>
          {message(conflict)}
        </Box>
      ))}
      {!props.readOnly && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {[...choices.values()].map((value) => (
            <Button
              key={JSON.stringify(value)}
              variant="outlined"
              color="inherit"
              size="large"
              onClick={() => props.onKeep(value)}
              data-testid="conflict-keep"
              data-value={valueText(value)}
            >
              {t('orders.editor.conflict.keep', { value: valueText(value) })}
            </Button>
          ))}
        </Box>
      )}
    </Alert>
  );
}
