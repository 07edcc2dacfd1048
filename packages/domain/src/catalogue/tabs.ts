import type { OrderType } from '../orders/status.ts';
import { bySide, measureIn, numbers } from './fields.ts';
import type { ChapterDef, CollectionDef, Condition, FieldDef, Limit, TabDef } from './model.ts';
import { brakeTab } from './wagon/brake.ts';
import { WAGON_WHEELSET_CHAPTERS, WHEELSET_EXTRA_CHAPTERS, WHEELSET_TAB_LAYOUT } from './wheelset/chapters.ts';
import { drawAndBufferingGearTab } from './wagon/draw-buffing.ts';
import { labelingTab, mobileServiceTab, revisionDeadlineTab } from './wagon/general.ts';
import { loadLimitGridTab } from './wagon/load-limit-grid.ts';
import {
  additionalGridTab,
  aggreementGridTab,
  loadAddressTab,
  superstructureTab,
  tankTab,
} from './wagon/superstructure.ts';

/**
 * The field catalogue (docs/requirements/orders.md#field-catalogue): every tab, chapter, collection and field of an
 * order as data. Paths are relative to `technicalWaggon{Incoming|Outgoing}` or `technicalWheelset{Incoming|Outgoing}`;
 * labels live in the `catalogue` language files under the last path segment (or `label`).
 */

const count: Pick<FieldDef, 'kind' | 'decimals'> = { kind: 'double', decimals: 0 };
const mm = measureIn('mm');

/** In-service limits of wheelset measures by tread diameter D (domain notes: EisbBBV Annex 2, EBO Annex 6). */
const LIMITS_SOURCE = 'EisbBBV Anlage 2 / EBO Anlage 6';
const diameter = (field: string) => ({
  above840: { field, op: 'moreThan', value: 840 } as Condition,
  from330: { field, op: 'atLeast', value: 330 } as Condition,
  from630: { field, op: 'atLeast', value: 630 } as Condition,
  from760: { field, op: 'atLeast', value: 760 } as Condition,
});
const wheelD = diameter('Laufkreisdurchmesser');
/** SR and AR depend on the wheels' diameter; the left wheel's stands for both (they are turned together). */
const wheelsetD = diameter('Wheels.Wheel[0].Laufkreisdurchmesser');
const limits = (...list: Omit<Limit, 'source'>[]): Limit[] =>
  list.map((limit) => ({ ...limit, source: LIMITS_SOURCE }));

/** A running gear's fields: the base bogie of a two-axle wagon and each bogie of a bogie wagon share them. */
const runningGearFields: readonly FieldDef[] = [
  { path: 'productIdentifier', kind: 'string' },
  { path: 'type', kind: 'string', label: 'bogieType' },
  { path: 'Federungsart', kind: 'string' },
  mm('Achsabstand', 0),
  mm('Z8Links', 1),
  mm('Z8Rechts', 1),
];

const BOGIES: CollectionDef = {
  path: 'Understructure.BogieCollection.Bogie',
  differentiator: { path: 'PositionDrehgestell', kind: 'option', ignoreProgress: true },
  values: numbers(1, 6),
  min: 0,
  max: 6,
  countField: 'AnzahlDrehgestelle',
  fields: runningGearFields,
};

