import type { CollectionDef, FieldDef, TabDef } from '../model.ts';
import { measure, numbers } from '../fields.ts';

/**
 * The wagon's brake tab (docs/requirements/orders.md#brake-chapters, docs/requirements/orders.md#brake-data): the brake
 * as a whole, then its components in the spec's chapter order. Everything lives below `Understructure.Brake`;
 * components a wagon may have several of are collections keyed by a position number.
 */

const BRAKE = 'Understructure.Brake';

const mm = measure('mm', 0);
const tonnes = measure('t', 1);

/** A position differentiator: a number, never counted in the progress. */
const position = (path: string): FieldDef => ({ path, kind: 'option', ignoreProgress: true });

/**
 * The identification every exchangeable brake component carries: type, manufacturer, serial number and the
 * month of its last overhaul as stamped on it. `prefix` makes the labels distinctive (`brakeCylinderType`, ...).
 */
type ComponentPart = 'type' | 'manufacturer' | 'serial' | 'overhaul';
const component = (
  prefix: string,
  parts: readonly ComponentPart[] = ['type', 'manufacturer', 'serial', 'overhaul'],
  extra: Partial<FieldDef> = {},
): FieldDef[] => {
  const all: Record<ComponentPart, FieldDef> = {
    type: { path: 'Bauart', kind: 'string', label: `${prefix}Type`, ...extra },
    manufacturer: { path: 'Hersteller', kind: 'string', label: `${prefix}Manufacturer`, ...extra },
    serial: { path: 'Fabriknummer', kind: 'string', label: `${prefix}SerialNumber`, ...extra },
    overhaul: { path: 'Revisionsdatum', kind: 'monthAndYear', label: `${prefix}OverhaulDate`, ...extra },
  };
  return parts.map((part) => all[part]);
};

/** Fields moved below an object path; a root-relative condition moves with them. */
const under = (prefix: string, fields: readonly FieldDef[]): FieldDef[] =>
  fields.map((field) => ({
    ...field,
    path: `${prefix}.${field.path}`,
    ...(field.visibleWhen
      ? { visibleWhen: { ...field.visibleWhen, field: `${prefix}.${field.visibleWhen.field}` } }
      : {}),
  }));

/** Load-dependent braking that needs a load-sensing device: automatic two-stage or continuous. */
const AUTOMATIC_LOAD_BRAKING = ['AUTO', 'LASTABH'];

const generalFields: readonly FieldDef[] = [
  {
    path: 'Revisionsart',
    kind: 'option',
    list: 'ListRevisionsstufe',
    extraEntries: true,
    label: 'brakeRevisionType',
  },
  { path: 'Revisionsdatum', kind: 'date', label: 'brakeRevisionDate' },
  { path: 'Revisionswerk', kind: 'string', label: 'brakeRevisionWorkshop' },
  { path: 'Bremsbauart', kind: 'option', list: 'ListBremsbauart', extraEntries: true },
  { path: 'Bremsstellung', kind: 'option', list: 'ListBremsstellung' },
  tonnes('BremsgewichtLeer'),
  tonnes('BremsgewichtBeladen'),
  tonnes('BremsgewichtMax'),
  tonnes('Handbremsgewicht'),
  { path: 'Scheibenbremse', kind: 'boolean' },
  { path: 'Lastabbremsung', kind: 'option', list: 'ListLastabbremsung' },
  {
    ...tonnes('Umstellgewicht'),
    visibleWhen: { field: 'Lastabbremsung', op: 'in', values: ['HAND', 'AUTO'] },
  },
  { path: 'UICBauart', kind: 'string' },
  { path: 'MaximaleNeigung', kind: 'double', unit: '%', decimals: 1, label: 'brakeMaximumIncline' },
  { path: 'Bemerkung', kind: 'textarea', width: 'full', ignoreProgress: true },
];

const holderFields: readonly FieldDef[] = [
  { path: 'Bremsklotzanordnung', kind: 'option', list: 'ListBremsklotzanordnung', extraEntries: true },
  { path: 'Bauart', kind: 'string', label: 'brakeBlockHolderType' },
  { path: 'Anzahl', kind: 'double', decimals: 0, label: 'brakeBlockHolderCount' },
];

/** The brake blocks by wheelset position: one block type and product for the whole wagon, thickness per wheelset. */
const BRAKE_BLOCKS: CollectionDef = {
  path: `${BRAKE}.BrakeBlockShoeCollection.BrakeBlockShoe`,
  differentiator: position('PositionBremssohle'),
  values: numbers(1, 8),
  min: 0,
  max: 8,
  fields: [
    { path: 'Bremssohlenbauart', kind: 'option', list: 'ListBremssohlenbauart', uniform: true },
    { path: 'Bremssohlentyp', kind: 'string', uniform: true },
    mm('Sohlendicke'),
  ],
};

