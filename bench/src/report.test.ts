import { describe, expect, it } from 'vitest';
import type { Section } from './figures.ts';
import { type MachineNote, type ReportData, bar, renderReport } from './report.ts';

const machine: MachineNote = {
  date: '2026-11-24T03:00:00.000Z',
  commit: '0123456789abcdef',
  dirty: false,
  cpu: 'Test CPU',
  cores: 2,
  memoryGb: 8,
  node: 'v20.20.2',
  chromium: 'Chromium 1.0',
  loadAtStart: [2.5, 2, 1],
  loadAtEnd: [3, 2, 1],
  peakLoad: 3.5,
  durationS: 600,
};

const sizes = (login: number, orders: number): Section => ({
  id: 'bundles',
  title: 'web app JavaScript',
  notes: [],
  chart: true,
  figures: [
    { name: 'login screen', value: login, unit: 'KB', digits: 1 },
    { name: 'route orders', value: orders, unit: 'KB', digits: 1 },
  ],
});

describe('bar', () => {
  it('draws eighths of a character, the maximum as the full width', () => {
    expect(bar(10, 10, 4)).toBe('████');
    expect(bar(5, 10, 4)).toBe('██');
    expect(bar(1, 10, 4)).toBe('▍');
    expect(bar(Number.NaN, 10, 4)).toBe('');
  });
});

describe('renderReport', () => {
  const current: ReportData = { machine, sections: [sizes(260, 50)] };

  it('compares each figure with the same figure of the previous report', () => {
    const previous: ReportData = { machine, sections: [sizes(250, 50)] };
    const markdown = renderReport(current, previous);
    expect(markdown).toContain('| login screen | 260.0 KB | 250.0 KB | +4.0 % |');
    expect(markdown).toContain('| route orders | 50.0 KB | 50.0 KB | ±0 % |');
    expect(markdown).toMatch(/login screen\s+now {2}█+\s+260\.0 KB\n\s+prev ░+/);
  });

  it('marks a change of 5 % or more, worse for a size that grew', () => {
    const markdown = renderReport(current, { machine, sections: [sizes(240, 60)] });
    expect(markdown).toContain('| +8.3 % **worse** |');
    expect(markdown).toContain('| −16.7 % better |');
  });

  it('says how busy the machine was, and shows a dash without a previous report', () => {
    const markdown = renderReport(current, null);
    expect(markdown).toContain('| the machine was | busy');
    expect(markdown).toContain('| login screen | 260.0 KB | – |');
  });
});
