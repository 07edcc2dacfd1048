import { type OrderType, perEntrySummary, progressColour, type TabDef, tabProgress, type Values } from '@vers/domain';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ENTRY_SEPARATOR } from './tab-title.ts';
import { useEntryTitle } from './TabContent.tsx';

function ProgressBar({ percent, testId, label }: { percent: number; testId: string; label: string }) {
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
        {percent} %
      </Typography>
    </Box>
  );
}

/** The order's tabs with their progress (docs/requirements/orders.md#order-editor). */
export function TabList(props: {
  type: OrderType;
  tabs: readonly TabDef[];
  values: Values;
  active: string;
  onSelect: (tabName: string) => void;
}) {
  const { t } = useTranslation();
  const title = useEntryTitle();
  return (
    <Paper
      component="nav"
      aria-label={t(`catalogue.drawerTitle.${props.type}`)}
      sx={{
        width: { xs: '100%', md: 260 },
        flexShrink: 0,
        alignSelf: 'flex-start',
        position: { md: 'sticky' },
        top: { md: 80 },
      }}
      data-testid="order-tabs"
    >
      <Typography variant="overline" component="h2" sx={{ px: 2, pt: 1.5, display: { xs: 'none', md: 'block' } }}>
        {t(`catalogue.drawerTitle.${props.type}`)}
      </Typography>
      {/* Below the tablet width the tabs scroll sideways in one row, so the fields start near the top. */}
      {/* A div, not a ul: its children are the tab buttons and their entries' buttons, not list items. */}
      <List
        component="div"
        dense
        disablePadding
        sx={{ display: { xs: 'flex', md: 'block' }, overflowX: { xs: 'auto', md: 'visible' } }}
      >
        {props.tabs.map((tab) => {
          const progress = tabProgress(props.type, tab, props.values);
          const entries = perEntrySummary(props.type, tab, props.values)?.entries ?? [];
          return (
            <Box key={tab.id} sx={{ display: { xs: 'contents', md: 'block' } }}>
              <ListItemButton
                selected={props.active === tab.id}
                onClick={() => props.onSelect(tab.id)}
                data-testid={`order-tab-${tab.id}`}
                sx={{ display: 'block', minHeight: 56, flexShrink: 0, minWidth: { xs: 150, md: 'auto' } }}
              >
                <ListItemText primary={t(`catalogue.tab.${props.type}.${tab.id}`)} />
                <ProgressBar
                  percent={progress.percent}
                  testId={`progress-${tab.id}`}
                  label={t('orders.editor.progress', { tab: t(`catalogue.tab.${props.type}.${tab.id}`) })}
                />
              </ListItemButton>
              {tab.perEntry &&
                entries.map(({ entry }) => {
                  const name = `${tab.id}${ENTRY_SEPARATOR}${entry.value}`;
                  return (
                    <ListItemButton
                      key={name}
                      selected={props.active === name}
                      onClick={() => props.onSelect(name)}
                      sx={{ pl: { xs: 2, md: 4 }, minHeight: 48, flexShrink: 0, whiteSpace: 'nowrap' }}
                      data-testid={`order-tab-${name}`}
                    >
                      <ListItemText primary={title(tab.perEntry!.differentiator, entry.value)} />
                    </ListItemButton>
                  );
                })}
            </Box>
          );
        })}
      </List>
    </Paper>
  );
}
