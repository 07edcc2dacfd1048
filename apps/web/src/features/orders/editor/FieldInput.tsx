import {
  type FieldDef,
  type Language,
  byText,
  formatDate,
  formatMonth,
  formatNumber,
  type Write,
  formatVehicleNumber,
  normalizeNumericInput,
  validateVehicleNumber,
  valueOf,
  type WriteIssue,
} from '@vers/domain';
import { vehicleNumberMessageKey } from '../vehicle-number-message.ts';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useLiveQuery } from 'dexie-react-hooks';
import { type KeyboardEvent, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { lazyChunk } from '../../../app/chunks.ts';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../../app/notifications.ts';
import { versdb } from '../../../offline/versdb.ts';
import { issueMessage, issueValues } from './field-issue.ts';

export type FieldValue = Write['value'];
/** Why a value does not fit its field (domain `writeIssue`). */
export type FieldIssue = WriteIssue;

export interface FieldInputProps {
  field: FieldDef;
  /** The stored attribute of this side, undefined when empty. */
  stored: unknown;
  /** Full result key, set as `data-key` for tests and the refusal message. */
  dataKey: string;
  label: string;
  readOnly: boolean;
  /**
   * Saves a value; null clears the field. `changedWhileEditing`: the stored value changed (a pull) while the user
   * typed, so the user decided on the value shown before (what the change has seen, for conflicts). Answers why the
   * value does not fit the field (the domain's rule, the server's too), then nothing was saved.
   */
  onCommit: (value: FieldValue, edit?: { changedWhileEditing: boolean }) => FieldIssue | null;
  /**
   * Restores the previous value instead of clearing (differentiators,
   * docs/requirements/validation.md#differentiator-values).
   */
  required?: boolean;
  /** Values a differentiator may take instead of the value list. */
  choices?: readonly string[];
  /** A standard's limit the value breaks: shown under the field as a warning, the value stays. */
  warning?: string;
}

interface Choice {
  value: string;
  text: string;
}

/**
 * The options of a value list in the user's language, sorted by text (docs/requirements/validation.md#option-lists).
 */
function useChoices(list: string | undefined): Choice[] {
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const stored = useLiveQuery(() => (list ? versdb.defaultOptions.get([list, language]) : undefined), [list, language]);
  return useMemo(
    () =>
      (stored?.values ?? [])
        .map((v) => ({ value: v.value, text: v.text }))
        .sort((a, b) => byText(language)(a.text, b.text)),
    [stored, language],
  );
}

const text = (stored: unknown): string => {
  const value = valueOf(stored);
  return typeof value === 'string' ? value : '';
};

const filter = createFilterOptions<Choice>({ stringify: (choice) => `${choice.value} ${choice.text}` });

function OptionInput(props: FieldInputProps) {
  const { t } = useTranslation();
  const { field } = props;
  const listChoices = useChoices(field.list);
  const choices = props.choices ? props.choices.map((value) => ({ value, text: value })) : listChoices;
  const current = text(props.stored);
  const selected = choices.find((c) => c.value === current) ?? (current ? { value: current, text: current } : null);
  const [input, setInput] = useState('');
  const commit = (choice: Choice | string | null) => {
    const value = typeof choice === 'string' ? choice.trim() : (choice?.value ?? '');
    if (value === current) return;
    if (value === '' && props.required) {
      notifications.show('orders.editor.differentiatorRequired', 'warning');
      return;
    }
    props.onCommit(value === '' ? null : value);
  };
  // A free-entry list shows no option popup when nothing matches, so the hint goes under the field.
  const typed = input.trim().toLowerCase();
  const newEntry =
    (field.extraEntries ?? false) &&
    typed !== '' &&
    typed !== (selected?.text ?? '').toLowerCase() &&
    !choices.some((c) => `${c.value} ${c.text}`.toLowerCase().includes(typed));
  // "Generate a new entry with TAB" (docs/requirements/validation.md#option-lists): Tab takes the typed text as a new
  // value where the list allows.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Tab' && field.extraEntries && input.trim() !== '') {
      const match = choices.find((c) => c.text.toLowerCase() === input.trim().toLowerCase());
      commit(match ?? input);
    }
  };
  return (
    <Autocomplete<Choice, false, false, boolean>
      options={choices}
      value={selected}
      freeSolo={field.extraEntries ?? false}
      disabled={props.readOnly}
      filterOptions={filter}
      getOptionLabel={(c) => (typeof c === 'string' ? c : c.text === c.value ? c.value : `${c.text} (${c.value})`)}
      isOptionEqualToValue={(a, b) => (typeof b === 'string' ? a.value === b : a.value === b.value)}
      inputValue={input}
      onInputChange={(_, value) => setInput(value)}
      onChange={(_, choice) => commit(choice)}
      noOptionsText={field.extraEntries ? t('orders.editor.newEntryWithTab') : t('orders.editor.noMatch')}
      slotProps={{ listbox: { style: { maxHeight: 300 } } }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          onKeyDown={onKeyDown}
          helperText={newEntry ? t('orders.editor.newEntryWithTab') : undefined}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-key': props.dataKey } }}
        />
      )}
    />
  );
}

