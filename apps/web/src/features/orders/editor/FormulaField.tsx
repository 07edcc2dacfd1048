import { type FieldDef, formatNumber, type Language, valueOf } from '@vers/domain';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/**
 * A calculated field (kind `formula`, docs/requirements/validation.md#calculations): read-only, its stored value
 * shown in the user's language ("1424,300" in German, issue 20), never typed into, so it needs none of an input's
 * draft and commit. It stays focusable, so a screen reader reaches it in the order of the fields.
 */
export function FormulaField(props: {
  field: FieldDef;
  stored: unknown;
  dataKey: string;
  label: string;
  /** A standard's limit the value breaks: shown under the field as a warning. */
  warning?: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const value = valueOf(props.stored);
  const shown = typeof value === 'string' || typeof value === 'number' ? formatNumber(value, language) : '';
  const unit = props.field.unit ? t(`catalogue.unit.${props.field.unit}`, { defaultValue: props.field.unit }) : null;
  return (
    <TextField
      label={props.label}
      value={shown}
      fullWidth
      helperText={props.warning}
      sx={
        props.warning
          ? { '& .MuiFormHelperText-root': { color: 'warning.main' }, '& fieldset': { borderColor: 'warning.main' } }
          : undefined
      }
      lang={language}
      slotProps={{
        input: {
          readOnly: true,
          ...(unit ? { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } : {}),
        },
        htmlInput: { 'data-key': props.dataKey },
      }}
    />
  );
}
