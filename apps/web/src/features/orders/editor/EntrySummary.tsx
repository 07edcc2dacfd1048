import { formatVehicleNumber, type OrderType, perEntrySummary, type TabDef, valueOf } from '@vers/domain';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ENTRY_SEPARATOR } from './tab-title.ts';
import { type EditorActions, EntryPickers, useEntryTitle } from './TabContent.tsx';

/** The summary of a repeated tab: the incoming and outgoing wheelsets side by side, with add and remove. */
export function EntrySummary(props: {
  type: OrderType;
  tab: TabDef;
  actions: EditorActions;
  onOpen: (tabName: string) => void;
}) {
  const { t } = useTranslation();
  const title = useEntryTitle();
  const view = perEntrySummary(props.type, props.tab, props.actions.values);
  if (!view) return null;
  const summaryField = view.collection.summaryField;
  const summaryOf = (scope: string) =>
    summaryField ? valueOf(props.actions.values[`${scope}.${summaryField}`]) : null;
  // Positions (numbers) are added lowest first without asking (docs/requirements/orders.md#differentiator-entries);
  // other values are picked.
  const values = view.collection.values;
  const numbered = Array.isArray(values) && (values as readonly string[]).every((v) => /^\d+$/.test(v));
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }} data-testid="entry-summary">
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
        {(['in', 'out'] as const).map((side) => (
          <Box key={side}>
            <Typography variant="h6" component="h2">
              {t(`orders.editor.entries.${side}`, {
                entries: t(`catalogue.tab.${props.type}.${props.tab.id}`),
              })}
            </Typography>
            <List dense data-testid={`wheelsets-${side}`}>
              {view.entries
                .filter((entry) => entry.entry.exists[side])
                .map((entry) => {
                  const summary = summaryOf(entry.scope[side]);
                  return (
                    <ListItem key={entry.entry.value} disablePadding>
                      <ListItemButton
                        onClick={() => props.onOpen(`${props.tab.id}${ENTRY_SEPARATOR}${entry.entry.value}`)}
                      >
                        <ListItemText
                          primary={title(view.collection.differentiator, entry.entry.value)}
                          secondary={
                            summaryField
                              ? typeof summary === 'string' && summary !== ''
                                ? formatVehicleNumber(summary)
                                : '—'
                              : undefined
                          }
                        />
                      </ListItemButton>
                    </ListItem>
                  );
                })}
            </List>
          </Box>
        ))}
      </Box>
      <EntryPickers view={view} actions={props.actions} addLowest={numbered} />
    </Paper>
  );
}
