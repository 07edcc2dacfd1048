import {
  type AttributeValue,
  CATALOGUE,
  type ChapterDef,
  type CollectionDef,
  type FieldDef,
  type OrderType,
  type Scope,
  type ValueSide,
  WAGON_WHEELSETS,
  attributeValue,
  checkDigit,
  rootScope,
  srMass,
} from '@vers/domain';

/**
 * A fully filled order for the document tests, samples and benchmarks: every field of every tab on each of its
 * sides, every collection with all the entries it allows (the wagon's wheelsets: 4), values that pass the
 * catalogue's checks. The catalogue is walked directly rather than through the layout, so that fields hidden by
 * a condition are filled too; the values that conditions read are chosen so that as much as possible shows (a
 * bogie wagon of two units, hand brake fitted, automatic load braking...).
 */

/** A vehicle number: the 11 digits and their check digit. */
const withCheckDigit = (first11: string) => `${first11}${checkDigit(first11)}`;

/** The wagon of the filled wagon order (`31 80 6651 234-?`) and the wheelset of the filled wheelset order. */
export const FILLED_WAGON_NUMBER = withCheckDigit('31806651234');
export const FILLED_WHEELSET_NUMBER = withCheckDigit('31800123450');

/** The wagon's wheelsets as they came in, by entry (position 1 to 4), and the one fitted instead of position 2. */
const incomingWheelset = (entry: number) => withCheckDigit(`3180012345${entry + 1}`);
const EXCHANGED_WHEELSET = withCheckDigit('31800987650');
const WAGON_WHEELSET_COUNT = 4;

interface Where {
  side: ValueSide;
  /** The index of the collection entry (or wagon wheelset) the field sits in; 0 at the root. */
  entry: number;
  /** The wagon wheelset the field belongs to, if any. */
  wheelset?: number;
  type: OrderType;
}

type Realistic = (where: Where) => AttributeValue['value'];

const both =
  (value: AttributeValue['value']): Realistic =>
  () =>
    value;
const perSide =
  (incoming: AttributeValue['value'], outgoing: AttributeValue['value']): Realistic =>
  ({ side }) =>
    side === 'in' ? incoming : outgoing;

/** Wheel tread diameter: a little worn on arrival, reprofiled when leaving; varies by wheelset. */
const diameter = ({ side, wheelset = 0, entry }: Where) =>
  String(912 - 3 * wheelset - entry - (side === 'out' ? 7 : 0));
/** Flange thickness: worn on arrival, restored by the reprofiling. */
const flangeThickness = ({ side, wheelset = 0 }: Where) => (side === 'in' ? `${26 + (wheelset % 3)}.5` : '31.5');
const AR = '1360.0';

/**
 * Realistic values by path relative to the root or the collection entry; everything else gets a plain value of
 * its kind. The values conditions read (AnzahlTeilfahrzeuge, Lastabbremsung...) are here too.
 */
