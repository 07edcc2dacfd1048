import {
  type AttributeValue,
  type ChapterView,
  type Language,
  formatDateTime,
  formatRange,
  type CollectionView,
  type EntryView,
  type FieldDef,
  type RowView,
  type Slot,
  type TabView,
  type Values,
  type Write,
  SIDES,
  addEntryWrites,
  limitWarning,
  removeEntryWrites,
  slotWrites,
} from '@vers/domain';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog.tsx';
import { FieldHistoryButton } from './FieldHistory.tsx';
import { FieldInput } from './FieldInput.tsx';
import { FormulaField } from './FormulaField.tsx';
import { ConflictNote } from './ConflictNote.tsx';
import type { FieldConflicts } from './useOrder.ts';
import type { EditContext, EditProblem } from '../../../offline/record-edit.ts';
import { fieldLabelKey } from './labels.ts';

export interface EditorActions {
  orderId: string;
  values: Values;
  /** The open conflicts by field key. */
  conflicts: ReadonlyMap<string, FieldConflicts>;
  readOnly: boolean;
  /**
   * Records the writes locally (and the recalculations they cause); answers the writes the field catalogue refuses,
   * of which nothing is stored.
   */
  write: (writes: Write[], context?: EditContext) => EditProblem[];
}

/** The title of a collection entry: "Bogie 2", "left wheel". */
export function useEntryTitle() {
  const { t } = useTranslation();
  return (differentiator: FieldDef, value: string) =>
    t(`catalogue.entry.${differentiator.path}`, {
      value:
        differentiator.path === 'Side'
          ? t(`catalogue.side.${value}`, { defaultValue: value })
          : t(`catalogue.entryValue.${differentiator.path}.${value}`, { defaultValue: value }),
    });
}

/**
 * Who changed the field last and when, under its label: only where the value carries a `LastModifier`, which is
 * written only when the workshop keeps a protocol (docs/requirements/orders.md#attribute-value,
 * docs/requirements/orders.md#protocol-flag).
 */
function LastChange({ stored }: { stored: Record<'in' | 'out', unknown> }) {
  const { i18n } = useTranslation();
  const latest = [stored.out, stored.in]
    .filter((v): v is AttributeValue => typeof v === 'object' && v !== null && 'LastModifier' in v)
    .sort((a, b) => (a.CaptureDate < b.CaptureDate ? 1 : -1))[0];
  if (!latest?.LastModifier) return null;
  const when = formatDateTime(latest.CaptureDate, (i18n.resolvedLanguage ?? 'de') as Language);
  return (
    <Typography variant="caption" color="text.secondary" data-testid="last-modifier">
      {latest.LastModifier} · {when}
    </Typography>
  );
}

interface FieldRowProps {
  orderId: string;
  row: RowView;
  conflictsIn: FieldConflicts | undefined;
  conflictsOut: FieldConflicts | undefined;
  stored: Record<'in' | 'out', unknown>;
  readOnly: boolean;
  write: EditorActions['write'];
  /** The outgoing value lies outside a standard's limit: the message, else undefined. */
  warning: string | undefined;
}