const BRAKE_CYLINDERS: CollectionDef = {
  path: `${BRAKE}.BrakeCylinderCollection.BrakeCylinder`,
  differentiator: position('PositionBremszylinder'),
  values: numbers(1, 4),
  min: 0,
  max: 4,
  fields: [
    ...component('brakeCylinder'),
    mm('Durchmesser', { label: 'brakeCylinderDiameter' }),
    mm('Kolbenhub'),
    mm('KolbenhubMin'),
    mm('KolbenhubMax'),
  ],
};

const AIR_RESERVOIRS: CollectionDef = {
  path: `${BRAKE}.AirReservoirCollection.AirReservoir`,
  differentiator: position('PositionLuftbehaelter'),
  values: numbers(1, 6),
  min: 0,
  max: 6,
  fields: [
    { path: 'Luftbehaelterart', kind: 'option', list: 'ListLuftbehaelterart' },
    { path: 'Volumen', kind: 'double', unit: 'l', decimals: 0, label: 'airReservoirVolume' },
    ...component('airReservoir', ['manufacturer', 'serial']),
    { path: 'Baujahr', kind: 'year', label: 'airReservoirYearOfManufacture' },
  ],
};

const LOAD_VALVES: CollectionDef = {
  path: `${BRAKE}.LoadValveCollection.LoadValve`,
  differentiator: position('PositionLastventil'),
  values: numbers(1, 4),
  min: 0,
  max: 4,
  fields: component('loadValve'),
};

const relayValveFields: readonly FieldDef[] = under(`${BRAKE}.RelayValve`, [
  { path: 'Vorhanden', kind: 'boolean', label: 'relayValveFitted' },
  ...component('relayValve', undefined, { visibleWhen: { field: 'Vorhanden', op: 'equals', value: true } }),
]);

const DISTRIBUTOR_VALVES: CollectionDef = {
  path: `${BRAKE}.DistributorValveCollection.DistributorValve`,
  differentiator: position('PositionSteuerventil'),
  values: numbers(1, 4),
  min: 0,
  max: 4,
  fields: [
    { path: 'Steuerventilbauart', kind: 'option', list: 'ListSteuerventilbauart', extraEntries: true },
    ...component('distributorValve', ['serial']),
    { path: 'Baujahr', kind: 'year', label: 'distributorValveYearOfManufacture' },
    ...component('distributorValve', ['overhaul']),
  ],
};

/** Brake rod (slack) adjusters: at most 4 (docs/requirements/validation.md#collection-limits). */
const ROD_ADJUSTERS: CollectionDef = {
  path: `${BRAKE}.RodAdjusterCollection.RodAdjuster`,
  differentiator: position('PositionGestaengesteller'),
  values: numbers(1, 4),
  min: 0,
  max: 4,
  fields: [...component('rodAdjuster'), mm('SteuermassA')],
};

const HAND_BRAKES: CollectionDef = {
  path: `${BRAKE}.HandBrakeCollection.HandBrake`,
  differentiator: position('PositionHandbremse'),
  values: numbers(1, 4),
  min: 0,
  max: 4,
  fields: component('handBrake', ['type', 'manufacturer', 'overhaul']),
  visibleWhen: { field: `${BRAKE}.HandBrake.Vorhanden`, op: 'equals', value: true },
};

const DERAILMENT_DETECTORS: CollectionDef = {
  path: `${BRAKE}.DerailmentDetectorCollection.DerailmentDetector`,
  differentiator: position('PositionEntgleisungsdetektor'),
  values: numbers(1, 4),
  min: 0,
  max: 4,
  fields: component('derailmentDetector'),
  visibleWhen: { field: `${BRAKE}.DerailmentDetector.Vorhanden`, op: 'equals', value: true },
};

export const brakeTab: TabDef = {
  id: 'brake',
  chapters: [
    { id: 'brakeGeneral', fields: under(BRAKE, generalFields) },
    { id: 'brakeBlockHolder', fields: under(`${BRAKE}.BrakeBlockHolder`, holderFields) },
    { id: 'brakeBlockShoe', collection: BRAKE_BLOCKS },
    { id: 'brakeCylinders', collection: BRAKE_CYLINDERS },
    { id: 'airReservoirs', collection: AIR_RESERVOIRS },
    {
      id: 'loadValves',
      visibleWhen: { field: `${BRAKE}.Lastabbremsung`, op: 'in', values: AUTOMATIC_LOAD_BRAKING },
      collection: LOAD_VALVES,
    },
    { id: 'relayValve', fields: relayValveFields },
    { id: 'distributorValves', collection: DISTRIBUTOR_VALVES },
    { id: 'rodAdjusters', collection: ROD_ADJUSTERS },
    {
      id: 'handBrake',
      fields: under(`${BRAKE}.HandBrake`, [{ path: 'Vorhanden', kind: 'boolean', label: 'handBrakeFitted' }]),
      collection: HAND_BRAKES,
    },
    {
      id: 'derailmentDetector',
      fields: under(`${BRAKE}.DerailmentDetector`, [
        { path: 'Vorhanden', kind: 'boolean', label: 'derailmentDetectorFitted' },
      ]),
      collection: DERAILMENT_DETECTORS,
    },
  ],
};
