import {
  formatPercent,
  type Language,
  type OrderType,
  perEntrySummary,
  progressColour,
  type TabDef,
  tabProgress,
  type Values,
} from '@vers/domain';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { ENTRY_SEPARATOR } from './tab-title.ts';
import { useEntryTitle } from './TabContent.tsx';

/** A tab's progress as the user's language writes a percentage ("8 %" in German, "%8" in Turkish). */
function usePercentText() {
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  return (percent: number) => formatPercent(percent, language);
}

function ProgressBar({ percent, testId, label }: { percent: number; testId: string; label: string }) {
  const percentText = usePercentText();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <LinearProgress
        aria-label={label}
        variant="determinate"
        value={percent}
        color={progressColour(percent)}
        sx={{ flexGrow: 1, height: 8, borderRadius: 4 }}
        data-testid={testId}
        data-percent={percent}
      />
      <Typography variant="caption" sx={{ minWidth: 36, textAlign: 'right' }}>
        {percentText(percent)}
      </Typography>
    </Box>
  );
}

interface TabItemProps {
  type: OrderType;
  tab: TabDef;
  percent: number;
  /** The differentiator values of a per-entry tab's entries. */
  entries: readonly string[];
  active: string;
  onSelect: (tabName: string) => void;
}

/** One tab with its progress and, for a per-entry tab, its entries. */
function TabItemView({ type, tab, percent, entries, active, onSelect }: TabItemProps) {
  const { t } = useTranslation();
  const title = useEntryTitle();
  return (
    <Box>
      <ListItemButton
        selected={active === tab.id}
        onClick={() => onSelect(tab.id)}
        data-testid={`order-tab-${tab.id}`}
        sx={{ display: 'block', minHeight: 56 }}
      >
        <ListItemText primary={t(`catalogue.tab.${type}.${tab.id}`)} />
        <ProgressBar
          percent={percent}
          testId={`progress-${tab.id}`}
          label={t('orders.editor.progress', { tab: t(`catalogue.tab.${type}.${tab.id}`) })}
        />
      </ListItemButton>
      {tab.perEntry &&
        entries.map((value) => {
          const name = `${tab.id}${ENTRY_SEPARATOR}${value}`;
          return (
            <ListItemButton
              key={name}
              selected={active === name}
              onClick={() => onSelect(name)}
              sx={{ pl: 4, minHeight: 48, whiteSpace: 'nowrap' }}
              data-testid={`order-tab-${name}`}
            >
              <ListItemText primary={title(tab.perEntry!.differentiator, value)} />
            </ListItemButton>
          );
        })}
    </Box>
  );
}

/** A tab renders again only when its progress, its entries or the open tab change (not at every edit). */
const TabItem = memo(
  TabItemView,
  (a, b) =>
    a.type === b.type &&
    a.tab === b.tab &&
    a.percent === b.percent &&
    a.entries.length === b.entries.length &&
    a.entries.every((value, i) => value === b.entries[i]) &&
    a.active === b.active &&
    a.onSelect === b.onSelect,
);

interface TabListProps {
  type: OrderType;
  tabs: readonly TabDef[];
  values: Values;
  active: string;
  onSelect: (tabName: string) => void;
}

/**
 * Below the md breakpoint (phones, a tablet upright): one selector instead of the list, each choice with its
 * progress, so that the fields start near the top and nothing scrolls sideways.
 */
function TabSelect(props: TabListProps) {
  const { t } = useTranslation();
  const percentText = usePercentText();
  const title = useEntryTitle();
  const label = t(`catalogue.drawerTitle.${props.type}`);
  const choices = props.tabs.flatMap((tab) => {
    const name = t(`catalogue.tab.${props.type}.${tab.id}`);
    const percent = tabProgress(props.type, tab, props.values).percent;
    const entries = tab.perEntry
      ? (perEntrySummary(props.type, tab, props.values)?.entries ?? []).map((e) => e.entry.value)
      : [];
    return [
      { id: tab.id, text: name, percent, nested: false },
      ...entries.map((value) => ({
        id: `${tab.id}${ENTRY_SEPARATOR}${value}`,
        text: title(tab.perEntry!.differentiator, value),
        percent: null,
        nested: true,
      })),
    ];
  });
  return (
    <TextField
      select
      fullWidth
      label={label}
      value={choices.some((choice) => choice.id === props.active) ? props.active : ''}
      onChange={(event) => props.onSelect(event.target.value)}
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'order-tab-select' } as object } }}
      data-testid="order-tabs"
    >
      {choices.map((choice) => (
        <MenuItem
          key={choice.id}
          value={choice.id}
          data-testid={`order-tab-${choice.id}`}
          sx={{ pl: choice.nested ? 4 : 2, minHeight: 48 }}
        >
          <Box sx={{ display: 'flex', width: '100%', gap: 2, justifyContent: 'space-between' }}>
            <span>{choice.text}</span>
            {choice.percent !== null && (
              <Typography
                component="span"
                color="text.secondary"
                data-testid={`progress-${choice.id}`}
                data-percent={choice.percent}
              >
                {percentText(choice.percent)}
              </Typography>
            )}
          </Box>
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The order's tabs with their progress (docs/requirements/orders.md#order-editor). */
export function TabList(props: TabListProps) {
  const { t } = useTranslation();
  const compact = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  if (compact) return <TabSelect {...props} />;
  return (
    <Paper
      component="nav"
      aria-label={t(`catalogue.drawerTitle.${props.type}`)}
      sx={{ width: 260, flexShrink: 0, alignSelf: 'flex-start', position: 'sticky', top: 80 }}
      data-testid="order-tabs"
    >
      <Typography variant="overline" component="h2" sx={{ px: 2, pt: 1.5 }}>
        {t(`catalogue.drawerTitle.${props.type}`)}
      </Typography>
      {/* A div, not a ul: its children are the tab buttons and their entries' buttons, not list items. */}
      <List component="div" dense disablePadding>
        {props.tabs.map((tab) => (
          <TabItem
            key={tab.id}
            type={props.type}
            tab={tab}
            percent={tabProgress(props.type, tab, props.values).percent}
            entries={
              tab.perEntry
                ? (perEntrySummary(props.type, tab, props.values)?.entries ?? []).map((e) => e.entry.value)
                : []
            }
            active={props.active}
            onSelect={props.onSelect}
          />
        ))}
      </List>
    </Paper>
  );
}
