import { type FieldDef, type Language, TAF_VALUES, type TafValueKey, type TafValues } from '@vers/domain';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Suspense, useState } from 'react';
import { lazyChunk } from '../../app/chunks.ts';
import { useTranslation } from 'react-i18next';
import {
  type TafProblem,
  type TafTexts,
  isAdministrative,
  shownTafFields,
  tafHint,
  tafProblem,
  tafValues,
} from './taf-values.ts';

/** The order editor's date picker (its own chunk, precached): dates typed and shown as everywhere in the app. */
const DateInput = lazyChunk(() => import('../orders/editor/DateInput.tsx'));

/**
 * The export dialog's second step for the TAF TSI wagon data (docs/taf-tsi.md): the server answered that the order
 * lacks values the official schema requires (409 EXPORT_INCOMPLETE, `missing`); this asks for exactly those, checks
 * them with the server's rules before sending, and hands them to `onSubmit`, which sends the export again. Values asked
 * once stay (a second answer may ask for more, e.g. the date of a suspension).
 */
export default function TafValuesDialog(props: {
  asked: ReadonlySet<TafValueKey>;
  busy: boolean;
  onSubmit: (values: TafValues) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const [texts, setTexts] = useState<TafTexts>({});
  /** Problems are shown once the user has left a field or tried to send. */
  const [touched, setTouched] = useState<ReadonlySet<TafValueKey>>(new Set());
  const [tried, setTried] = useState(false);
  const shown = shownTafFields(props.asked, texts);

  const set = (key: TafValueKey, text: string) => setTexts((current) => ({ ...current, [key]: text }));
  const touch = (key: TafValueKey) => setTouched((current) => new Set(current).add(key));
  const problemOf = (key: TafValueKey): TafProblem | null =>
    tried || touched.has(key) ? tafProblem(key, texts[key], language) : null;

  const submit = () => {
    setTried(true);
    const result = tafValues(shown, texts, language);
    if (result.ok) props.onSubmit(result.values);
  };

  const field = (key: TafValueKey) => {
    const def = TAF_VALUES[key];
    const label = t(`documents.taf.field.${key}`);
    const problem = problemOf(key);
    const hint = problem ?? tafHint(key, language);
    const helperText = hint ? t(hint.key, hint.values) : undefined;
    const testId = `taf-${key}`;
    const text = texts[key] ?? '';
    switch (def.input.type) {
      case 'date':
        return (
          <Stack key={key}>
            <Suspense fallback={<TextField label={label} disabled fullWidth />}>
              <DateInput
                kind="date"
                field={{ path: key, kind: 'date' } satisfies FieldDef}
                stored={text || undefined}
                text={text}
                dataKey={testId}
                label={label}
                readOnly={false}
                onCommit={(value) => {
                  set(key, typeof value === 'string' ? value : '');
                  touch(key);
                  return null;
                }}
              />
            </Suspense>
            {problem && (
              <FormHelperText error sx={{ mx: 1.75 }} data-testid={`${testId}-problem`}>
                {t(problem.key, problem.values)}
              </FormHelperText>
            )}
          </Stack>
        );
      case 'boolean':
      case 'code': {
        const options =
          def.input.type === 'boolean'
            ? [
                { value: 'true', text: t('documents.taf.yes') },
                { value: 'false', text: t('documents.taf.no') },
              ]
            : def.input.codes.map((code) => ({
                value: code,
                text: `${code} – ${t(`documents.taf.code.${key}.${code}`)}`,
              }));
        return (
          <TextField
            key={key}
            select
            fullWidth
            label={label}
            value={text}
            error={problem !== null}
            helperText={problem ? helperText : undefined}
            onChange={(event) => {
              set(key, event.target.value);
              touch(key);
            }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': testId } as object } }}
          >
            {options.map((option) => (
              <MenuItem key={option.value} value={option.value} data-testid={`${testId}-${option.value}`}>
                {option.text}
              </MenuItem>
            ))}
          </TextField>
        );
      }
      default:
        return (
          <TextField
            key={key}
            fullWidth
            label={label}
            value={text}
            error={problem !== null}
            helperText={helperText}
            onChange={(event) => set(key, event.target.value)}
            onBlur={() => touch(key)}
            slotProps={{
              htmlInput: {
                'data-testid': testId,
                'data-key': testId,
                ...(def.input.type === 'integer' || def.input.type === 'decimal'
                  ? { inputMode: def.input.type === 'integer' ? 'numeric' : 'decimal' }
                  : {}),
                ...(def.input.type === 'country' ? { maxLength: 2, style: { textTransform: 'uppercase' } } : {}),
              },
            }}
          />
        );
    }
  };

  const administrative = shown.filter(isAdministrative);
  const design = shown.filter((key) => !isAdministrative(key));
  const anyProblem = tried && !tafValues(shown, texts, language).ok;
  return (
    <Dialog open onClose={props.onCancel} maxWidth="sm" fullWidth data-testid="taf-dialog">
      <DialogTitle>{t('documents.taf.title')}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>{t('documents.taf.intro')}</Typography>
        <Stack spacing={2}>
          {administrative.length > 0 && (
            <Typography variant="subtitle2" component="h3">
              {t('documents.taf.administrative')}
            </Typography>
          )}
          {administrative.map(field)}
          {design.length > 0 && (
            <Typography variant="subtitle2" component="h3">
              {t('documents.taf.design')}
            </Typography>
          )}
          {design.map(field)}
          {anyProblem && (
            <Alert severity="error" data-testid="taf-problems">
              {t('documents.taf.problems')}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} data-testid="taf-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={props.busy}
          startIcon={props.busy ? <CircularProgress size={20} color="inherit" /> : undefined}
          onClick={submit}
          data-testid="taf-generate"
        >
          {t('documents.generateButton')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
