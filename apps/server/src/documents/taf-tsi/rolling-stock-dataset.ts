import {
  type Decimal,
  ORDER_ROOTS,
  TAF_VALUE_KEYS,
  type TafValueKey,
  type TafValues,
  einParts,
  formatDecimal,
  normalizeVehicleNumber,
  parseDecimal,
  roundDecimal,
  shiftDecimal,
  valueOf,
} from '@vers/domain';
import { XMLBuilder } from 'fast-xml-parser';

/**
 * The holder/keeper export of a wagon order as a TAF TSI `RollingStockDataset`, valid against ERA's official
 * taf_cat_complete.xsd 3.5.2 (official-schema.ts; the wagon master data of RSRD2); see docs/taf-tsi.md for every
 * element, its catalogue field and unit, and for what is left out. The dataset describes the wagon as it leaves the
 * workshop, so it is built from the OUTGOING values; a field the workshop did not fill on the outgoing side is taken
 * from the INCOMING side (the wagon kept that value). An element the schema requires and the order cannot fill is
 * taken from the values the export request gives (`TafValues`); when neither has it, no dataset is made: the caller
 * learns which values are missing (`missingTafValues`, `IncompleteDatasetError`). Nothing is made up.
 */

export const TAF_TSI_NAMESPACE = 'http://www.era.europa.eu/schemes/TAFTSI/3.5';
/** The official schema release this builder follows and is validated against (official-schema.ts). */
export const TAF_TSI_SCHEMA_VERSION = '3.5.2';

export interface RollingStockDatasetInput {
  /** The wagon number (EVN), 12 digits; spaces and the hyphen of the printed form are ignored. */
  wagonNumber: string;
  /** The order's values: result key → stored attribute (`{ value, ... }`). */
  values: Record<string, unknown>;
  /** Values the request gives for required elements the order lacks; the order's own value wins. */
  given?: TafValues;
  /** For the leading comment only: the order and the workshop that made the export, and when. */
  orderNumber: string;
  workshop: { name: string; countryCode: string };
  generatedAt: Date;
}

/** The dataset lacks required values that neither the order nor the request gave (keys in schema order). */
export class IncompleteDatasetError extends Error {
  constructor(readonly missing: TafValueKey[]) {
    super(`TAF TSI RollingStockDataset incomplete, missing: ${missing.join(', ')}`);
  }
}

type Element = Record<string, unknown>;
type Side = 'in' | 'out';

/* ------------------------------------------------------------------------------------------------------------ */
/* Reading the order                                                                                             */
/* ------------------------------------------------------------------------------------------------------------ */

/** Outgoing first, incoming as the fallback. */
const SIDES: readonly Side[] = ['out', 'in'];

const isPresent = (value: unknown): boolean =>
  value !== null &&
  value !== undefined &&
  !(typeof value === 'string' && value.trim() === '') &&
  !(Array.isArray(value) && value.length === 0);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Reads catalogue paths (relative to `technicalWaggon{Outgoing|Incoming}`) with the outgoing → incoming fallback. */
class WagonValues {
  constructor(private readonly values: Record<string, unknown>) {}

  private at(side: Side, path: string): unknown {
    return valueOf(this.values[`${ORDER_ROOTS.WAGON[side]}.${path}`]);
  }

  /** The field's outgoing value, else its incoming one. */
  raw(path: string): unknown {
    for (const side of SIDES) {
      const value = this.at(side, path);
      if (isPresent(value)) return value;
    }
    return undefined;
  }

  text(path: string): string | undefined {
    const value = this.raw(path);
    return typeof value === 'string' ? value.trim() : undefined;
  }

  bool(path: string): boolean | undefined {
    const value = this.raw(path);
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    return undefined;
  }

  decimal(path: string): Decimal | undefined {
    const text = this.text(path);
    return text === undefined ? undefined : (parseDecimal(text) ?? undefined);
  }