const REALISTIC: Record<string, Realistic> = {
  Waggonnummer: both(FILLED_WAGON_NUMBER),
  Wheelsetnumber: ({ type, side, wheelset = 0 }) =>
    type === 'WHEELSET'
      ? FILLED_WHEELSET_NUMBER
      : side === 'out' && wheelset === 1
        ? EXCHANGED_WHEELSET
        : incomingWheelset(wheelset),
  Halterkurzkennzeichen: both('D-GATX'),
  EntryDate: both('2026-11-02'),
  ExitDate: both('2026-11-22'),
  OverhaulDate: perSide('2020-05-14', '2026-11-20'),
  ExecutedMaintenanceLevel: both('G42'),
  RevisionType: both('G42'),
  Eigengewicht: perSide('23500', '23420'),
  AnzahlTeilfahrzeuge: both('2'),
  AllowableAxleLoad: both('22.5'),
  LetztesLadegut: both('Mineralöl, UN 1202'),
  Bemerkung: both('Eingang zur planmäßigen Revision; Flachstelle an Radsatz 2 festgestellt.'),
  'Labeling.Gattungszeichen': both('Zacns'),
  'Labeling.Zulassungslaender': both('D, A, CH, PL, CZ'),
  'Labeling.ECM': both('GATX Rail Germany GmbH, DE/31/0001'),
  'Labeling.LaengeUeberPuffer': both('16.74'),
  'Revision.Revisionszyklus': both('6'),
  'Revision.Fristzyklus': both('6'),
  'Revision.Revisionsfristverlaengerung': perSide('0', '3'),
  'Revision.DatumLetzteFrist': perSide('2026-05-14', '2032-11-20'),
  'LoadLimitGrid.Lastgrenzenrastertyp': both('A-B1-B2-C2-C3-C4-D2-D3-D4'),
  'LoadLimitGrid.Sterne': both('**'),
  'Understructure.Brake.Lastabbremsung': both('AUTO'),
  'Understructure.Brake.Bremsbauart': both('KE-GP-A'),
  'Understructure.Brake.Bremsstellung': both('G/P'),
  'MobileService.DeadlineExtension': both('3'),
  'MobileService.PerformedMaintenanceSteps': both(
    'Bremsprobe, Radsatz 2 gewechselt, Sichtprüfung Untergestell und Zug- und Stoßeinrichtung.',
  ),
  'MobileService.ChangedComponents': both('Radsatz Position 2'),
  'MobileService.DeferredWork': both('Neuanstrich der Anschriften bei der nächsten Revision.'),
  'MobileService.RestrictionsOfUse': both('Keine.'),
  'MobileService.AuthorisedPerson': both('Jana Nováková'),
  'MobileService.AuthorisedPersonRole': both('Werkstattleiterin'),
  // Wheelsets.
  Position: ({ type }) => (type === 'WHEELSET' ? '2' : '1'),
  Type: both('BA 004'),
  OwnerMark: both('GATX'),
  MaintenanceLevel: both('IS2'),
  ArDimension: both(AR),
  Laufkreisdurchmesser: diameter,
  LaufkreisdurchmesserNeu: both('920'),
  Sd: flangeThickness,
  Sh: perSide('30.5', '28.0'),
  Qr: perSide('8.5', '10.5'),
  Br: both('135.0'),
  Radbauart: both('Monoblock'),
  Radprofil: both('S1002'),
  Radwerkstoff: both('ER7'),
  'Axle.SteelGrade': both('EA1N'),
  AxleStubBore: both('130.045'),
  RingDiameter: both('130.000'),
  ShrinkFit: both('45'),
  Anstrichart: both('NEU'),
};

/** The plain value of a double: a sensible magnitude for its unit, cut to its decimals. */
function plainNumber(field: FieldDef): string {
  const byUnit: Record<string, number> = {
    kg: 1250,
    t: 22.5,
    m: 12.45,
    mm: 125.5,
    l: 95000,
    'm²': 40.5,
    'm³': 85.5,
    MPa: 0.45,
    '°C': field.negatable ? -20 : 20,
    '%': 2.5,
    kN: 850,
    µm: 45,
    years: 6,
    months: 3,
  };
  const number = field.unit ? (byUnit[field.unit] ?? 12.5) : 2;
  return field.decimals === undefined ? String(number) : number.toFixed(field.decimals);
}

function plainValue(field: FieldDef, where: Where): AttributeValue['value'] {
  if (field.choices?.[0]) return field.choices[0];
  switch (field.kind) {
    case 'boolean':
      return true;
    case 'multioption':
      return ['A', 'B'];
    case 'date':
      return where.side === 'in' ? '2026-11-02' : '2026-11-22';
    case 'monthAndYear':
      return '2026-11';
    case 'year':
      return '2019';
    case 'double':
    case 'formula':
      return plainNumber(field);
    case 'textarea':
      return 'Ohne Befund.';
    case 'option':
      return field.list ? 'A' : 'X1';
    case 'string':
    case 'baseString':
      return `${where.side === 'in' ? 'E' : 'A'}-${100 + where.entry}`;
  }
}