const wagonBasedata: TabDef = {
  id: 'basedata',
  chapters: [
    {
      id: 'wagon',
      fields: [
        { path: 'Waggonnummer', kind: 'baseString' },
        { path: 'Halterkurzkennzeichen', kind: 'string' },
        { path: 'EntryDate', kind: 'date', side: 'in' },
        { path: 'ExitDate', kind: 'date', side: 'out' },
        { path: 'OverhaulDate', kind: 'date' },
        {
          path: 'ExecutedMaintenanceLevel',
          kind: 'option',
          list: 'ListRevisionsstufe',
          extraEntries: true,
          side: 'out',
        },
        { path: 'RevisionType', kind: 'option', list: 'ListRevisionsstufe', extraEntries: true },
        { path: 'Eigengewicht', kind: 'double', unit: 'kg', decimals: 0 },
        { path: 'AnzahlTeilfahrzeuge', ...count },
        { path: 'AnzahlAchsen', ...count },
        { path: 'AnzahlDrehgestelle', ...count },
        { path: 'AllowableAxleLoad', kind: 'double', unit: 't', decimals: 1 },
        { path: 'LetztesLadegut', kind: 'string', side: 'in' },
        { path: 'TemperaturbereichgemaessTSI', kind: 'option', list: 'ListTemperaturbereich' },
        { path: 'TSIApproval', kind: 'boolean' },
        {
          path: 'TSIZulassungsstelle',
          kind: 'string',
          visibleWhen: { field: 'TSIApproval', op: 'equals', value: true },
        },
        { path: 'Bemerkung', kind: 'textarea', width: 'full', ignoreProgress: true },
      ],
    },
    {
      id: 'baseBogie',
      visibleWhen: { field: 'AnzahlAchsen', op: 'atMost', value: 2 },
      fields: runningGearFields.map((field) => ({ ...field, path: `Understructure.BaseBogie.${field.path}` })),
    },
    { id: 'bogies', visibleWhen: { field: 'AnzahlAchsen', op: 'moreThan', value: 2 }, collection: BOGIES },
  ],
};

/** The two wheels of a wheelset, by side (docs/requirements/orders.md#wheelset-data). */
const WHEELS: CollectionDef = bySide('Wheels.Wheel', 'Side', [
  mm('Sd', 1, {
    recalculates: 'SrMass',
    limits: limits(
      { when: wheelD.above840, min: 22, max: 33 },
      { when: wheelD.from330, min: 27.5, max: 33 },
      { min: 22, max: 33 },
    ),
  }),
  mm('Sh', 1, {
    limits: limits(
      { when: wheelD.from760, min: 27.5, max: 36 },
      { when: wheelD.from630, min: 30, max: 36 },
      { when: wheelD.from330, min: 32, max: 36 },
      { min: 27.5, max: 36 },
    ),
  }),
  mm('Qr', 1, { limits: limits({ min: 6.5 }) }),
  mm('Laufkreisdurchmesser', 0),
  { path: 'Radbauart', kind: 'string' },
]);

/** Wheelset base data; in a wagon order the position is the entry's differentiator and not repeated. */
const wheelsetBaseFields: readonly FieldDef[] = [
  { path: 'Wheelsetnumber', kind: 'baseString' },
  { path: 'Type', kind: 'option', list: 'ListRadsatzbauart', extraEntries: true, label: 'wheelsetType' },
  { path: 'OwnerMark', kind: 'string' },
  { path: 'DismountDate', kind: 'date', side: 'in' },
  { path: 'MountDate', kind: 'date', side: 'out' },
  { path: 'StampedMountingDate', kind: 'monthAndYear' },
  { path: 'RemovalReason', kind: 'option', list: 'ListAusbaugrund', side: 'in' },
  { path: 'MaintenanceLevel', kind: 'option', list: 'ListRadsatzInstandhaltungsstufe', side: 'out' },
  { path: 'CaseType', kind: 'string' },
  { path: 'State', kind: 'option', list: 'ListZustand' },
];

const wheelsetMeasureFields: readonly FieldDef[] = [
  mm('ArDimension', 1, {
    recalculates: 'SrMass',
    limits: limits(
      { when: wheelsetD.above840, min: 1357, max: 1363 },
      { when: wheelsetD.from330, min: 1359, max: 1363 },
      { min: 1357, max: 1363 },
    ),
  }),
  {
    ...mm('SrMass', 3),
    kind: 'formula',
    calculation: 'srMass',
    limits: limits(
      { when: wheelsetD.above840, min: 1410, max: 1426 },
      { when: wheelsetD.from330, min: 1415, max: 1426 },
      { min: 1410, max: 1426 },
    ),
  },
];