  /**
   * The values of a field inside list entries, `[*]` standing for any index (`Bogie[*].Achsabstand`). Lists are
   * read as a whole: the outgoing entries when any of them has the field, else the incoming ones (wheelsets may
   * have been exchanged, so outgoing and incoming entries are never mixed).
   */
  all(pattern: string): string[] {
    for (const side of SIDES) {
      const prefix = `${ORDER_ROOTS.WAGON[side]}.`;
      const regex = new RegExp(`^${escapeRegExp(prefix + pattern).replace(/\\\[\\\*\\\]/g, '\\[\\d+\\]')}$`);
      const found = Object.keys(this.values)
        .filter((key) => regex.test(key))
        .sort()
        .map((key) => valueOf(this.values[key]))
        .filter(isPresent)
        .map((value) => String(value).trim());
      if (found.length > 0) return found;
    }
    return [];
  }

  /** The entries of a list as records of their fields, from the first side where `required` holds for an entry. */
  entries(listPath: string, required: (entry: Record<string, unknown>) => boolean): Record<string, unknown>[] {
    for (const side of SIDES) {
      const prefix = `${ORDER_ROOTS.WAGON[side]}.${listPath}[`;
      const byIndex = new Map<number, Record<string, unknown>>();
      for (const [key, stored] of Object.entries(this.values)) {
        if (!key.startsWith(prefix)) continue;
        const match = /^(\d+)\]\.(.+)$/.exec(key.slice(prefix.length));
        if (!match) continue;
        const index = Number(match[1]);
        const entry = byIndex.get(index) ?? {};
        entry[match[2] ?? ''] = valueOf(stored);
        byIndex.set(index, entry);
      }
      const entries = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
      if (entries.some(required)) return entries;
    }
    return [];
  }
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Exact number conversions (no binary floating point on the way: decimal.ts)                                    */
/* ------------------------------------------------------------------------------------------------------------ */

const compare = (value: Decimal, limit: string): number => {
  const other = parseDecimal(limit);
  if (!other) throw new RangeError(`not a decimal: ${limit}`);
  const scale = Math.max(value.scale, other.scale);
  const a = value.units * 10n ** BigInt(scale - value.scale);
  const b = other.units * 10n ** BigInt(scale - other.scale);
  return a < b ? -1 : a > b ? 1 : 0;
};

const inRange = (value: Decimal, min: string, max: string): boolean =>
  compare(value, min) >= 0 && compare(value, max) <= 0;

/** Whole units, rounded half away from zero; undefined outside [min, max] (the element is then left out). */
function integer(value: Decimal | undefined, min: number, max: number): string | undefined {
  if (!value) return undefined;
  const rounded = roundDecimal(value, 0);
  return inRange(rounded, String(min), String(max)) ? formatDecimal(rounded) : undefined;
}

/** Whole units, rounded down (braked masses: a lower braked mass is on the safe side of a brake calculation). */
function integerDown(value: Decimal | undefined, min: number, max: number): string | undefined {
  if (!value || value.units < 0n) return undefined;
  const down: Decimal = { units: value.units / 10n ** BigInt(value.scale), scale: 0 };
  return inRange(down, String(min), String(max)) ? formatDecimal(down) : undefined;
}

/** Whole units only when the value has no fraction (a change-over weight must not move by rounding). */
function wholeNumber(value: Decimal | undefined, min: number, max: number): string | undefined {
  if (!value || compare(roundDecimal(value, 0), formatDecimal(value)) !== 0) return undefined;
  return integer(value, min, max);
}

/**
 * A decimal with at most `fraction` decimals (rounded half away from zero) and `total` digits, like
 * xs:fractionDigits/xs:totalDigits, within [min, max]; undefined otherwise.
 */
function decimal(
  value: Decimal | undefined,
  { fraction, total, min = '0', max }: { fraction: number; total: number; min?: string; max?: string },
): string | undefined {
  if (!value) return undefined;
  const rounded = roundDecimal(value, fraction);
  const digitsLimit = `${'9'.repeat(total - fraction)}.${'9'.repeat(fraction)}`;
  return inRange(rounded, min, max ?? digitsLimit) && compare(rounded, digitsLimit) <= 0
    ? formatDecimal(rounded)
    : undefined;
}

