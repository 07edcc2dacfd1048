import { type Language, dateFormats } from '@vers/domain';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DesktopDatePicker } from '@mui/x-date-pickers/DesktopDatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { bgBG, csCZ, deDE, enUS, frFR, huHU, itIT, nlNL, plPL, roRO, svSE, trTR } from '@mui/x-date-pickers/locales';
import type { FieldRef } from '@mui/x-date-pickers/models';
import type { Dayjs } from 'dayjs';
import 'dayjs/locale/bg.js';
import 'dayjs/locale/cs.js';
import 'dayjs/locale/de.js';
import 'dayjs/locale/en-gb.js';
import 'dayjs/locale/fr.js';
import 'dayjs/locale/hu.js';
import 'dayjs/locale/it.js';
import 'dayjs/locale/nl.js';
import 'dayjs/locale/pl.js';
import 'dayjs/locale/ro.js';
import 'dayjs/locale/sv.js';
import 'dayjs/locale/tr.js';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DateKind, FIRST_DAY, LAST_DAY, pickerValue, storedValue } from './date-value.ts';
import { issueMessage, issueValues } from './field-issue.ts';
import type { FieldInputProps } from './FieldInput.tsx';

/**
 * The calendar's language: dayjs's locale (month and weekday names, the week's first day) and MUI X's own texts
 * (buttons, the field's placeholders such as TT.MM.JJ). English is British: the English catalogue writes DD/MM/YY and
 * its weeks begin on Monday, as everywhere else here; MUI X's English texts are the same for both.
 */
const PICKER_LOCALES: Record<Language, { dayjs: string; texts: typeof deDE }> = {
  de: { dayjs: 'de', texts: deDE },
  bg: { dayjs: 'bg', texts: bgBG },
  cs: { dayjs: 'cs', texts: csCZ },
  en: { dayjs: 'en-gb', texts: enUS },
  fr: { dayjs: 'fr', texts: frFR },
  hu: { dayjs: 'hu', texts: huHU },
  it: { dayjs: 'it', texts: itIT },
  nl: { dayjs: 'nl', texts: nlNL },
  pl: { dayjs: 'pl', texts: plPL },
  ro: { dayjs: 'ro', texts: roRO },
  sv: { dayjs: 'sv', texts: svSE },
  tr: { dayjs: 'tr', texts: trTR },
};

/** Room for a gloved finger: the calendar's days and buttons at 44 px instead of MUI X's 36. */
const DAY_PX = 44;
const LARGE_CALENDAR = {
  '& .MuiDateCalendar-root': { width: DAY_PX * 7 + 4 * 7 + 16, maxHeight: 'none', height: 'auto' },
  '& .MuiDayCalendar-weekDayLabel, & .MuiPickerDay-root': { width: DAY_PX, height: DAY_PX, fontSize: '1rem' },
  '& .MuiDayCalendar-slideTransition': { minHeight: (DAY_PX + 4) * 6 },
  '& .MuiPickersArrowSwitcher-button, & .MuiPickersCalendarHeader-switchViewButton': { padding: 1.25 },
  '& .MuiMonthCalendar-root, & .MuiYearCalendar-root': { width: DAY_PX * 7 + 4 * 7 + 16 },
  '& .MuiPickersMonth-monthButton, & .MuiPickersYear-yearButton': { height: DAY_PX, fontSize: '1rem' },
};

/**
 * A date or month field in the format of the UI language (DD.MM.YY, DD/MM/YY in English and French; MM.YYYY),
 * whatever the device's locale: typed section by section, also on a tablet's on-screen keyboard, or picked in the
 * calendar. Saved as TextInput saves: when the field is left or Enter is pressed, or a day is picked, never on every
 * key; stored as ISO (`STORED_DATE_FORMATS`). A date the user has not finished or that does not exist is reverted,
 * with a word why.
 */
