import type { FieldDef, TabDef } from '../model.ts';

/**
 * The load limit grid (Lastgrenzenraster, docs/requirements/orders.md#load-limit-grid-data and domain notes): the grid
 * type chosen on the incoming side decides which line-category letters apply; each letter has a payload in t at 100
 * km/h (S) and 120 km/h (SS). The tab filters the letters by that type; the user may switch the filter off
 * (docs/requirements/validation.md#load-limit-filter).
 */
const GRID = 'LoadLimitGrid';
const TYPE = `${GRID}.Lastgrenzenrastertyp`;

/** Line categories of EN 15528 as they appear on grids (A, B1, B2, C2–C4, D2–D4, E4, E5) and the older B, C, D, E. */
export const GRID_LETTERS = [
  'A',
  'B',
  'B1',
  'B2',
  'C',
  'C2',
  'C3',
  'C4',
  'D',
  'D2',
  'D3',
  'D4',
  'E',
  'E4',
  'E5',
] as const;
export const GRID_SPEEDS = ['100', '120'] as const;

const letterField = (letter: string, speed: string): FieldDef => ({
  path: `${GRID}.${letter}${speed}`,
  kind: 'double',
  unit: 't',
  decimals: 1,
  label: `gridLetter${letter}`,
  visibleWhen: { field: TYPE, op: 'hasPart', value: letter, from: 'in', filter: true },
});

const CM_KIND = `${GRID}.CmRasterArt`;
/** The German national CM grid or CM/D grid (domain notes): the switch shows only the chosen kind's fields. */
const cmField = (path: string, kind: 'CM' | 'CMD'): FieldDef => ({
  path: `${GRID}.${path}`,
  kind: 'double',
  unit: 't',
  decimals: 1,
  visibleWhen: { field: CM_KIND, op: 'equals', value: kind },
});

export const loadLimitGridTab: TabDef = {
  id: 'loadLimitGrid',
  filter: { field: TYPE, message: 'orders.editor.gridTypeFirst' },
  chapters: [
    {
      id: 'loadLimitGridBase',
      fields: [
        { path: TYPE, kind: 'option', list: 'ListLastgrenzenrasterTyp', extraEntries: true },
        { path: `${GRID}.Klapptafel`, kind: 'boolean' },
        {
          path: `${GRID}.Ladegut`,
          kind: 'string',
          label: 'loadLimitGridCargo',
          visibleWhen: { field: `${GRID}.Klapptafel`, op: 'equals', value: true },
        },
        { path: `${GRID}.Sterne`, kind: 'option', list: 'ListSterne' },
        { path: `${GRID}.Bremsstellung`, kind: 'option', list: 'ListBremsstellung', label: 'loadLimitGridBraking' },
      ],
    },
    { id: 'loadLimitGrid100', fields: GRID_LETTERS.map((letter) => letterField(letter, '100')) },
    { id: 'loadLimitGrid120', fields: GRID_LETTERS.map((letter) => letterField(letter, '120')) },
    {
      id: 'cmGrid',
      fields: [
        { path: CM_KIND, kind: 'option', choices: ['CM', 'CMD'], ignoreProgress: true },
        cmField('CM2', 'CM'),
        cmField('CM3', 'CM'),
        cmField('CM4', 'CM'),
        cmField('CMD2', 'CMD'),
        cmField('CMD3', 'CMD'),
        cmField('CMD4', 'CMD'),
      ],
    },
  ],
};
