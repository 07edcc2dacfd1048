// The field catalogue's size per tab, and the time to render its largest tab with every field filled, against
// rendering as many plain MUI text fields in the same process (react-dom/server, the same React and MUI).
import type { Section } from './figures.ts';
import {
  CATALOGUE,
  type OrderType,
  type TabDef,
  type Values,
  allRows,
  attributeValue,
  catalogueTemplates,
  layoutTab,
  perEntrySummary,
  resolveKey,
  rootScope,
} from '@vers/domain';
import TextField from '@mui/material/TextField';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { TabContent } from '../../apps/web/src/features/orders/editor/TabContent.tsx';

/** Fields per tab: the catalogued paths (list fields once, not per entry). */
export function catalogueSize(): { type: OrderType; tab: string; fields: number }[] {
  const sizes: { type: OrderType; tab: string; fields: number }[] = [];
  for (const type of ['WAGON', 'WHEELSET'] as const) {
    const counts = new Map<string, number>();
    for (const template of catalogueTemplates(type)) {
      const key = `${type === 'WAGON' ? '$.Body.Wagen.technicalWaggonOutgoing' : '$.Body.Radsatz.technicalWheelsetOutgoing'}.${template.replaceAll('[]', '[0]')}`;
      const resolved = resolveKey(type, key);
      if (!resolved?.field) continue;
      counts.set(resolved.tab.id, (counts.get(resolved.tab.id) ?? 0) + 1);
    }
    for (const tab of CATALOGUE[type]) sizes.push({ type, tab: tab.id, fields: counts.get(tab.id) ?? 0 });
  }
  return sizes;
}

/** Every slot the tab shows, filled; collections get every entry first, so their fields show too. */
function filledValues(type: OrderType, tab: TabDef): { values: Values; entry: string | undefined } {
  const values: Record<string, unknown> = {};
  const now = new Date();
  // A repeated tab is rendered in one entry: its first value ("all" for the superstructure shows every chapter).
  const entry = tab.perEntry ? perEntrySummary(type, tab, {})?.addable[0] : undefined;
  if (tab.perEntry && entry) {
    for (const side of ['in', 'out'] as const) {
      values[`${rootScope(type)[side]}.${tab.perEntry.path}[0].${tab.perEntry.differentiator.path}`] = attributeValue(
        entry,
        now,
      );
    }
  }
  for (let round = 0; round < 3; round++) {
    const view = layoutTab(type, tab, values, entry);
    for (const chapter of view.chapters) {
      const collection = chapter.collection;
      if (collection) {
        for (const value of collection.addable) {
          for (const side of ['in', 'out'] as const) {
            const index = Object.keys(values).filter((k) =>
              k.endsWith(`.${collection.collection.differentiator.path}`),
            ).length;
            values[
              `${collection.scope[side]}.${collection.collection.path}[${index + 100}].${collection.collection.differentiator.path}`
            ] = attributeValue(value, now);
          }
        }
      }
    }
    for (const row of allRows(layoutTab(type, tab, values, entry))) {
      for (const slot of [row.in, row.out]) {
        if (!slot || values[slot.key] !== undefined) continue;
        const kind = row.field.kind;
        const value =
          kind === 'boolean'
            ? true
            : kind === 'multioption'
              ? ['A']
              : kind === 'date'
                ? '2026-11-22'
                : kind === 'monthAndYear'
                  ? '2026-11'
                  : kind === 'year'
                    ? '2026'
                    : kind === 'double' || kind === 'formula'
                      ? '12'
                      : 'Text';
        values[slot.key] = attributeValue(value, now);
      }
    }
  }
  return { values, entry };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function measureCatalogueRender(runs = 15) {
  const sizes = catalogueSize();
  // The largest tab is the one with the most inputs once every field and list entry is filled.
  const candidates = (['WAGON', 'WHEELSET'] as const).flatMap((type) =>
    CATALOGUE[type].map((tab) => {
      const { values, entry } = filledValues(type, tab);
      const view = layoutTab(type, tab, values, entry);
      const inputs = allRows(view).reduce((n, row) => n + (row.in ? 1 : 0) + (row.out ? 1 : 0), 0);
      return { type, tab, values, view, inputs };
    }),
  );
  const { type, tab, values, view, inputs } = [...candidates].sort((a, b) => b.inputs - a.inputs)[0]!;
  const largest = { type, tab: tab.id };
  const renderTab = () =>
    renderToString(
      createElement(TabContent, {
        view,
        actions: { orderId: 'bench', values, conflicts: new Map(), readOnly: false, write: () => [] },
      }),
    );
  const renderPlain = () =>
    renderToString(
      createElement(
        'div',
        null,
        Array.from({ length: inputs }, (_, i) =>
          createElement(TextField, { key: i, label: `Field ${i}`, value: '12' }),
        ),
      ),
    );
  for (let i = 0; i < 3; i++) {
    renderTab();
    renderPlain();
  }
  const tabTimes: number[] = [];
  const plainTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    let started = performance.now();
    renderTab();
    tabTimes.push(performance.now() - started);
    started = performance.now();
    renderPlain();
    plainTimes.push(performance.now() - started);
  }
  return { sizes, largest, inputs, tabMs: median(tabTimes), plainMs: median(plainTimes), runs };
}

export function catalogueRenderSection(f: ReturnType<typeof measureCatalogueRender>): Section {
  const total = f.sizes.reduce((n, s) => n + s.fields, 0);
  return {
    id: 'catalogue-render',
    title: 'field catalogue and the editor',
    figures: [
      { name: 'fields in the catalogue', value: total, unit: 'fields', digits: 0 },
      {
        name: 'render the largest tab, every field filled',
        value: f.tabMs,
        unit: 'ms',
        digits: 1,
        baseline: { name: `${f.inputs} plain MUI text fields`, value: f.plainMs },
        note: `${f.largest.type.toLowerCase()}/${f.largest.tab}, ${f.inputs} inputs`,
      },
    ],
    notes: [
      `fields per tab: ${f.sizes.map((s) => `${s.type.toLowerCase()}/${s.tab} ${s.fields}`).join(', ')}`,
      `server-side render (react-dom/server), median of ${f.runs}`,
    ],
  };
}
