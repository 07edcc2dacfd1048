import { type UpdateWorkshopRequest, type Workshop, updateWorkshopRequestSchema } from '@vers/domain';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../app/notifications.ts';
import { handledHere, refusal, updateWorkshop } from './workshop-api.ts';

type Values = UpdateWorkshopRequest;
type TextKey = Exclude<keyof Values, 'addLastModifier'>;

function toValues(workshop: Workshop): Values {
  const { name, countryCode, email, phone, fax, revNr, siteId, addLastModifier } = workshop;
  return { name, countryCode, email, phone, fax, revNr, siteId, addLastModifier };
}

const sameValues = (a: Values, b: Values) => (Object.keys(a) as (keyof Values)[]).every((key) => a[key] === b[key]);

/** Input limits as the server checks them (updateWorkshopRequestSchema). */
const FIELDS: {
  key: TextKey;
  maxLength: number;
  type?: string;
  inputMode?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  testId: string;
  wide?: boolean;
}[] = [
  { key: 'name', maxLength: 200, autoComplete: 'organization', testId: 'workshop-name', wide: true },
  { key: 'countryCode', maxLength: 2, autoComplete: 'country', testId: 'workshop-country-code' },
  { key: 'email', maxLength: 254, type: 'email', inputMode: 'email', autoComplete: 'email', testId: 'workshop-email' },
  { key: 'phone', maxLength: 50, type: 'tel', inputMode: 'tel', autoComplete: 'tel', testId: 'workshop-phone' },
  { key: 'fax', maxLength: 50, type: 'tel', inputMode: 'tel', autoComplete: 'off', testId: 'workshop-fax' },
  { key: 'revNr', maxLength: 50, autoComplete: 'off', testId: 'workshop-rev-nr' },
  { key: 'siteId', maxLength: 50, autoComplete: 'off', testId: 'workshop-site-id' },
];

const SWITCH_TEST_ID = { 'data-testid': 'workshop-add-last-modifier' };

/** The message of a field the schema refuses. */
function problemKey(field: TextKey, value: string): string {
  if (field === 'name') return value.trim() === '' ? 'workshop.validation.nameRequired' : 'workshop.validation.tooLong';
  if (field === 'countryCode') return 'workshop.validation.countryCode';
  if (field === 'email') return 'workshop.validation.email';
  return 'workshop.validation.tooLong';
}

export interface WorkshopFormProps {
  workshop: Workshop;
  onSaved: (workshop: Workshop) => void;
}

/** The workshop's own data (docs/requirements/administration.md#workshop-settings). */
export function WorkshopForm({ workshop, onSaved }: WorkshopFormProps) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(() => toValues(workshop));
  const [values, setValues] = useState(saved);
  // Fields the server refused on the last save; cleared when the user changes them.
  const [refused, setRefused] = useState<ReadonlySet<TextKey>>(new Set());
  const [busy, setBusy] = useState(false);

  const parsed = useMemo(() => updateWorkshopRequestSchema.safeParse(values), [values]);
  const invalid = useMemo(() => {
    const fields = new Set<TextKey>();
    if (!parsed.success) for (const issue of parsed.error.issues) fields.add(issue.path[0] as TextKey);
    return fields;
  }, [parsed]);
  const unchanged = sameValues(values, saved);

  const change = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (key !== 'addLastModifier' && refused.has(key as TextKey)) {
      setRefused((current) => new Set([...current].filter((field) => field !== key)));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success || unchanged || busy) return;
    setBusy(true);
    try {
      const answer = await updateWorkshop(workshop.id, parsed.data);
      const next = toValues(answer);
      setSaved(next);
      setValues(next);
      setRefused(new Set());
      notifications.show('workshop.saved', 'success');
      onSaved(answer);
    } catch (error) {
      // The user's input stays in the form, so nothing typed is lost.
      const validation = refusal(error, 400);
      if (validation) {
        const fields = validation.fields
          .map((path) => path.replace(/^body\./, ''))
          .filter((field): field is TextKey => FIELDS.some((f) => f.key === field));
        setRefused(new Set(fields));
      }
      if (handledHere(error)) notifications.show('workshop.saveError', 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" onSubmit={(e) => void submit(e)} noValidate data-testid="workshop-form">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {FIELDS.map((field) => {
          const value = values[field.key];
          const problem = invalid.has(field.key)
            ? t(problemKey(field.key, value), { max: field.maxLength })
            : refused.has(field.key)
              ? t('workshop.validation.refused')
              : field.key === 'countryCode'
                ? t('workshop.fields.countryCodeHint')
                : undefined;
          return (
            <TextField
              key={field.key}
              label={t(`workshop.fields.${field.key}`)}
              name={field.key}
              type={field.type ?? 'text'}
              value={value}
              onChange={(e) =>
                change(field.key, field.key === 'countryCode' ? e.target.value.toUpperCase() : e.target.value)
              }
              required={field.key === 'name'}
              error={invalid.has(field.key) || refused.has(field.key)}
              helperText={problem}
              autoComplete={field.autoComplete}
              fullWidth
              sx={field.wide ? { gridColumn: '1 / -1' } : undefined}
              slotProps={{
                htmlInput: {
                  maxLength: field.maxLength,
                  inputMode: field.inputMode,
                  'data-testid': field.testId,
                  ...(field.key === 'countryCode' ? { autoCapitalize: 'characters', spellCheck: false } : {}),
                },
              }}
            />
          );
        })}
      </Box>
      <Box sx={{ mt: 2 }}>
        <FormControlLabel
          control={
            <Switch
              checked={values.addLastModifier}
              onChange={(e) => change('addLastModifier', e.target.checked)}
              slotProps={{
                input: { 'aria-describedby': 'workshop-add-last-modifier-hint', ...SWITCH_TEST_ID },
              }}
            />
          }
          label={t('workshop.fields.addLastModifier')}
          sx={{ minHeight: 48, mr: 0 }}
        />
        <Typography
          id="workshop-add-last-modifier-hint"
          variant="body2"
          color="text.secondary"
          sx={{ pl: { xs: 0, sm: 6 } }}
        >
          {t('workshop.fields.addLastModifierHint')}
        </Typography>
      </Box>
      <Box sx={{ mt: 3, display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          type="submit"
          variant="contained"
          disabled={!parsed.success || unchanged || busy}
          data-testid="workshop-save"
          sx={{ minWidth: { xs: '100%', sm: 160 } }}
        >
          {t('common.save')}
        </Button>
      </Box>
    </Box>
  );
}