/** m → cm and m → mm: a shift of the decimal point, exact. */
const metresTo = (unit: 'cm' | 'mm', value: Decimal | undefined): Decimal | undefined =>
  value && shiftDecimal(value, unit === 'cm' ? 2 : 3);

const maxLength = (text: string | undefined, max: number): string | undefined =>
  text !== undefined && text !== '' && text.length <= max ? text : undefined;

/** The one value all entries agree on; undefined when none or when they differ. */
const uniform = (values: readonly string[]): string | undefined =>
  values.length > 0 && values.every((value) => value === values[0]) ? values[0] : undefined;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^(\d{4})-(\d{2})$/;

/** Drops undefined members so that the builder writes no element for them; keeps the key order (schema order). */
function compact(element: Element): Element {
  return Object.fromEntries(Object.entries(element).filter(([, value]) => value !== undefined));
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The mappings                                                                                                  */
/* ------------------------------------------------------------------------------------------------------------ */

const WHEELSETS = 'Understructure.WheelsetCollection.Wheelset';
const BRAKE = 'Understructure.Brake';
const GRID = 'LoadLimitGrid';

/** Our grid letters (load-limit-grid.ts), all of them codes of the TAF RouteClass list, in table order. */
const ROUTE_CLASSES = ['A', 'B', 'B1', 'B2', 'C', 'C2', 'C3', 'C4', 'D', 'D2', 'D3', 'D4', 'E', 'E4', 'E5'] as const;
/** The grid's speed rows: S = 100 km/h and SS = 120 km/h (domain notes "Load limit grid"). */
const GRID_SPEEDS = ['100', '120'] as const;
const STARS: Record<string, string> = { '*': '1', '**': '2', '***': '3' };

/** ListTemperaturbereich → TSI WAG temperature zones (°C). */
const TEMPERATURE_RANGES: Record<string, { max: string; min: string }> = {
  T1: { max: '40', min: '-25' },
  T2: { max: '35', min: '-40' },
  T3: { max: '45', min: '-25' },
};

/** NormalLoadingGauge codes of the public code list; other gauges (e.g. national ones) are left out. */
const LOADING_GAUGES = new Set(['G1', 'G2', 'GA', 'GB', 'GC', 'GB1', 'GB2', 'GB-M6', 'GHE16', 'W6-A', 'SEa']);

/** ListBremsstellung → AirBrakeType (1 G only, 2 P only, 3 G/P combined); R has no code of its own. */
const AIR_BRAKE_TYPES: Record<string, string> = { G: '1', P: '2', GP: '3' };
/** ListLastabbremsung → BrakingPowerVariationDevice (UIC 404-2, 1.8). */
const VARIATION_DEVICES: Record<string, string> = { KEINE: '0', HAND: '1', AUTO: '1', LASTABH: '8' };
/** ListBremssohlenbauart → BrakeSpecialCharacteristics (UIC 920-13). */
const BLOCK_CHARACTERISTICS: Record<string, string> = { P10: '0', K: '2', LL: '6' };

/**
 * The elements the schema requires: the order's value when it has a usable one, else the request's; a key neither
 * gives is noted as missing.
 */
class Required {
  readonly missing = new Set<TafValueKey>();
  constructor(private readonly given: TafValues) {}

  value(key: TafValueKey, fromOrder?: string): string | undefined {
    if (fromOrder !== undefined) return fromOrder;
    const given = this.given[key];
    if (given === undefined || given === '') {
      this.missing.add(key);
      return undefined;
    }
    return String(given);
  }

  /** A value only the request can give, needed only when `when` holds (a suspension's date). */
  valueWhen(when: boolean, key: TafValueKey): string | undefined {
    return when ? this.value(key) : undefined;
  }
}

/** The ECM certificate: nothing of it is in a wagon order, so all of it comes from the request. */
function ecmCertificate(required: Required): Element {
  const number = required.value('ECMCertificateNumber');
  const parts = number === undefined ? null : einParts(number);
  const suspended = required.value('ECMCertificateSuspended');
  return compact({
    EINNumber: parts
      ? {
          CountryCodeISO: parts.country,
          TypeDocumentEIN: parts.type,
          CounterAcreditedRecognizedBody: parts.body,
          EINYear: parts.year,
          EINCounter: parts.counter,
        }
      : undefined,
    ECMCertificateValidFrom: required.value('ECMCertificateValidFrom'),
    ECMCertificateValidTo: required.value('ECMCertificateValidTo'),
    CoversTankWagonsForDangerousGoods: required.value('CoversTankWagonsForDangerousGoods'),
    CoversNonTankWagonsForDangerousGoods: required.value('CoversNonTankWagonsForDangerousGoods'),
    ECMCertificateSuspended: suspended,
    DateECMCertificateSuspended: required.valueWhen(suspended === 'true', 'DateECMCertificateSuspended'),
  });
}

function administrativeDataSet(wagon: WagonValues, wagonNumber: string, required: Required): Element {
  const suspended = required.value('SuspensionOfAuthorisation');
  return compact({
    WagonNumberFreight: wagonNumber,
    // The EVN's country digits are not the registration country once a wagon is re-registered: asked, not derived.
    RegistrationCountry: required.value('RegistrationCountry'),
    DatePutIntoService: required.value('DatePutIntoService'),
    SuspensionOfAuthorisation: suspended,
    DateSuspensionOfAuthorisation: required.valueWhen(suspended === 'true', 'DateSuspensionOfAuthorisation'),
    // VKM: at most 10 characters in the register; a longer marking is not a VKM and is not used.
    KeeperShortNameVKM: required.value('KeeperShortNameVKM', maxLength(wagon.text('Halterkurzkennzeichen'), 10)),
    ECM: required.value('ECM', maxLength(wagon.text('Labeling.ECM'), 256)),
    ECMCertificate: ecmCertificate(required),
    // Could follow from the RIV/TEN/GE markings, but not clearly enough to derive: asked.
    InteropCapability: required.value('InteropCapability'),
    GCUWagon: required.value('GCUWagon'),
  });
}

function loadTable(wagon: WagonValues): Element | undefined {
  // A folding panel (Klapptafel) is a product-specific table; TAF needs the product's UN number, which we lack.
  if (wagon.bool(`${GRID}.Klapptafel`) === true) return undefined;
  const payload = (routeClass: string, speed: string) =>
    decimal(wagon.decimal(`${GRID}.${routeClass}${speed}`), { fraction: 1, total: 4 });
  // MaxPayload must have one entry per SpeedCategory: a speed row counts when any class has a payload in it,
  // a route class when it has a payload in every such row.
  const speeds = GRID_SPEEDS.filter((speed) => ROUTE_CLASSES.some((routeClass) => payload(routeClass, speed)));
  const classes = ROUTE_CLASSES.filter((routeClass) => speeds.every((speed) => payload(routeClass, speed)));
  if (speeds.length === 0 || classes.length === 0) return undefined;
  return compact({
    SpeedCategory: [...speeds],
    LoadTableStars: STARS[wagon.text(`${GRID}.Sterne`) ?? ''],
    RouteClassPayloads: classes.map((routeClass) => ({
      RouteClass: routeClass,
      MaxPayload: speeds.map((speed) => payload(routeClass, speed)),
    })),
  });
}

function airBrake(wagon: WagonValues, required: Required): Element {
  const variation = wagon.text(`${BRAKE}.Lastabbremsung`);
  const empty = wagon.decimal(`${BRAKE}.BremsgewichtLeer`);
  const maximum = wagon.decimal(`${BRAKE}.BremsgewichtMax`);
  const twoStage = variation === 'HAND' || variation === 'AUTO';
  const changeOver = wholeNumber(wagon.decimal(`${BRAKE}.Umstellgewicht`), 1, 999);
  const loaded = integerDown(wagon.decimal(`${BRAKE}.BremsgewichtBeladen`), 1, 999);
  const distributorValves = wagon.all(`${BRAKE}.DistributorValveCollection.DistributorValve[*].PositionSteuerventil`);
  const blockTypes = wagon.all(`${BRAKE}.BrakeBlockShoeCollection.BrakeBlockShoe[*].Bremssohlenbauart`);
  const special =
    wagon.bool(`${BRAKE}.Scheibenbremse`) === true ? '1' : BLOCK_CHARACTERISTICS[uniform(blockTypes) ?? ''];
  return compact({
    NumberOfBrakes: required.value(
      'NumberOfBrakes',
      distributorValves.length > 0 && distributorValves.length <= 99 ? String(distributorValves.length) : undefined,
    ),
    BrakeSystem: maxLength(wagon.text(`${BRAKE}.Bremsbauart`), 256),
    AirBrakeType: required.value('AirBrakeType', AIR_BRAKE_TYPES[wagon.text(`${BRAKE}.Bremsstellung`) ?? '']),
    BrakingPowerVariationDevice: required.value('BrakingPowerVariationDevice', VARIATION_DEVICES[variation ?? '']),
    // Empty braked weight with a two-stage device or none; the maximum with a continuous (load-proportional) one.
    AirBrakedMass: required.value(
      'AirBrakedMass',
      integerDown(variation === 'LASTABH' ? (maximum ?? empty) : (empty ?? maximum), 0, 999),
    ),
    LoadChangeDevice:
      twoStage && changeOver && loaded ? { ChangeOverWeight: changeOver, AirBrakedMassLoaded: loaded } : undefined,
    BrakeSpecialCharacteristics: required.value('BrakeSpecialCharacteristics', special),
  });
}

function handBrake(wagon: WagonValues, required: Required): Element {
  // Fitted or not is all the order knows: whether it is worked from the ground or a platform (1 or 2) is asked.
  const fitted = wagon.bool(`${BRAKE}.HandBrake.Vorhanden`);
  return { HandBrakeType: required.value('HandBrakeType', fitted === false ? '0' : undefined) };
}

function derailmentDetectionDevice(wagon: WagonValues): string | undefined {
  if (wagon.bool(`${BRAKE}.DerailmentDetector.Vorhanden`) !== true) return undefined;
  const types = wagon
    .all(`${BRAKE}.DerailmentDetectorCollection.DerailmentDetector[*].Bauart`)
    .map((type) => type.toUpperCase().replace(/\s+/g, ''));
  const type = uniform(types);
  if (type === 'EDT101') return 'EDT 101';
  if (type === 'MDV100') return 'MDV 100';
  return 'Non coded device';
}

/** The date of the last overhaul: the order's overhaul date, else the newest G4x entry of the revision works. */
function dateLastOverhaul(wagon: WagonValues): string | undefined {
  const overhaulDate = wagon.text('OverhaulDate');
  if (overhaulDate && DATE.test(overhaulDate)) return overhaulDate;
  const isOverhaul = (entry: Record<string, unknown>) =>
    String(entry.Instandhaltungsstufe ?? '').startsWith('G4') && DATE.test(String(entry.Datum ?? ''));
  const dates = wagon
    .entries('Revision.RevisionWorkCollection.RevisionWork', isOverhaul)
    .filter(isOverhaul)
    .map((entry) => String(entry.Datum))
    .sort();
  return dates.at(-1);
}

/** Tank test plates give month and year: the earliest next test, as the last day of its month. */
function dateOfNextTankInspection(wagon: WagonValues): string | undefined {
  const months = wagon
    .all('Tank.TestCollection.TankTest[*].NaechstePruefung')
    .filter((month) => MONTH.test(month))
    .sort();
  const match = MONTH.exec(months[0] ?? '');
  if (!match) return undefined;
  const [, year = '', month = ''] = match;
  const lastDay = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  return `${year}-${month}-${String(lastDay).padStart(2, '0')}`;
}

function designDataSet(wagon: WagonValues, required: Required): Element {
  const axles = required.value('WagonNumberOfAxles', integer(wagon.decimal('AnzahlAchsen'), 2, 99));
  const diameters = wagon
    .all(`${WHEELSETS}[*].Wheels.Wheel[*].LaufkreisdurchmesserNeu`)
    .map((text) => parseDecimal(text))
    .filter((value): value is Decimal => value !== null)
    .sort((a, b) => compare(b, formatDecimal(a)));
  const bogiePitch = uniform(wagon.all('Understructure.BogieCollection.Bogie[*].Achsabstand'));
  const temperature = TEMPERATURE_RANGES[wagon.text('TemperaturbereichgemaessTSI') ?? ''];
  const gauge = wagon.text('Labeling.Begrenzungsprofil');
  const speed = wagon.text('Labeling.Hoechstgeschwindigkeit');
  return compact({
    LetterMarking: required.value('LetterMarking', maxLength(wagon.text('Labeling.Gattungszeichen'), 20)),
    TankCode: maxLength(wagon.text('Tank.Tankcodierung'), 20),
    WagonNumberOfAxles: axles,
    WheelSetType: maxLength(uniform(wagon.all(`${WHEELSETS}[*].Type`)), 256),
    // The reference (new) diameter, the largest one of the wagon's wheels.
    WheelDiameter: integer(diameters[0], 1, 9999),
    NumberOfBogies: integer(wagon.decimal('AnzahlDrehgestelle'), 1, 9),
    BogiePitch: integer(bogiePitch === undefined ? undefined : (parseDecimal(bogiePitch) ?? undefined), 1, 99999),
    BogiePivotPitch: integer(metresTo('mm', wagon.decimal('Labeling.Drehzapfenabstand')), 1, 99999),
    // A two-axle wagon's wheelbase is the largest distance between adjacent axles; a bogie wagon's (between the
    // bogies' inner axles) is not recorded, and is asked rather than worked out from pivot and bogie pitch.
    InnerWheelbase: required.value(
      'InnerWheelbase',
      axles === '2' ? integer(wagon.decimal('Understructure.BaseBogie.Achsabstand'), 1, 99999) : undefined,
    ),
    BufferType: maxLength(
      uniform(wagon.all('Understructure.DrawAndBuffingGear.BufferCollection.Buffer[*].Pufferkategorie')),
      256,
    ),
    NormalLoadingGauge: gauge && LOADING_GAUGES.has(gauge) ? gauge : undefined,
    MinCurveRadius: required.value(
      'MinCurveRadius',
      integer(wagon.decimal('Labeling.KleinsterBefahrbarerBogenhalbmesser'), 1, 999),
    ),
    MinVerticalRadiusYardHump: integer(wagon.decimal('Labeling.KleinsterBefahrbarerAusrundungshalbmesser'), 1, 999),
    // Eigengewicht is kept in kg (catalogue), as TAF wants it: no conversion, whole kg.
    WagonWeightEmpty: required.value('WagonWeightEmpty', integer(wagon.decimal('Eigengewicht'), 0, 999999)),
    // Catalogue m (2 decimals) → TAF cm.
    LengthOverBuffers: required.value(
      'LengthOverBuffers',
      integer(metresTo('cm', wagon.decimal('Labeling.LaengeUeberPuffer')), 1, 999999),
    ),
    MaxAxleWeight: required.value(
      'MaxAxleWeight',
      decimal(wagon.decimal('AllowableAxleLoad'), { fraction: 1, total: 3, min: '0.1', max: '99.9' }),
    ),
    LoadTable: loadTable(wagon),
    MaxDesignSpeed: required.value(
      'MaxDesignSpeed',
      speed && /^\d+$/.test(speed) ? integer(parseDecimal(speed) ?? undefined, 1, 999) : undefined,
    ),
    AirBrake: airBrake(wagon, required),
    HandBrake: handBrake(wagon, required),
    DerailmentDetectionDevice: derailmentDetectionDevice(wagon),
    MaxLengthOfLoad: integer(metresTo('mm', wagon.decimal('Labeling.Ladelaenge')), 1, 999999),
    LoadArea: decimal(wagon.decimal('Labeling.Ladeflaeche'), { fraction: 1, total: 5 }),
    HeightOfLoadingPlaneUnladen: integer(wagon.decimal('Labeling.Ladeebenenhoehe'), 1, 99999),
    LoadingCapacity: decimal(wagon.decimal('Labeling.Laderaum'), { fraction: 1, total: 5 }),
    // Not recorded in an order (tare plus the grid's largest payload would be a guess at the marking): asked.
    MaxGrossWeight: required.value('MaxGrossWeight'),
    FerryPermittedFlag: wagon.bool('Labeling.Faehrbootfaehigkeit')?.toString(),
    TemperatureRange: temperature ? { MaxTemp: temperature.max, MinTemp: temperature.min } : undefined,
    DateLastOverhaul: required.value('DateLastOverhaul', dateLastOverhaul(wagon)),
    OverhaulValidityPeriod: required.value(
      'OverhaulValidityPeriod',
      integer(wagon.decimal('Revision.Revisionszyklus'), 1, 19),
    ),
    PermittedTolerance: required.value(
      'PermittedTolerance',
      integer(wagon.decimal('Revision.Revisionsfristverlaengerung'), 0, 99),
    ),
    DateOfNextTankInspection: dateOfNextTankInspection(wagon),
  });
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The document                                                                                                  */
/* ------------------------------------------------------------------------------------------------------------ */

/** Characters XML 1.0 can carry (tab, line feed, carriage return, from space on, but not U+FFFE/U+FFFF). */
const isXmlChar = (code: number): boolean =>
  code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);

function cleanTexts(node: unknown): unknown {
  // Control characters cannot be written at all, not even escaped; the builder escapes & < > ' " itself.
  if (typeof node === 'string') return [...node].filter((char) => isXmlChar(char.codePointAt(0) ?? 0)).join('');
  if (Array.isArray(node)) return node.map(cleanTexts);
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, cleanTexts(value)]));
  }
  return node;
}

