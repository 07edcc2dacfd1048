import type { ChapterDef, CollectionDef, Condition, FieldDef, Limit } from '../model.ts';
import { bySide } from '../fields.ts';
import { measureIn } from '../fields.ts';

/**
 * The wheelset chapters beyond base data and the main measures (docs/requirements/orders.md#wheelset-tabs,
 * docs/requirements/orders.md#wheelset-data): wheel base data and further wheel measures, axle, axle paintwork,
 * bearings, axle boxes, repairs, audits and the revision deadline. Paths are relative to the wheelset's root:
 * `technicalWheelset{Incoming|Outgoing}` in a wheelset order, a `Understructure.WheelsetCollection.Wheelset[i]` entry
 * in a wagon order. The base fields, AR/SR and the wheels' Sd, Sh, Qr, Laufkreisdurchmesser and Radbauart stay in
 * `tabs.ts`. See docs/field-catalogue/wheelset.md for the choices made where the spec is silent.
 */

const mm = measureIn('mm');
const text = (path: string, label?: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  path,
  kind: 'string',
  ...(label ? { label } : {}),
  ...extra,
});
/** Work done in the workshop exists only on the outgoing side. */
const out: Pick<FieldDef, 'side'> = { side: 'out' };

/** The test results of non-destructive testing (magnetic particle, ultrasonic): new list, see the seed. */
const TEST_RESULT = 'ListPruefergebnis';

/**
 * The two wheels (docs/requirements/orders.md#wheelset-data): the same list as the wheel measures chapter in tabs.ts.
 */
const wheels = (fields: readonly FieldDef[]): CollectionDef => bySide('Wheels.Wheel', 'Side', fields);

/** Bearings by position: two per axle box for cylindrical roller bearings, one per box for a TBU or spherical. */
const bearings = (fields: readonly FieldDef[]): CollectionDef => ({
  path: 'Bearings.Bearing',
  differentiator: { path: 'BearingPosition', kind: 'option', list: 'ListLagerposition', ignoreProgress: true },
  values: ['LI', 'LA', 'RI', 'RA'],
  min: 2,
  max: 4,
  fields,
});

/** Rim width BR (domain notes, EisbBBV Annex 2): 133 mm in international traffic (130 national), at most 145. */
const RIM_WIDTH_LIMITS: readonly Limit[] = [{ min: 133, max: 145, source: 'EisbBBV Anlage 2 / EBO Anlage 6' }];

const wheelBasedata: ChapterDef = {
  id: 'wheelBasedata',
  collection: wheels([
    text('Radnummer'),
    text('Schmelzennummer', 'wheelHeatNumber'),
    text('Radhersteller'),
    { path: 'Herstellungsjahr', kind: 'year', label: 'wheelManufacturingYear' },
    /** EN 13262 steel grade (ER6 to ER9, older R7, R7T...). */
    text('Radwerkstoff'),
    { path: 'Radprofil', kind: 'option', list: 'ListRadprofil', extraEntries: true },
    mm('LaufkreisdurchmesserNeu', 0),
  ]),
};

const wheelMeasuresExtra: ChapterDef = {
  id: 'wheelMeasuresExtra',
  collection: wheels([
    mm('Br', 1, { limits: RIM_WIDTH_LIMITS }),
    mm('Radkranzdicke', 1),
    mm('Hohllauf', 1),
    mm('Radialschlag', 2),
    mm('Axialschlag', 2),
    mm('Flachstellenlaenge', 0),
  ]),
};

const axleBasedata: ChapterDef = {
  id: 'axleBasedata',
  fields: [
    text('Axle.Number', 'axleNumber'),
    text('Axle.Manufacturer', 'axleManufacturer'),
    text('Axle.HeatNumber', 'axleHeatNumber'),
    text('Axle.Type', 'axleType'),
    /** EN 13261 steel grade (EA1N, EA1T, EA4T). */
    text('Axle.SteelGrade', 'axleSteelGrade'),
    { path: 'Axle.ManufacturingYear', kind: 'year', label: 'axleManufacturingYear' },
    { path: 'Axle.DesignLoad', kind: 'double', unit: 't', decimals: 1, label: 'axleDesignLoad' },
  ],
};

/**
 * The two axle journals (stubs) with their seats. The shrink fit is that of the ring shrunk onto the stub
 * (docs/requirements/validation.md#calculations: 1000 × (axle stub bore − ring diameter), in µm), computed in the
 * journal's entry after a save.
 */
const AXLE_JOURNALS: CollectionDef = bySide('Axle.Journals.Journal', 'JournalSide', [
  mm('BearingSeatDiameter', 3, { label: 'bearingSeatDiameter' }),
  mm('WheelSeatDiameter', 3, { label: 'wheelSeatDiameter' }),
  mm('AxleStubBore', 3, { recalculates: 'ShrinkFit' }),
  mm('RingDiameter', 3, { recalculates: 'ShrinkFit' }),
  // Not counted in the progress while nothing fills it: drop `ignoreProgress` when `shrinkFit` is wired in.
  { path: 'ShrinkFit', kind: 'formula', unit: 'µm', decimals: 0, negatable: true, calculation: 'shrinkFit' },
]);