function MultiOptionInput(props: FieldInputProps) {
  const choices = useChoices(props.field.list);
  const value = valueOf(props.stored);
  const current = Array.isArray(value) ? (value as string[]) : [];
  return (
    <Autocomplete<string, true, false, boolean>
      multiple
      options={choices.map((c) => c.value)}
      getOptionLabel={(v) => choices.find((c) => c.value === v)?.text ?? v}
      value={current}
      freeSolo={props.field.extraEntries ?? false}
      disabled={props.readOnly}
      onChange={(_, next) => props.onCommit(next.length === 0 ? null : next)}
      slotProps={{ listbox: { style: { maxHeight: 300 } } }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-key': props.dataKey } }}
        />
      )}
    />
  );
}

function BooleanInput(props: FieldInputProps) {
  const { t } = useTranslation();
  const value = valueOf(props.stored);
  const current = value === true ? 'yes' : value === false ? 'no' : null;
  return (
    <ToggleButtonGroup
      exclusive
      fullWidth
      color="primary"
      value={current}
      disabled={props.readOnly}
      aria-label={props.label}
      data-key={props.dataKey}
      onChange={(_, next: 'yes' | 'no' | null) => props.onCommit(next === null ? null : next === 'yes')}
      sx={{ minHeight: 56 }}
    >
      <ToggleButton value="yes" data-testid="boolean-yes">
        {t('orders.editor.yes')}
      </ToggleButton>
      <ToggleButton value="no" data-testid="boolean-no">
        {t('orders.editor.no')}
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

/**
 * The date picker (MUI X, dayjs and the calendar's 12 languages) loads after the editor has shown, from its own chunk,
 * which the service worker precaches with the rest for offline work.
 */
const DateInput = lazyChunk(() => import('./DateInput.tsx'));

/**
 * Date and month fields: the picker, in the UI language's format. Until its code has arrived (a moment, once) the
 * stored date shows as the picker will show it, in a field that cannot be edited yet.
 */
function DateField(props: FieldInputProps & { kind: 'date' | 'monthAndYear' }) {
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const stored = text(props.stored);
  const fallback = (
    <TextField
      label={props.label}
      value={props.kind === 'date' ? formatDate(stored, language) : formatMonth(stored, language)}
      fullWidth
      disabled
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-key': props.dataKey } }}
    />
  );
  return (
    <Suspense fallback={fallback}>
      <DateInput {...props} text={stored} />
    </Suspense>
  );
}

/**
 * Text-like inputs (string, baseString, textarea, double, year, formula): the value is saved
 * when the field is left or Enter is pressed, never on every key, so a half-typed number is not sent.
 */
function TextInput(props: FieldInputProps) {
  const { t, i18n } = useTranslation();
  const { field } = props;
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const current = text(props.stored);
  // A number as the language writes it ("32,5" in German), as the messages and PDFs do; stored with a dot.
  const display = (value: string) =>
    field.kind === 'baseString'
      ? formatVehicleNumber(value)
      : field.kind === 'double'
        ? formatNumber(value, language)
        : value;
  const shown = display(current);
  const [draft, setDraft] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  // While the user types, a value arriving from elsewhere (the save before, a pull) must not overwrite the
  // draft; and leaving a field without typing saves nothing, so it never writes an old value back.
  const focused = useRef(false);
  const dirty = useRef(false);
  // The stored value when editing began: what the user saw, whatever arrives while they type.
  const storedAtFocus = useRef<unknown>(props.stored);
  useEffect(() => {
    if (!focused.current) setDraft(shown);
  }, [shown]);

  const commit = () => {
    focused.current = false;
    if (!dirty.current) {
      setDraft(shown);
      return;
    }
    dirty.current = false;
    let value = draft.trim();
    setError(null);
    if (field.kind === 'double') {
      const normalized = normalizeNumericInput(value, {
        negatable: field.negatable ?? false,
        ...(field.decimals !== undefined ? { decimals: field.decimals } : {}),
      });
      if (!normalized.ok) {
        // docs/requirements/validation.md#numeric-input: an invalid number is reverted, with a word why.
        setDraft(shown);
        setError(t('orders.editor.invalidNumber'));
        return;
      }
      value = normalized.value;
      setDraft(display(value));
    }
    if (field.kind === 'baseString' && value !== '') {
      const check = validateVehicleNumber(value);
      if (!check.ok) {
        setError(t(vehicleNumberMessageKey(value)));
        return;
      }
      value = check.digits;
      setDraft(formatVehicleNumber(value));
    }
    if (value === current) return;
    if (value === '' && props.required) {
      setDraft(shown);
      notifications.show('orders.editor.differentiatorRequired', 'warning');
      return;
    }
    const issue = props.onCommit(value === '' ? null : value, {
      changedWhileEditing: storedAtFocus.current !== props.stored,
    });
    // Refused by the field's rule: the text stays for the user to correct, with the reason.
    if (issue) {
      dirty.current = true;
      setError(t(`orders.editor.issue.${issueMessage(issue)}`, issueValues(issue)));
    }
  };
  const unit = field.unit ? t(`catalogue.unit.${field.unit}`, { defaultValue: field.unit }) : null;
  const multiline = field.kind === 'textarea';
  return (
    <TextField
      label={props.label}
      value={draft}
      multiline={multiline}
      minRows={multiline ? 2 : undefined}
      fullWidth
      disabled={props.readOnly && field.kind !== 'formula'}
      error={error !== null}
      helperText={error ?? props.warning}
      sx={
        error === null && props.warning
          ? { '& .MuiFormHelperText-root': { color: 'warning.main' }, '& fieldset': { borderColor: 'warning.main' } }
          : undefined
      }
      onChange={(event) => {
        dirty.current = true;
        setDraft(event.target.value);
      }}
      onFocus={() => {
        focused.current = true;
        storedAtFocus.current = props.stored;
      }}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && !multiline) (event.target as HTMLInputElement).blur();
      }}
      lang={i18n.resolvedLanguage}
      slotProps={{
        input: {
          readOnly: field.kind === 'formula' || props.readOnly,
          ...(unit ? { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } : {}),
        },
        htmlInput: {
          'data-key': props.dataKey,
          ...(field.kind === 'double' || field.kind === 'year' ? { inputMode: 'decimal' } : {}),
        },
      }}
    />
  );
}

