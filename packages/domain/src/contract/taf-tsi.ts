import { z } from 'zod';

/**
 * The values ERA's TAF TSI schema (taf_cat_complete.xsd 3.5.2) requires in a RollingStockDataset that a wagon order
 * does not always hold (docs/taf-tsi.md). The export takes each from the order when the order has a usable value,
 * else from the export request's `tafTsi`; when neither has it, the export is refused (409 EXPORT_INCOMPLETE) with the
 * keys below in `missing`. Nothing is ever made up. Keys are the schema's element names (`ECMCertificateNumber`
 * stands for the certificate's EINNumber), in schema order.
 */
export type TafValueInput =
  | { type: 'country' }
  | { type: 'date' }
  | { type: 'boolean' }
  | { type: 'integer'; min: number; max: number }
  | { type: 'decimal'; min: string; max: string; fractionDigits: number }
  | { type: 'text'; maxLength: number }
  | { type: 'code'; codes: readonly string[] }
  | { type: 'ein' };

export interface TafValueDef {
  input: TafValueInput;
  /** The unit the value is given in (the schema's). */
  unit?: 'kg' | 't' | 'cm' | 'mm' | 'm' | 'km/h' | 'years' | 'months';
  /** Needed only when this boolean value is true (the date of a suspension). */
  neededWhen?: string;
  description: string;
}

const country = { type: 'country' } as const;
const date = { type: 'date' } as const;
const boolean = { type: 'boolean' } as const;
const integer = (min: number, max: number) => ({ type: 'integer', min, max }) as const;
const text = (maxLength: number) => ({ type: 'text', maxLength }) as const;
const code = (...codes: string[]) => ({ type: 'code', codes }) as const;

export const TAF_VALUES = {
  RegistrationCountry: { input: country, description: 'Registration country, ISO 3166-1 alpha-2 (e.g. DE)' },
  DatePutIntoService: { input: date, description: 'Date of first operation' },
  SuspensionOfAuthorisation: { input: boolean, description: 'Whether the authority suspended the authorisation' },
  DateSuspensionOfAuthorisation: {
    input: date,
    neededWhen: 'SuspensionOfAuthorisation',
    description: 'Date of the suspension of the authorisation; needed when suspended',
  },
  KeeperShortNameVKM: { input: text(10), description: 'Vehicle keeper marking (VKM register)' },
  ECM: { input: text(256), description: 'Full name of the entity in charge of maintenance' },
  ECMCertificateNumber: {
    input: { type: 'ein' },
    description:
      "The ECM certificate's number (EIN) as printed: country/type/body and year/counter, e.g. DE/31/0214/0003",
  },
  ECMCertificateValidFrom: { input: date, description: 'ECM certificate valid from' },
  ECMCertificateValidTo: { input: date, description: 'ECM certificate valid to' },
  CoversTankWagonsForDangerousGoods: {
    input: boolean,
    description: 'The certificate covers tank wagons for dangerous goods',
  },
  CoversNonTankWagonsForDangerousGoods: {
    input: boolean,
    description: 'The certificate covers other wagons for dangerous goods',
  },
  ECMCertificateSuspended: { input: boolean, description: 'Whether the ECM certificate is suspended' },
  DateECMCertificateSuspended: {
    input: date,
    neededWhen: 'ECMCertificateSuspended',
    description: 'Date of the suspension of the ECM certificate; needed when suspended',
  },
  InteropCapability: {
    input: code('1', '2', '3', '5', '6', '7', '8'),
    description:
      'Interoperability capability: 1 national, 2 bi-/multilateral, 3 RIV, 5 TEN, 6 TEN-GE, 7 TEN-CW, 8 TEN RIV',
  },
  GCUWagon: { input: boolean, description: 'Whether the wagon is operated under the GCU contract' },
  LetterMarking: { input: text(20), description: 'Letter marking (UIC 438-2), e.g. Zacns' },
  WagonNumberOfAxles: { input: integer(2, 99), description: 'Number of axles' },
  InnerWheelbase: { input: integer(1, 99999), unit: 'mm', description: 'Largest distance between adjacent axles, mm' },
  MinCurveRadius: { input: integer(1, 999), unit: 'm', description: 'Smallest curve radius, m' },
  WagonWeightEmpty: { input: integer(0, 999999), unit: 'kg', description: 'Tare weight, kg' },
  LengthOverBuffers: { input: integer(1, 999999), unit: 'cm', description: 'Length over buffers, cm' },
  MaxAxleWeight: {
    input: { type: 'decimal', min: '0.1', max: '99.9', fractionDigits: 1 },
    unit: 't',
    description: 'Maximum axle load, t, as text with at most one decimal (e.g. "22.5")',
  },
  MaxDesignSpeed: { input: integer(1, 999), unit: 'km/h', description: 'Maximum design speed, km/h' },
  NumberOfBrakes: { input: integer(1, 99), description: 'Number of air brakes (distributor valves)' },
  AirBrakeType: {
    input: code('0', '1', '2', '3', '8', '9'),
    description: 'Air brake: 0 through pipe, 1 G, 2 P, 3 G/P, 8 none, 9 non coded',
  },
  BrakingPowerVariationDevice: {
    input: code('0', '1', '2', '8', '9'),
    description:
      'Braked weight variation: 0 none, 1 one changeover weight, 2 two or three, 8 continuous, 9 non-codable',
  },
  AirBrakedMass: {
    input: integer(0, 999),
    unit: 't',
    description: 'Braked weight (empty with a variation device, maximum with a continuous one), t',
  },
  BrakeSpecialCharacteristics: {
    input: code('0', '1', '2', '3', '4', '5', '6', '9'),
    description:
      'Brake characteristics (UIC 920-13): 0 cast iron, 1 disc, 2 K, 3/4 single release, 5 L, 6 LL, 9 unknown',
  },
  HandBrakeType: {
    input: code('0', '1', '2'),
    description: 'Hand brake: 0 none, 1 ground-operated, 2 platform-operated',
  },
  MaxGrossWeight: { input: integer(0, 999999), unit: 'kg', description: 'Maximum gross weight (load plus tare), kg' },
  DateLastOverhaul: { input: date, description: 'Date of the last overhaul' },
  OverhaulValidityPeriod: { input: integer(1, 19), unit: 'years', description: 'Overhaul validity period, years' },
  PermittedTolerance: { input: integer(0, 99), unit: 'months', description: 'Permitted tolerance, months' },
} as const satisfies Record<string, TafValueDef>;

