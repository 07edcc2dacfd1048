// The shape every benchmark answers in: sections of named figures. The console print and bench/report.md are both
// made from these, so a figure's wording lives in one place (its benchmark's `...Section` function).

export interface Figure {
  /** What was measured. Stable across runs (no measured numbers in it): it is the key against the previous report. */
  name: string;
  value: number;
  unit: string;
  /** Decimals shown. */
  digits: number;
  /** Larger is better (throughput, scores); otherwise smaller is better (times, sizes). */
  higherIsBetter?: boolean;
  /** The reference measured in the same run, where the benchmark has one; the ratio is value / baseline. */
  baseline?: { name: string; value: number };
  /** What the figure aims for, in words ('ratio <= 5x'): reported beside it, never asserted. */
  aim?: { text: string; met: boolean };
  /** Conditions that belong to this figure alone ('median of 5', '3 FAILED requests'). */
  note?: string;
}

export interface Section {
  /** Stable key of the section in the machine-readable report. */
  id: string;
  title: string;
  figures: Figure[];
  /** Conditions of the whole section (sizes, runs, what the baseline is). */
  notes: string[];
  /**
   * Whether the report draws the figures as bars: where they are of one kind (sizes, scores) and read against
   * each other. All figures of a charted section share one unit.
   */
  chart?: boolean;
}

export const formatValue = (value: number, digits: number) =>
  Number.isFinite(value)
    ? value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';

/** The value with its unit, for a figure of that unit. */
export const withUnit = (value: number, figure: Pick<Figure, 'digits' | 'unit'>) =>
  `${formatValue(value, figure.digits)}${figure.unit ? ` ${figure.unit}` : ''}`;

export const ratioOf = (figure: Figure): number | null =>
  figure.baseline && figure.baseline.value !== 0 ? figure.value / figure.baseline.value : null;

export const formatRatio = (ratio: number) => `${ratio.toFixed(ratio >= 10 ? 0 : 2)}x`;

/** The figure as one console line: value, then the baseline and ratio, the aim, the note. */
export function figureLine(figure: Figure): string {
  const parts: string[] = [];
  const ratio = ratioOf(figure);
  if (figure.baseline) {
    parts.push(
      `${figure.baseline.name}: ${withUnit(figure.baseline.value, figure)}` +
        (ratio === null ? '' : `, ratio ${formatRatio(ratio)}`),
    );
  }
  if (figure.aim) parts.push(`aim ${figure.aim.text}: ${figure.aim.met ? 'within' : 'MISSED'}`);
  if (figure.note) parts.push(figure.note);
  return `${figure.name}: ${withUnit(figure.value, figure)}${parts.length ? ` (${parts.join('; ')})` : ''}`;
}

export function printSection(section: Section): void {
  console.log(`${section.title}:`);
  for (const figure of section.figures) console.log(`  ${figureLine(figure)}`);
  for (const note of section.notes) console.log(`  (${note})`);
}