/**
 * A few fixed codes as a switch: one press chooses, pressing the chosen one again clears. A code with a text
 * (`catalogue.entryValue.<field>.<code>`, a wheelset's direction) shows it; others (CM, CM/D) show as they are.
 */
function ChoiceInput(props: FieldInputProps & { choices: readonly string[] }) {
  const { t } = useTranslation();
  const value = valueOf(props.stored);
  return (
    <ToggleButtonGroup
      exclusive
      fullWidth
      color="primary"
      value={typeof value === 'string' ? value : null}
      disabled={props.readOnly}
      aria-label={props.label}
      data-key={props.dataKey}
      onChange={(_, next: string | null) => props.onCommit(next)}
      sx={{ minHeight: 56 }}
    >
      {props.choices.map((choice) => (
        <ToggleButton key={choice} value={choice} data-testid={`choice-${choice}`}>
          {t(`catalogue.entryValue.${props.field.path}.${choice}`, { defaultValue: choice })}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

/** One side of one field, by the field's kind (docs/requirements/orders.md#field-kinds). */
export function FieldInput(props: FieldInputProps) {
  switch (props.field.kind) {
    case 'option':
      if (props.field.choices && !props.choices) return <ChoiceInput {...props} choices={props.field.choices} />;
      return <OptionInput {...props} />;
    case 'multioption':
      return <MultiOptionInput {...props} />;
    case 'boolean':
      return <BooleanInput {...props} />;
    case 'date':
    case 'monthAndYear':
      return <DateField {...props} kind={props.field.kind} />;
    default:
      return <TextInput {...props} />;
  }
}
