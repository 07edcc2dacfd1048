// bench/report.md: the figures of one `npm run bench` as Markdown tables (with a bar chart where a section's
// figures share a unit), each beside the same figure of the previous report committed in the repository, and a
// note on the machine. The figures themselves go to bench/report.json, which the next run compares against.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { format, resolveConfig } from 'prettier';
import { CHROMIUM } from '../../e2e/support/browser.ts';
import { type Figure, type Section, formatRatio, ratioOf, withUnit } from './figures.ts';

const REPORT_MD = new URL('../report.md', import.meta.url).pathname;
const REPORT_JSON = new URL('../report.json', import.meta.url).pathname;
const REPORT_JSON_IN_REPO = 'bench/report.json';
const REPO_ROOT = new URL('../../', import.meta.url).pathname;

export interface MachineNote {
  date: string;
  commit: string;
  /** Uncommitted changes in the checkout when the run started (other than the report itself). */
  dirty: boolean;
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  chromium: string;
  /** os.loadavg() (1, 5, 15 min) when the run started and when it ended. */
  loadAtStart: number[];
  loadAtEnd: number[];
  /** The highest 1-minute load average sampled during the run. */
  peakLoad: number;
  /** Wall time of the whole run. */
  durationS: number;
}

export interface ReportData {
  machine: MachineNote;
  sections: Section[];
}

