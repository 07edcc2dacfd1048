import { changeValue, formatDateTime, type Language, type LostChange } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthor, useValueText } from './FieldHistory.tsx';

const STORAGE_KEY = 'vers.seenConflicts';
/** Notes kept as seen; the oldest are forgotten beyond this many (their fields have long moved on). */
const REMEMBERED = 500;

function readSeen(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

let seen = new Set(readSeen());
const listeners = new Set<() => void>();
const seenStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => seen,
  mark(id: string) {
    const ids = [...seen, id].slice(-REMEMBERED);
    seen = new Set(ids);
    localStorage.setItem(STORAGE_KEY, JSON.stringify(ids));
    for (const listener of listeners) listener();
  },
};

const noteId = (lost: LostChange) => `${lost.mine.id}>${lost.winner.id}`;

/**
 * Beside a field whose value this user set and another user's concurrent change replaced: the user's value, the
 * value that stands, who set it and when — until the user has read it (OK) or sets the field again.
 */
export function LostNote({ lost, side }: { lost: LostChange; side?: string | undefined }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const valueText = useValueText();
  const author = useAuthor();
  const seenIds = useSyncExternalStore(seenStore.subscribe, seenStore.get);
  if (seenIds.has(noteId(lost))) return null;
  return (
    <Alert
      severity="warning"
      data-testid="lost-change"
      sx={{ py: 0 }}
      action={
        <Button color="inherit" size="small" onClick={() => seenStore.mark(noteId(lost))} data-testid="lost-change-ok">
          {t('orders.editor.lost.ok')}
        </Button>
      }
    >
      {side && <strong>{side}: </strong>}
      {t('orders.editor.lost.text', {
        mine: valueText(changeValue(lost.mine)),
        theirs: valueText(changeValue(lost.winner)),
        who: author(lost.winner),
        when: formatDateTime(lost.winner.lastModified ?? lost.winner.created, language),
      })}
    </Alert>
  );
}