const axleMeasures: ChapterDef = {
  id: 'axleMeasures',
  fields: [mm('Axle.ShaftDiameter', 1, { label: 'axleShaftDiameter' })],
  collection: AXLE_JOURNALS,
};

/** Maker, colour and "done" mean nothing for an unpainted axle. */
const painted: Condition = { field: 'Anstrichart', op: 'in', values: ['NEU', 'AUSBESSERUNG', 'STEINSCHLAG'] };

const axlePaintwork: ChapterDef = {
  id: 'axlePaintwork',
  collection: {
    path: 'Axle.Paintworks.Paintwork',
    differentiator: { path: 'Anstrichart', kind: 'option', list: 'ListAchsanstrich', ignoreProgress: true },
    values: ['NEU', 'AUSBESSERUNG', 'STEINSCHLAG', 'OHNE'],
    min: 0,
    max: 1,
    fields: [
      { path: 'Done', kind: 'boolean', label: 'paintworkDone', side: 'out', visibleWhen: painted },
      text('Maker', 'paintworkMaker', { visibleWhen: painted }),
      text('Colour', 'paintworkColour', { visibleWhen: painted }),
    ],
  },
};

const bearingsChapter: ChapterDef = {
  id: 'bearings',
  collection: bearings([
    { path: 'BearingType', kind: 'option', list: 'ListLagerbauart', uniform: true, label: 'bearingType' },
    {
      path: 'Grease',
      kind: 'option',
      list: 'ListLagerfett',
      extraEntries: true,
      uniform: true,
      label: 'bearingGrease',
    },
    { path: 'CaseMaterial', kind: 'option', list: 'ListLagergehaeusewerkstoff', label: 'bearingCaseMaterial' },
    mm('InnerRingDiameter', 3),
    text('Manufacturer', 'bearingManufacturer'),
    text('SerialNumber', 'bearingSerialNumber'),
    text('Designation', 'bearingDesignation'),
    { path: 'ManufacturingDate', kind: 'monthAndYear', label: 'bearingManufacturingDate' },
    { path: 'ExaminationResult', kind: 'option', list: 'ListZustand', label: 'bearingExaminationResult' },
  ]),
};

const bearingHousings: ChapterDef = {
  id: 'bearingHousings',
  collection: bySide('BearingHousings.BearingHousing', 'HousingSide', [
    text('Number', 'bearingHousingNumber'),
    text('Manufacturer', 'bearingHousingManufacturer'),
    mm('BoreDiameter', 2, { label: 'bearingHousingBoreDiameter' }),
    text('CoverType', 'bearingHousingCoverType'),
    { path: 'EarthingDevice', kind: 'boolean', label: 'axleBoxEarthingDevice' },
    { path: 'Condition', kind: 'option', list: 'ListZustand', label: 'bearingHousingCondition' },
  ]),
};

const repairsAxle: ChapterDef = {
  id: 'repairsAxle',
  fields: [
    text('Repairs.Axle.AssemblyNorm', 'wheelsetAssemblyNorm'),
    {
      path: 'Repairs.Axle.MagneticParticleResult',
      kind: 'option',
      list: TEST_RESULT,
      label: 'axleMagneticParticleResult',
      ...out,
    },
    { path: 'Repairs.Axle.MagneticParticleDate', kind: 'date', label: 'axleMagneticParticleDate', ...out },
    { path: 'Repairs.Axle.UltrasonicResult', kind: 'option', list: TEST_RESULT, label: 'axleUltrasonicResult', ...out },
    { path: 'Repairs.Axle.UltrasonicDate', kind: 'date', label: 'axleUltrasonicDate', ...out },
    text('Repairs.Axle.NdtInspector', 'wheelsetNdtInspector', out),
    { path: 'Repairs.Axle.Renewed', kind: 'boolean', label: 'axleRenewed', ...out },
    {
      path: 'Repairs.Axle.Remark',
      kind: 'textarea',
      width: 'full',
      ignoreProgress: true,
      label: 'axleRepairRemark',
      ...out,
    },
  ],
};

const reprofiled: Condition = { field: 'Repair.Reprofiled', op: 'equals', value: true };
const wheelRenewed: Condition = { field: 'Repair.Renewed', op: 'equals', value: true };

/** The wheels' repairs, left and right side by side ("wheels in split view"). */
const repairsWheels: ChapterDef = {
  id: 'repairsWheels',
  collection: wheels([
    { path: 'Repair.Reprofiled', kind: 'boolean', label: 'wheelReprofiled', ...out },
    {
      path: 'Repair.Profile',
      kind: 'option',
      list: 'ListRadprofil',
      extraEntries: true,
      label: 'reprofilingProfile',
      visibleWhen: reprofiled,
      ...out,
    },
    { path: 'Repair.UltrasonicResult', kind: 'option', list: TEST_RESULT, label: 'wheelUltrasonicResult', ...out },
    { path: 'Repair.Renewed', kind: 'boolean', label: 'wheelRenewed', ...out },
    {
      path: 'Repair.PressFitForce',
      kind: 'double',
      unit: 'kN',
      decimals: 0,
      label: 'wheelPressFitForce',
      visibleWhen: wheelRenewed,
      ...out,
    },
  ]),
};