const run = (command: string, args: string[]) => {
  try {
    return execFileSync(command, args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '';
  }
};

/** Starts watching the machine; `finish()` returns the note for the report. */
export function watchMachine() {
  const started = performance.now();
  const loadAtStart = os.loadavg();
  let peakLoad = loadAtStart[0]!;
  const sampler = setInterval(() => (peakLoad = Math.max(peakLoad, os.loadavg()[0]!)), 5_000);
  sampler.unref();
  // At the start: the code measured is the code checked out then (others may commit while the run goes on).
  const commit = run('git', ['rev-parse', 'HEAD']) || 'unknown';
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no'])
    .split('\n')
    .some((line) => line.trim() !== '' && !line.includes('bench/report.'));
  return {
    finish(): MachineNote {
      clearInterval(sampler);
      const loadAtEnd = os.loadavg();
      return {
        date: new Date().toISOString(),
        commit,
        dirty,
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cores: os.cpus().length,
        memoryGb: os.totalmem() / 1024 ** 3,
        node: process.version,
        chromium: run(CHROMIUM, ['--version']) || `unknown (${CHROMIUM})`,
        loadAtStart,
        loadAtEnd,
        peakLoad: Math.max(peakLoad, loadAtEnd[0]!),
        durationS: (performance.now() - started) / 1000,
      };
    },
  };
}

/** The previous report as committed (HEAD); the file on disk when git has none. */
export function previousReport(): ReportData | null {
  const committed = run('git', ['show', `HEAD:${REPORT_JSON_IN_REPO}`]);
  try {
    return JSON.parse(committed || readFileSync(REPORT_JSON, 'utf8')) as ReportData;
  } catch {
    return null;
  }
}

/** How busy the machine was, in words: other work on it slows every figure down. */
export function busyness(note: MachineNote): string {
  const perCore = note.peakLoad / note.cores;
  if (perCore < 0.3) return 'quiet';
  if (perCore < 1) return 'partly busy (other processes ran; figures may be somewhat slower)';
  return 'busy (more runnable processes than cores at times: timings are slower and noisier than on a quiet machine)';
}

const BAR_WIDTH = 30;
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `value` against `max`, in eighths of a character. */
export function bar(value: number, max: number, width = BAR_WIDTH): string {
  if (!Number.isFinite(value) || !(max > 0) || value <= 0) return '';
  const eighths = Math.round((Math.min(value, max) / max) * width * 8);
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
}

const key = (section: Section, figure: Figure) => `${section.id}\u0000${figure.name}`;

function change(figure: Figure, previous: Figure | undefined): string {
  if (!previous || !Number.isFinite(previous.value) || !Number.isFinite(figure.value) || previous.value === 0) {
    return '';
  }
  const percent = (figure.value / previous.value - 1) * 100;
  if (Math.abs(percent) < 0.05) return '±0 %';
  const better = figure.higherIsBetter ? percent > 0 : percent < 0;
  const sign = percent > 0 ? '+' : '−';
  return `${sign}${Math.abs(percent).toFixed(1)} %${Math.abs(percent) >= 5 ? (better ? ' better' : ' **worse**') : ''}`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function sectionMarkdown(section: Section, previous: Map<string, Figure>): string[] {
  const lines = [`## ${section.title}`, ''];
  if (section.notes.length) lines.push(...section.notes.map((note) => `_${cell(note)}_`), '');
  lines.push(
    '| figure | now | previous | change | baseline (same run) | ratio | aim |',
    '| --- | --: | --: | --: | --- | --: | --- |',
  );
  for (const figure of section.figures) {
    const before = previous.get(key(section, figure));
    const value = (v: number | null | undefined) => (v === null || v === undefined ? '' : withUnit(v, figure));
    const ratio = ratioOf(figure);
    const name = figure.note ? `${figure.name} <br><sub>${figure.note}</sub>` : figure.name;
    lines.push(
      `| ${cell(name)} | ${value(figure.value)} | ${before ? value(before.value) : '–'} | ${change(figure, before)} ` +
        `| ${figure.baseline ? cell(`${figure.baseline.name}: ${value(figure.baseline.value)}`) : ''} ` +
        `| ${ratio === null ? '' : formatRatio(ratio)} ` +
        `| ${figure.aim ? `${cell(figure.aim.text)}: ${figure.aim.met ? 'within' : '**missed**'}` : ''} |`,
    );
  }
  lines.push('');
  const charted = section.figures.filter((f) => Number.isFinite(f.value));
  if (section.chart && charted.length >= 2) {
    const max = Math.max(...charted.flatMap((f) => [f.value, previous.get(key(section, f))?.value ?? 0]));
    const nameWidth = Math.max(...charted.map((f) => f.name.length));
    lines.push('```text');
    for (const figure of charted) {
      const before = previous.get(key(section, figure));
      lines.push(
        `${figure.name.padEnd(nameWidth)}  now  ${bar(figure.value, max).padEnd(BAR_WIDTH)} ` +
          withUnit(figure.value, figure),
      );
      if (before && Number.isFinite(before.value)) {
        lines.push(
          `${''.padEnd(nameWidth)}  prev ${bar(before.value, max).replace(/[^ ]/g, '░').padEnd(BAR_WIDTH)} ` +
            withUnit(before.value, figure),
        );
      }
    }
    lines.push('```', '');
  }
  return lines;
}

function machineMarkdown(now: MachineNote, before: MachineNote | undefined): string[] {
  const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(' / ');
  const rows: [string, (m: MachineNote) => string][] = [
    ['date (UTC)', (m) => m.date.replace('T', ' ').replace(/\.\d+Z$/, '')],
    ['git commit', (m) => `${m.commit.slice(0, 12)}${m.dirty ? ' + uncommitted changes' : ''}`],
    ['CPU', (m) => m.cpu],
    ['cores', (m) => String(m.cores)],
    ['memory', (m) => `${m.memoryGb.toFixed(1)} GB`],
    ['Node', (m) => m.node],
    ['Chromium', (m) => m.chromium],
    ['load average 1 / 5 / 15 min, start', (m) => load(m.loadAtStart)],
    ['load average 1 / 5 / 15 min, end', (m) => load(m.loadAtEnd)],
    ['highest 1-min load during the run', (m) => m.peakLoad.toFixed(2)],
    ['the machine was', busyness],
    ['whole run', (m) => `${(m.durationS / 60).toFixed(1)} min`],
  ];
  return [
    '## Machine',
    '',
    '| | this run | previous report |',
    '| --- | --- | --- |',
    ...rows.map(([label, show]) => `| ${label} | ${cell(show(now))} | ${before ? cell(show(before)) : '–'} |`),
    '',
  ];
}

/**
 * Every figure that has an aim, in one table before the sections: a missed goal or one that was met before and is
 * missed now shows at a glance (issue 19 asked for it), without reading every section.
 */
function goalsMarkdown(current: ReportData, previous: Map<string, Figure>): string[] {
  const rows = current.sections.flatMap((section) =>
    section.figures.flatMap((figure) => {
      if (!figure.aim) return [];
      const before = previous.get(key(section, figure))?.aim;
      const was = before ? (before.met ? 'within' : 'missed') : '–';
      const ratio = ratioOf(figure);
      const now = `${withUnit(figure.value, figure)}${ratio === null ? '' : ` (${formatRatio(ratio)})`}`;
      const verdict = figure.aim.met ? 'within' : before?.met ? '**missed, was within**' : '**missed**';
      return [
        `| ${cell(section.title)} | ${cell(figure.name)} | ${cell(now)} | ${cell(figure.aim.text)} | ${verdict} | ${was} |`,
      ];
    }),
  );
  if (!rows.length) return [];
  const met = current.sections.flatMap((s) => s.figures).filter((f) => f.aim?.met).length;
  return [
    '## Goals at a glance',
    '',
    `_${met} of ${rows.length} figures within their aim; each is detailed in its section below._`,
    '',
    '| section | figure | now (ratio) | aim | this run | previous report |',
    '| --- | --- | --: | --- | --- | --- |',
    ...rows,
    '',
  ];
}

export function renderReport(current: ReportData, previous: ReportData | null): string {
  const previousFigures = new Map<string, Figure>();
  for (const section of previous?.sections ?? []) {
    for (const figure of section.figures) previousFigures.set(key(section, figure), figure);
  }
  return [
    '# VERS benchmark report',
    '',
    'Written by `npm run bench` (`bench/src/run-all.ts`); the figures of this run are also in `bench/report.json`, ' +
      'which the next run compares against (as committed at HEAD). Figures, not verdicts: nothing here is asserted ' +
      '(the size budgets are, by `npm run check:budgets` in `npm test`). "baseline" is a reference measured in the ' +
      'same run on the same machine, so its ratio is steadier than the absolute figure; "change" compares with the ' +
      'previous report, which may come from another machine or a busier moment (see the machine table). A change ' +
      'of 5 % or more is marked better or **worse**.',
    '',
    ...machineMarkdown(current.machine, previous?.machine),
    ...goalsMarkdown(current, previousFigures),
    ...current.sections.flatMap((section) => sectionMarkdown(section, previousFigures)),
  ].join('\n');
}

/** Writes the file as Prettier formats it, so that the committed report passes `npm run lint`. */
async function writeFormatted(file: string, text: string) {
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(text, { ...options, filepath: file }));
}

export async function writeReport(current: ReportData): Promise<string> {
  await writeFormatted(REPORT_MD, renderReport(current, previousReport()));
  // NaN (a figure the browser could not measure) becomes null in JSON; the comparison skips it.
  await writeFormatted(REPORT_JSON, JSON.stringify(current, null, 2));
  return REPORT_MD;
}