/**
 * The ways a wheelset may sit in its wagon (docs/requirements/orders.md#wheelset-swap): as marked (its reference side,
 * bearing 1, on the wagon's side 1) or turned end for end, which wheelset shops do to even out flange wear.
 */
export const WHEELSET_DIRECTIONS = ['NORMAL', 'TURNED'] as const;
export type WheelsetDirection = (typeof WHEELSET_DIRECTIONS)[number];

/**
 * What only a wheelset in a wagon has: the way it is mounted, and the XML import it was mounted from (the wheelset
 * swap, PATCH orders/{id}).
 */
const wagonWheelsetFields: readonly FieldDef[] = [
  { path: 'Direction', kind: 'option', choices: WHEELSET_DIRECTIONS, ignoreProgress: true, label: 'wheelsetDirection' },
  { path: 'AssetId', kind: 'string', side: 'out', ignoreProgress: true, label: 'wheelsetAssetId' },
];

/** Every wheelset chapter by id: the base data and measures here, the rest from wheelset/chapters.ts. */
const WHEELSET_CHAPTERS: Record<string, ChapterDef> = {
  wheelsetBasedata: { id: 'wheelsetBasedata', fields: wheelsetBaseFields },
  wheelsetMeasures: { id: 'wheelsetMeasures', fields: wheelsetMeasureFields },
  wheels: { id: 'wheels', collection: WHEELS },
  ...WHEELSET_EXTRA_CHAPTERS,
};

const chapter = (id: string): ChapterDef => {
  const found = WHEELSET_CHAPTERS[id];
  if (!found) throw new Error(`catalogue: no wheelset chapter ${id}`);
  return found;
};

/**
 * A wagon's wheelset shows the wheelset chapters in docs/requirements/orders.md#wheelset-tabs, its position being the
 * entry's differentiator.
 */
const wheelsetChapters: readonly ChapterDef[] = WAGON_WHEELSET_CHAPTERS.map((id) =>
  id === 'wheelsetBasedata' ? { id, fields: [...wheelsetBaseFields, ...wagonWheelsetFields] } : chapter(id),
);

/** The wagon's wheelsets, by position; the server writes the outgoing ones when the order is created. */
export const WAGON_WHEELSETS: CollectionDef = {
  path: 'Understructure.WheelsetCollection.Wheelset',
  differentiator: { path: 'Position', kind: 'option', ignoreProgress: true },
  values: numbers(1, 8),
  min: 2,
  max: 8,
  countField: 'AnzahlAchsen',
  summaryField: 'Wheelsetnumber',
  fields: [],
};

const wagonWheelsets: TabDef = { id: 'wheelsets', perEntry: WAGON_WHEELSETS, chapters: wheelsetChapters };

/** A wheelset order's tabs; its base data also names the position the wheelset had in its wagon. */
const wheelsetTabs: readonly TabDef[] = WHEELSET_TAB_LAYOUT.map(({ tabId, chapters }) => ({
  id: tabId,
  chapters: chapters.map((id) =>
    id === 'wheelsetBasedata'
      ? {
          id,
          fields: [{ path: 'Position', kind: 'string', label: 'wheelsetPosition' } as FieldDef, ...wheelsetBaseFields],
        }
      : chapter(id),
  ),
}));

/** The tabs of each order type, in drawer order. Tabs join as their chapters are catalogued (issue 5). */
export const CATALOGUE: Record<OrderType, readonly TabDef[]> = {
  WAGON: [
    wagonBasedata,
    labelingTab,
    revisionDeadlineTab,
    loadLimitGridTab,
    loadAddressTab,
    additionalGridTab,
    aggreementGridTab,
    brakeTab,
    drawAndBufferingGearTab,
    superstructureTab,
    tankTab,
    mobileServiceTab,
    wagonWheelsets,
  ],
  WHEELSET: wheelsetTabs,
};

export function findTab(type: OrderType, tabId: string | undefined): TabDef | undefined {
  return CATALOGUE[type].find((tab) => tab.id === tabId);
}