function FieldRowView({ orderId, row, conflictsIn, conflictsOut, stored, readOnly, write, warning }: FieldRowProps) {
  const { t } = useTranslation();
  const label = t(fieldLabelKey(row.field));
  const conflicts = { in: conflictsIn, out: conflictsOut };
  const keys = SIDES.flatMap((side) => (row[side] ? [row[side].key] : []));
  const sideOf = (key: string) => {
    const side = SIDES.find((candidate) => row[candidate]?.key === key);
    return side && keys.length > 1 ? t(`orders.editor.side.${side}`) : undefined;
  };
  return (
    <Box
      data-testid={`row-${row.field.path}`}
      data-field-row
      // Focusable by script only: the editor moves here after an undo or to a conflict.
      tabIndex={-1}
      sx={{
        borderRadius: 1,
        '&:focus': { outline: 'none' },
        '&[data-moved-here]:focus': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 4 },
        gridColumn: row.field.width === 'full' ? '1 / -1' : undefined,
        minWidth: 0,
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(150px, 2fr) 5fr' },
        alignItems: 'center',
        columnGap: 2,
        rowGap: 0.75,
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Typography variant="subtitle2">{label}</Typography>
          <FieldHistoryButton
            orderId={orderId}
            keys={keys}
            field={row.field}
            sideOf={sideOf}
            label={label}
            readOnly={readOnly}
          />
        </Box>
        <LastChange stored={stored} />
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
        {SIDES.map((side) => {
          const slot = row[side];
          if (!slot) return <Box key={side} />;
          if (row.field.kind === 'formula')
            return (
              <FormulaField
                key={side}
                field={row.field}
                stored={stored[side]}
                dataKey={slot.key}
                label={t(`orders.editor.side.${side}`)}
                warning={side === 'out' ? warning : undefined}
              />
            );
          return (
            <FieldInput
              key={side}
              field={row.field}
              stored={stored[side]}
              dataKey={slot.key}
              label={t(`orders.editor.side.${side}`)}
              readOnly={readOnly}
              {...(side === 'out' && warning ? { warning } : {})}
              onCommit={(value, edit) =>
                write(slotWrites(slot, value), edit?.changedWhileEditing ? { stale: [slot.key] } : {}).find(
                  (problem) => problem.key === slot.key,
                )?.issue ?? null
              }
            />
          );
        })}
        {SIDES.map((side) => {
          const field = conflicts[side];
          const slot = row[side];
          // Across both inputs: the note is read once, it need not squeeze beside its value.
          return field && slot ? (
            <Box key={`conflict-${side}`} sx={{ gridColumn: '1 / -1' }}>
              <ConflictNote
                field={field}
                valueField={row.field}
                side={keys.length > 1 ? t(`orders.editor.side.${side}`) : undefined}
                readOnly={readOnly}
                onKeep={(value) => write(slotWrites(slot, value as Write['value'] | null), { decision: true })}
              />
            </Box>
          ) : null;
        })}
      </Box>
    </Box>
  );
}

const sameSlot = (a: Slot | undefined, b: Slot | undefined) =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.key === b.key &&
    a.create.length === b.create.length &&
    a.create.every((w, i) => w.key === b.create[i]?.key && w.value === b.create[i]?.value));

/**
 * A field row re-renders only when its own values or keys change: after one edit the tab's other rows stay as they
 * are (the editor keeps unchanged values' identity across refolds).
 */
const FieldRow = memo(
  FieldRowView,
  (a, b) =>
    a.orderId === b.orderId &&
    a.conflictsIn === b.conflictsIn &&
    a.conflictsOut === b.conflictsOut &&
    a.row.field === b.row.field &&
    sameSlot(a.row.in, b.row.in) &&
    sameSlot(a.row.out, b.row.out) &&
    a.stored.in === b.stored.in &&
    a.stored.out === b.stored.out &&
    a.readOnly === b.readOnly &&
    a.write === b.write &&
    a.warning === b.warning,
);

/**
 * The limit warning of a row's outgoing value, as a message (issue 5: warn, never refuse), its numbers in the user's
 * language ("27,5–36 mm" in German, issue 20).
 */
function useLimitMessage(values: Values) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  return (row: RowView): string | undefined => {
    if (!row.out || !row.field.limits) return undefined;
    const broken = limitWarning(row.field, values, row.out.key, row.out.scope);
    if (!broken) return undefined;
    const unit = row.field.unit ? t(`catalogue.unit.${row.field.unit}`, { defaultValue: row.field.unit }) : undefined;
    return t('orders.editor.outsideLimit', { range: formatRange(broken, language, unit), source: broken.source });
  };
}

function Rows({ rows, actions }: { rows: readonly RowView[]; actions: EditorActions }) {
  const limitMessage = useLimitMessage(actions.values);
  if (rows.length === 0) return null;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', xl: '1fr 1fr' }, columnGap: 4, rowGap: 1.5 }}>
      {rows.map((row) => (
        <FieldRow
          key={row.field.path}
          orderId={actions.orderId}
          conflictsIn={row.in && actions.conflicts.get(row.in.key)}
          conflictsOut={row.out && actions.conflicts.get(row.out.key)}
          row={row}
          stored={{ in: row.in && actions.values[row.in.key], out: row.out && actions.values[row.out.key] }}
          readOnly={actions.readOnly}
          write={actions.write}
          warning={limitMessage(row)}
        />
      ))}
    </Box>
  );
}

/**
 * Add and remove pickers of a collection: only unused values to add, used ones to remove
 * (docs/requirements/validation.md#entry-pickers).
 */