export default function DateInput(props: FieldInputProps & { kind: DateKind; text: string }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  // The stored text (YYYY-MM-DD, YYYY-MM, '' when empty); `props.stored` is the attribute, new at each change.
  const { kind, text: stored } = props;
  const [draft, setShownDraft] = useState<Dayjs | null>(() => pickerValue(stored, kind));
  // The draft as of the last change, for a blur that comes before the re-render.
  const draftRef = useRef(draft);
  const setDraft = (value: Dayjs | null) => {
    draftRef.current = value;
    setShownDraft(value);
  };
  const [error, setError] = useState<string | null>(null);
  // As in TextInput: while the user edits (typing, or the calendar open), a value arriving from elsewhere does not
  // overwrite the draft, and leaving without a change saves nothing.
  const editing = useRef(false);
  const dirty = useRef(false);
  const storedAtFocus = useRef<unknown>(props.stored);
  useEffect(() => {
    if (editing.current) return;
    const value = pickerValue(stored, kind);
    draftRef.current = value;
    setShownDraft(value);
  }, [stored, kind]);

  const fieldRef = useRef<FieldRef<Dayjs | null>>(null);

  const beginEditing = () => {
    if (editing.current) return;
    editing.current = true;
    storedAtFocus.current = props.stored;
  };
  const commit = (value: Dayjs | null) => {
    editing.current = false;
    if (!dirty.current) return;
    dirty.current = false;
    setError(null);
    const result = storedValue(value, kind);
    if (!result.ok) {
      setDraft(pickerValue(stored, kind));
      setError(t('orders.editor.invalidDate'));
      return;
    }
    if ((result.value ?? '') === stored) return;
    // No date tells entries apart today; were one to, emptying it is refused as TextInput refuses it (the words
    // under the field: the notifications' module stays out of the picker's chunk).
    if (result.value === null && props.required) {
      setDraft(pickerValue(stored, kind));
      setError(t('orders.editor.differentiatorRequired'));
      return;
    }
    const issue = props.onCommit(result.value, { changedWhileEditing: storedAtFocus.current !== props.stored });
    // Refused by the field's rule: the date stays for the user to correct, with the reason.
    if (issue) {
      dirty.current = true;
      setError(t(`orders.editor.issue.${issueMessage(issue)}`, issueValues(issue)));
    }
  };
  // Left with some parts typed into an empty field (24.MM.JJ): the picker has no value to give, and would keep the
  // parts on screen as if they were saved. They are cleared, with a word why.
  const leave = () => {
    const partial = draftRef.current === null && (fieldRef.current?.getSections() ?? []).some((s) => s.value !== '');
    if (!partial) return commit(draftRef.current);
    editing.current = false;
    dirty.current = false;
    fieldRef.current?.clearValue();
    setError(t('orders.editor.invalidDate'));
  };
  const locale = PICKER_LOCALES[language] ?? PICKER_LOCALES.de;
  // The field's hidden input carries the key, as every field's input does (tests, jumps to a field); as a variable,
  // since MUI X's slot types take data attributes only where declared.
  const dataKey = { 'data-key': props.dataKey };
  const formats = dateFormats(language);
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={locale.dayjs}
      localeText={locale.texts.components.MuiLocalizationProvider.defaultProps.localeText}
    >
      <DesktopDatePicker
        label={props.label}
        value={draft}
        format={kind === 'date' ? formats.date : formats.month}
        views={kind === 'date' ? ['year', 'month', 'day'] : ['year', 'month']}
        openTo={kind === 'date' ? 'day' : 'month'}
        minDate={FIRST_DAY}
        maxDate={LAST_DAY}
        disabled={props.readOnly}
        onChange={(value) => {
          dirty.current = true;
          setDraft(value);
        }}
        onOpen={beginEditing}
        // Closed without a pick (Escape, a tap outside): what the field shows now is the user's decision.
        onClose={() => commit(draftRef.current)}
        // A day (or month) picked in the calendar is the user's decision; typing in the field waits for its end.
        onAccept={(value, context) => {
          if (context.source === 'view') commit(value);
        }}
        slotProps={{
          field: {
            onFocus: beginEditing,
            fieldRef,
            onBlur: leave,
            // Enter leaves the field, as in TextInput; leaving saves.
            onKeyDown: (event: KeyboardEvent) => {
              if (event.key === 'Enter') (event.target as HTMLElement).blur();
            },
          },
          textField: {
            fullWidth: true,
            error: error !== null,
            helperText: error ?? props.warning,
            sx:
              error === null && props.warning
                ? {
                    '& .MuiFormHelperText-root': { color: 'warning.main' },
                    '& fieldset': { borderColor: 'warning.main' },
                  }
                : undefined,
            slotProps: { htmlInput: dataKey },
          },
          openPickerButton: { size: 'large' },
          desktopPaper: { sx: LARGE_CALENDAR },
        }}
      />
    </LocalizationProvider>
  );
}