export type TafValueKey = keyof typeof TAF_VALUES;
/** The keys in schema order (the order of `missing` and of the export dialog's fields). */
export const TAF_VALUE_KEYS = Object.keys(TAF_VALUES) as TafValueKey[];

type ValueType<I> = I extends { type: 'boolean' } ? boolean : I extends { type: 'integer' } ? number : string;
/** POST export's `tafTsi`: any of the values, each checked against its TAF type. */
export type TafValues = { [K in TafValueKey]?: ValueType<(typeof TAF_VALUES)[K]['input']> };

/** EIN of an ECM certificate: country / document type / accredited or recognised body and year / counter. */
export const EIN_PATTERN = /^([A-Z]{2})\/(\d{2})\/(\d{2})(\d{2})\/(\d{4})$/;

/** The parts of an EIN the schema's `EINNumber` holds; null when the text is not one (a type or year of 00). */
export function einParts(
  text: string,
): { country: string; type: string; body: string; year: string; counter: string } | null {
  const match = EIN_PATTERN.exec(text);
  if (!match) return null;
  const [, country = '', type = '', body = '', year = '', counter = ''] = match;
  // Numeric2-2 in the schema: the document type and the year run from 01.
  if (type === '00' || year === '00') return null;
  return { country, type, body, year, counter };
}

const decimalText = (min: string, max: string, fractionDigits: number) =>
  z
    .string()
    .regex(new RegExp(`^\\d+(\\.\\d{1,${fractionDigits}})?$`), `a number with at most ${fractionDigits} decimal(s)`)
    .refine((value) => Number(value) >= Number(min) && Number(value) <= Number(max), `from ${min} to ${max}`);

function valueSchema(def: TafValueDef): z.ZodType {
  const input = def.input;
  switch (input.type) {
    case 'country':
      return z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'two letters (ISO 3166-1 alpha-2)')
        .transform((value) => value.toUpperCase());
    case 'date':
      return z.iso.date();
    case 'boolean':
      return z.boolean();
    case 'integer':
      return z.number().int().min(input.min).max(input.max);
    case 'decimal':
      return decimalText(input.min, input.max, input.fractionDigits);
    case 'text':
      return z.string().trim().min(1).max(input.maxLength);
    case 'code':
      return z.enum(input.codes as [string, ...string[]]);
    case 'ein':
      return z
        .string()
        .trim()
        .regex(EIN_PATTERN, 'CC/TT/BBYY/NNNN, e.g. DE/31/0214/0003')
        .refine((value) => einParts(value) !== null, 'the document type and the year run from 01');
  }
}

/** The check of one value, as POST export applies it (the browser checks the dialog's fields with it). */
export const tafValueSchema = (key: TafValueKey): z.ZodType => valueSchema(TAF_VALUES[key]);

/** POST export's `tafTsi`; built in a pure call, so that a bundle not using it (the browser's) leaves it out. */
export const tafValuesSchema = /* @__PURE__ */ (() =>
  z
    .object(
      Object.fromEntries(
        TAF_VALUE_KEYS.map((key) => [key, tafValueSchema(key).optional().describe(TAF_VALUES[key].description)]),
      ),
    )
    .strict() as unknown as z.ZodType<TafValues>)();