const repairsBearing: ChapterDef = {
  id: 'repairsBearing',
  collection: bearings([
    {
      path: 'Repair.Examination',
      kind: 'option',
      list: 'ListLageruntersuchung',
      extraEntries: true,
      label: 'bearingExamination',
      ...out,
    },
    { path: 'Repair.ExaminationDate', kind: 'date', label: 'bearingExaminationDate', ...out },
    text('Repair.GreaseBatch', 'bearingGreaseBatch', out),
  ]),
};

/**
 * The wheelset maintenance levels (ListRadsatzInstandhaltungsstufe). The level is a suffix of the path segment,
 * as a segment must start with a letter (`3L`).
 */
export const WHEELSET_AUDIT_LEVELS = ['IS1', 'IS2', 'IS3', 'IL', 'D', '3L'] as const;

const audits: ChapterDef = {
  id: 'audits',
  fields: WHEELSET_AUDIT_LEVELS.flatMap((level): FieldDef[] => [
    text(`Audits.Workshop${level}`, `auditWorkshop${level}`),
    { path: `Audits.Date${level}`, kind: 'date', label: `auditDate${level}` },
  ]),
};

const wheelsetRevisionDeadline: ChapterDef = {
  id: 'wheelsetRevisionDeadline',
  fields: [
    {
      path: 'RevisionDeadline.Revisionszyklus',
      kind: 'double',
      unit: 'years',
      decimals: 0,
      label: 'wheelsetRevisionCycle',
    },
    {
      path: 'RevisionDeadline.Revisionsfristverlaengerung',
      kind: 'double',
      unit: 'months',
      decimals: 0,
      label: 'wheelsetDeadlineExtension',
    },
    { path: 'RevisionDeadline.DatumLetzteFrist', kind: 'date', label: 'wheelsetLastDeadline' },
    { path: 'RevisionDeadline.NextDueDate', kind: 'date', label: 'wheelsetNextDueDate', deadline: true },
    {
      path: 'RevisionDeadline.NextMaintenanceLevel',
      kind: 'option',
      list: 'ListRadsatzInstandhaltungsstufe',
      extraEntries: true,
      label: 'wheelsetNextMaintenanceLevel',
    },
  ],
};

/** The wheelset chapters the lead places into the wheelset order's tabs and a wagon order's wheelsets. */
export const WHEELSET_EXTRA_CHAPTERS = {
  wheelBasedata,
  wheelMeasuresExtra,
  axleBasedata,
  axleMeasures,
  axlePaintwork,
  bearings: bearingsChapter,
  bearingHousings,
  repairsAxle,
  repairsWheels,
  repairsBearing,
  audits,
  wheelsetRevisionDeadline,
} satisfies Record<string, ChapterDef>;

/**
 * Proposed chapters per wheelset-order tab (docs/requirements/orders.md#wheelset-tabs), in drawer order.
 * `wheelsetBasedata`, `wheelsetMeasures` and `wheels` are the chapters of tabs.ts. The SR calculation finds its inputs
 * across the tabs of one scope, so AR/SR (measures) and the wheels' Sd (wheelMeasures) may sit in different tabs.
 */
export const WHEELSET_TAB_LAYOUT: { tabId: string; chapters: string[] }[] = [
  { tabId: 'basedata', chapters: ['wheelsetBasedata'] },
  { tabId: 'measures', chapters: ['wheelsetMeasures'] },
  { tabId: 'wheelBasedata', chapters: ['wheelBasedata'] },
  { tabId: 'wheelMeasures', chapters: ['wheels', 'wheelMeasuresExtra'] },
  { tabId: 'axleBasedata', chapters: ['axleBasedata'] },
  { tabId: 'axleMeasures', chapters: ['axleMeasures'] },
  { tabId: 'bearing', chapters: ['bearings'] },
  { tabId: 'bearingHousing', chapters: ['bearingHousings'] },
  { tabId: 'repairs', chapters: ['repairsAxle', 'axlePaintwork', 'repairsWheels', 'repairsBearing'] },
  { tabId: 'audits', chapters: ['audits'] },
  { tabId: 'revisionDeadline', chapters: ['wheelsetRevisionDeadline'] },
];

/**
 * The chapters of each wheelset of a wagon order (docs/requirements/orders.md#wheelset-tabs: base data, wheel base
 * data, audits, axle base data, axle paintwork, bearing, bearing housing, wheel measures). "Wheel measures" is AR/SR
 * plus both wheels' measures.
 */
export const WAGON_WHEELSET_CHAPTERS: string[] = [
  'wheelsetBasedata',
  'wheelBasedata',
  'audits',
  'axleBasedata',
  'axlePaintwork',
  'bearings',
  'bearingHousings',
  'wheelsetMeasures',
  'wheels',
  'wheelMeasuresExtra',
];
