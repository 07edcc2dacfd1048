import { type FieldDef, type Language, formatVehicleNumber } from '@vers/domain';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { versdb } from '../../offline/versdb.ts';
import { useValueText } from '../orders/editor/FieldHistory.tsx';
import { useEntryTitle } from '../orders/editor/TabContent.tsx';
import { fieldLabelKey } from '../orders/editor/labels.ts';
import type { ValueGroup, ValueRow, ValueSection } from './holder-view.ts';

type OptionTexts = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** The value lists' texts in the user's language (list → value → text), as the editor's option fields show them. */
function useOptionTexts(): OptionTexts {
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const lists = useLiveQuery(() => versdb.defaultOptions.where('lang').equals(language).toArray(), [language]);
  return useMemo(
    () => new Map((lists ?? []).map((list) => [list.key, new Map(list.values.map((v) => [v.value, v.text]))])),
    [lists],
  );
}

/** One value as the editor shows it: its label, the value formatted by the field's kind and its unit. */
function Value({ row, options }: { row: ValueRow; options: OptionTexts }) {
  const { t } = useTranslation();
  const valueText = useValueText(row.field);
  const text = shownText(row.field, row.value, options, valueText);
  const unit = row.field.unit ? t(`catalogue.unit.${row.field.unit}`, { defaultValue: row.field.unit }) : null;
  return (
    <Box
      sx={{
        gridColumn: row.field.width === 'full' || row.field.kind === 'textarea' ? '1 / -1' : undefined,
        minWidth: 0,
      }}
      data-testid="holder-value"
      data-key={row.key}
    >
      <Typography variant="body2" color="text.secondary">
        {t(fieldLabelKey(row.field))}
      </Typography>
      <Typography
        sx={{ fontWeight: 500, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
        data-testid="holder-value-text"
      >
        {text}
        {unit ? ` ${unit}` : ''}
      </Typography>
    </Box>
  );
}

/** A vehicle number grouped as printed, an option by its list's text, anything else as the editor's history reads it. */
function shownText(
  field: FieldDef,
  value: unknown,
  options: OptionTexts,
  valueText: (value: unknown) => string,
): string {
  if (field.kind === 'baseString' && typeof value === 'string') return formatVehicleNumber(value);
  if (field.kind === 'option' && field.list && typeof value === 'string')
    return options.get(field.list)?.get(value) ?? value;
  if (field.kind === 'multioption' && field.list && Array.isArray(value))
    return value.map((v) => options.get(field.list!)?.get(String(v)) ?? String(v)).join(', ');
  return valueText(value);
}

function Group({ group, options }: { group: ValueGroup; options: OptionTexts }) {
  const { t } = useTranslation();
  const entryTitle = useEntryTitle();
  return (
    <Box data-testid={`holder-chapter-${group.chapter.id}`}>
      <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600, mb: 1 }}>
        {t(`catalogue.chapter.${group.chapter.id}`)}
        {group.entry ? ` – ${entryTitle(group.entry.differentiator, group.entry.value)}` : ''}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(3, 1fr)' },
          columnGap: 3,
          rowGap: 1.5,
        }}
      >
        {group.rows.map((row) => (
          <Value key={row.key} row={row} options={options} />
        ))}
      </Box>
    </Box>
  );
}

/**
 * The order's outgoing values, read-only, grouped by the catalogue's tabs and chapters with the editor's labels and
 * formatting (issue 22).
 */
export function HolderValues({ sections }: { sections: readonly ValueSection[] }) {
  const { t } = useTranslation();
  const entryTitle = useEntryTitle();
  const options = useOptionTexts();
  if (sections.length === 0)
    return (
      <Typography color="text.secondary" data-testid="holder-values-none">
        {t('holder.order.noValues')}
      </Typography>
    );
  return (
    <Stack spacing={2} data-testid="holder-values">
      {sections.map((section) => (
        <Paper
          key={`${section.tab.id}-${section.entry?.value ?? ''}`}
          variant="outlined"
          sx={{ p: { xs: 2, sm: 3 } }}
          data-testid={`holder-tab-${section.tab.id}`}
        >
          <Typography variant="h6" component="h3" sx={{ mb: 1.5 }}>
            {section.entry
              ? entryTitle(section.entry.differentiator, section.entry.value)
              : t(`catalogue.tab.WAGON.${section.tab.id}`)}
          </Typography>
          <Stack spacing={2.5}>
            {section.groups.map((group) => (
              <Group key={`${group.chapter.id}-${group.entry?.value ?? ''}`} group={group} options={options} />
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