const builder = new XMLBuilder({
  format: true,
  indentBy: '  ',
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  commentPropName: '#comment',
  // Text is escaped (& < > ' "): keeper markings and ECM names are free text.
  processEntities: true,
  suppressEmptyNode: true,
});

/** The dataset's elements and what it lacks (keys in schema order). */
function build(
  values: Record<string, unknown>,
  given: TafValues,
  wagonNumber: string,
): { dataset: Element; missing: TafValueKey[] } {
  const wagon = new WagonValues(values);
  const required = new Required(given);
  const dataset = {
    '@_xmlns': TAF_TSI_NAMESPACE,
    AdministrativeDataSet: administrativeDataSet(wagon, wagonNumber, required),
    DesignDataSet: designDataSet(wagon, required),
  };
  return { dataset, missing: TAF_VALUE_KEYS.filter((key) => required.missing.has(key)) };
}

/** The values the dataset of this order still needs from the request, in schema order; empty when complete. */
export function missingTafValues(input: Pick<RollingStockDatasetInput, 'values' | 'given'>): TafValueKey[] {
  return build(input.values, input.given ?? {}, '').missing;
}

/**
 * The wagon order as a TAF TSI RollingStockDataset (root element in the TAF TSI 3.5 namespace), complete: throws an
 * IncompleteDatasetError naming what is missing, and a RangeError when the wagon number is not 12 digits.
 */
export function rollingStockDataset(input: RollingStockDatasetInput): string {
  const wagonNumber = normalizeVehicleNumber(input.wagonNumber);
  if (!/^\d{12}$/.test(wagonNumber)) throw new RangeError(`wagon number must be 12 digits: "${input.wagonNumber}"`);
  const { dataset, missing } = build(input.values, input.given ?? {}, wagonNumber);
  if (missing.length > 0) throw new IncompleteDatasetError(missing);
  const document = cleanTexts({
    // Provenance only: the RollingStockDataset has no place for the maintenance workshop or the order.
    '#comment':
      ` VERS holder export, TAF TSI ${TAF_TSI_SCHEMA_VERSION} RollingStockDataset. ` +
      `Workshop: ${input.workshop.name}${input.workshop.countryCode ? ` (${input.workshop.countryCode})` : ''}. ` +
      `Order: ${input.orderNumber}. Generated: ${input.generatedAt.toISOString()} `,
    RollingStockDataset: dataset,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(document) as string}`;
}
