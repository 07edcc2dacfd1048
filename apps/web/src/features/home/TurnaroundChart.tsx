import type { TurnaroundMonth } from '@vers/domain';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslation } from 'react-i18next';
import { monthLabel } from './dashboard-figures.ts';

/**
 * The median turnaround per month as bars (MUI X Charts, its own chunk: only the dashboard loads it). The theme's
 * colours, so that it reads in both themes; the figures themselves are in the text beside it too.
 */
export default function TurnaroundChart({
  months,
  language,
}: {
  months: readonly TurnaroundMonth[];
  language: string;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const decimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const format = (days: number | null) =>
    days === null ? t('dashboard.noneDone') : t('dashboard.medianDays', { value: decimal.format(days) });
  return (
    <Box
      role="img"
      aria-label={t('dashboard.turnaroundChart', {
        months: months
          .filter((month) => month.medianDays !== null)
          .map((month) => `${monthLabel(month.month, language)}: ${format(month.medianDays)}`)
          .join(', '),
      })}
      data-testid="dashboard-turnaround-chart"
    >
      <BarChart
        height={260}
        hideLegend
        xAxis={[
          {
            scaleType: 'band',
            data: months.map((month) => monthLabel(month.month, language)),
            tickLabelStyle: { fontSize: 12 },
          },
        ]}
        yAxis={[
          {
            label: t('dashboard.daysAxis'),
            width: 56,
            min: 0,
            // At least one day high: a month of same-day completions is a flat bar, not an axis of fractions.
            max: Math.max(1, ...months.map((month) => Math.ceil(month.medianDays ?? 0))),
            valueFormatter: (value: number) => decimal.format(value),
          },
        ]}
        series={[
          {
            data: months.map((month) => (month.medianDays === null ? null : Math.round(month.medianDays * 10) / 10)),
            label: t('dashboard.turnaround'),
            color: theme.palette.primary.main,
            valueFormatter: (value, { dataIndex }) =>
              `${format(value)} (${t('dashboard.doneOrders', { count: months[dataIndex]?.orders ?? 0 })})`,
          },
        ]}
        margin={{ left: 8, right: 8, top: 16, bottom: 8 }}
      />
    </Box>
  );
}
