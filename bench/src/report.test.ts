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

  it('lists every figure with an aim at the top, and names a goal that was met before and is missed now', () => {
    const timed = (saveMs: number, openMs: number): Section => ({
      id: 'browser-orders',
      title: 'orders in Chromium',
      notes: [],
      figures: [
        { name: 'save p95', value: saveMs, unit: 'ms', digits: 1, aim: { text: '< 16 ms', met: saveMs < 16 } },
        { name: 'open', value: openMs, unit: 'ms', digits: 0, baseline: { name: 'read', value: 100 } },
      ],
    });
    const markdown = renderReport({ machine, sections: [timed(20, 300)] }, { machine, sections: [timed(10, 300)] });
    expect(markdown).toContain('_0 of 1 figures within their aim');
    expect(markdown).toContain(
      '| orders in Chromium | save p95 | 20.0 ms | < 16 ms | **missed, was within** | within |',
    );
    expect(markdown.indexOf('## Goals at a glance')).toBeLessThan(markdown.indexOf('## orders in Chromium'));
    const goals = markdown.slice(markdown.indexOf('## Goals at a glance'), markdown.indexOf('## orders in Chromium'));
    expect(goals).not.toContain('| open |');
    expect(renderReport({ machine, sections: [sizes(1, 1)] }, null)).not.toContain('Goals at a glance');
  });
});