const fieldSides = (field: FieldDef): ValueSide[] =>
  field.side === 'in' ? ['in'] : field.side === 'out' ? ['out'] : ['in', 'out'];

/** The differentiator values a collection gets in the filled order: all it allows, in picker order. */
function entryValues(collection: CollectionDef): string[] {
  const all = Array.isArray(collection.values)
    ? [...(collection.values as readonly string[])]
    : Array.from({ length: collection.max }, (_, i) => String(i + 1));
  return all.slice(0, collection === WAGON_WHEELSETS ? WAGON_WHEELSET_COUNT : collection.max);
}

export function filledOrderValues(type: OrderType, now = new Date()): Record<string, unknown> {
  const plain: Record<string, AttributeValue['value']> = {};
  const fill = (fields: readonly FieldDef[], scope: Scope, where: Omit<Where, 'side' | 'type'>) => {
    for (const field of fields) {
      for (const side of fieldSides(field)) {
        const at = { ...where, side, type };
        plain[`${scope[side]}.${field.path}`] = REALISTIC[field.path]?.(at) ?? plainValue(field, at);
      }
    }
  };
  /** Writes a collection's entries at the index of their value (as a fixed collection must be), both sides. */
  const entries = (collection: CollectionDef, scope: Scope) =>
    entryValues(collection).map((value, index) => {
      const inner: Scope = {
        in: `${scope.in}.${collection.path}[${index}]`,
        out: `${scope.out}.${collection.path}[${index}]`,
      };
      for (const side of ['in', 'out'] as const) plain[`${inner[side]}.${collection.differentiator.path}`] = value;
      return { inner, index };
    });
  const counts: { collection: CollectionDef; scope: Scope }[] = [];
  const fillChapters = (chapters: readonly ChapterDef[], scope: Scope, wheelset?: number) => {
    const at = wheelset === undefined ? {} : { wheelset };
    for (const chapter of chapters) {
      fill(chapter.fields ?? [], scope, { entry: 0, ...at });
      const collection = chapter.collection;
      if (!collection) continue;
      if (collection.countField) counts.push({ collection, scope });
      for (const { inner, index } of entries(collection, scope))
        fill(collection.fields, inner, { entry: index, ...at });
    }
  };
  const root = rootScope(type);
  for (const tab of CATALOGUE[type]) {
    if (!tab.perEntry) {
      fillChapters(tab.chapters, root);
      continue;
    }
    if (tab.perEntry.countField) counts.push({ collection: tab.perEntry, scope: root });
    for (const { inner, index } of entries(tab.perEntry, root)) {
      fillChapters(tab.chapters, inner, tab.perEntry === WAGON_WHEELSETS ? index : undefined);
    }
  }
  // Count fields hold the number of entries (the wagon's axles, bogies, tank compartments).
  for (const { collection, scope } of counts) {
    for (const side of ['in', 'out'] as const) {
      plain[`${scope[side]}.${collection.countField}`] = String(entryValues(collection).length);
    }
  }
  recalculateSr(plain);
  return Object.fromEntries(Object.entries(plain).map(([key, value]) => [key, attributeValue(value, now)]));
}

/** SR is AR plus both wheels' Sd: computed like the editor does, so that the filled order is consistent. */
function recalculateSr(plain: Record<string, AttributeValue['value']>) {
  for (const key of Object.keys(plain)) {
    if (!key.endsWith('.SrMass')) continue;
    const scope = key.slice(0, -'.SrMass'.length);
    const number = (path: string) => Number(plain[`${scope}.${path}`]);
    const result = srMass(number('ArDimension'), number('Wheels.Wheel[0].Sd'), number('Wheels.Wheel[1].Sd'));
    if (result.ok) plain[key] = result.value.toFixed(3);
  }
}