export function EntryPickers(props: {
  view: CollectionView;
  actions: EditorActions;
  /**
   * Adds the lowest unused value at once instead of asking (wheelset positions,
   * docs/requirements/orders.md#differentiator-entries).
   */
  addLowest?: boolean;
}) {
  const { t } = useTranslation();
  const title = useEntryTitle();
  const { view, actions } = props;
  const [addAnchor, setAddAnchor] = useState<HTMLElement | null>(null);
  const [removeAnchor, setRemoveAnchor] = useState<HTMLElement | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const differentiator = view.collection.differentiator;
  if (actions.readOnly) return null;
  const add = (value: string) => {
    setAddAnchor(null);
    actions.write(addEntryWrites(actions.values, view, value));
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {view.addable.length > 0 && (
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          data-testid={`entry-add-${differentiator.path}`}
          onClick={(event) =>
            props.addLowest
              ? add([...view.addable].sort((a, b) => Number(a) - Number(b))[0]!)
              : setAddAnchor(event.currentTarget)
          }
        >
          {t('orders.editor.addEntry')}
        </Button>
      )}
      {view.removable.length > 0 && (
        <Button
          variant="outlined"
          color="error"
          startIcon={<RemoveIcon />}
          data-testid={`entry-remove-${differentiator.path}`}
          onClick={(event) => setRemoveAnchor(event.currentTarget)}
        >
          {t('orders.editor.removeEntry')}
        </Button>
      )}
      <Menu
        open={addAnchor !== null}
        anchorEl={addAnchor}
        onClose={() => setAddAnchor(null)}
        slotProps={{ paper: { sx: { maxHeight: 300 } } }}
      >
        {view.addable.map((value) => (
          <MenuItem key={value} onClick={() => add(value)} data-testid={`entry-add-option-${value}`}>
            {title(differentiator, value)}
          </MenuItem>
        ))}
      </Menu>
      <Menu
        open={removeAnchor !== null}
        anchorEl={removeAnchor}
        onClose={() => setRemoveAnchor(null)}
        slotProps={{ paper: { sx: { maxHeight: 300 } } }}
      >
        {view.removable.map((value) => (
          <MenuItem
            key={value}
            data-testid={`entry-remove-option-${value}`}
            onClick={() => {
              setRemoveAnchor(null);
              setRemoving(value);
            }}
          >
            {title(differentiator, value)}
          </MenuItem>
        ))}
      </Menu>
      <ConfirmDialog
        open={removing !== null}
        danger
        title={t('orders.editor.removeTitle')}
        message={t('orders.editor.removeQuestion', { entry: removing ? title(differentiator, removing) : '' })}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) actions.write(removeEntryWrites(actions.values, view, removing));
          setRemoving(null);
        }}
      />
    </Box>
  );
}

/**
 * The differentiator of an entry can be changed to an unused value on both sides at once, never emptied
 * (docs/requirements/validation.md#differentiator-values: the previous value is restored).
 */
function DifferentiatorRow({
  view,
  entry,
  actions,
}: {
  view: CollectionView;
  entry: EntryView;
  actions: EditorActions;
}) {
  const { t } = useTranslation();
  const differentiator = view.collection.differentiator;
  const keys = SIDES.filter((side) => entry.entry.exists[side]).map(
    (side) => `${entry.scope[side]}.${differentiator.path}`,
  );
  return (
    <Box sx={{ maxWidth: 320 }}>
      <FieldInput
        field={differentiator}
        stored={actions.values[keys[0] ?? '']}
        dataKey={keys[0] ?? ''}
        label={t(fieldLabelKey(differentiator))}
        readOnly={actions.readOnly}
        required
        choices={[entry.entry.value, ...view.addable]}
        onCommit={(value) => actions.write(keys.map((key) => ({ key, value })))[0]?.issue ?? null}
      />
    </Box>
  );
}

function Entry({ view, entry, actions }: { view: CollectionView; entry: EntryView; actions: EditorActions }) {
  const title = useEntryTitle();
  const differentiator = view.collection.differentiator;
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 2 }} data-testid={`entry-${entry.entry.value}`}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title(differentiator, entry.entry.value)}
      </Typography>
      {!view.collection.fixed && <DifferentiatorRow view={view} entry={entry} actions={actions} />}
      <Rows rows={entry.rows} actions={actions} />
    </Paper>
  );
}

function Chapter({ view, actions }: { view: ChapterView; actions: EditorActions }) {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }} data-testid={`chapter-${view.chapter.id}`}>
      <Typography variant="h6" component="h2">
        {t(`catalogue.chapter.${view.chapter.id}`)}
      </Typography>
      <Rows rows={view.rows} actions={actions} />
      {view.collection && (
        <>
          {view.collection.entries.map((entry) => (
            <Entry key={entry.entry.value} view={view.collection!} entry={entry} actions={actions} />
          ))}
          <EntryPickers view={view.collection} actions={actions} />
        </>
      )}
    </Paper>
  );
}

/** The chapters of a tab as the layout gives them. */
export function TabContent({ view, actions }: { view: TabView; actions: EditorActions }) {
  return (
    <Box sx={{ display: 'grid', gap: 2 }} data-testid={`tab-${view.tab.id}`}>
      {view.chapters.map((chapter) => (
        <Chapter key={chapter.chapter.id} view={chapter} actions={actions} />
      ))}
    </Box>
  );
}
