import { ORDER_ROOTS, TAF_VALUE_KEYS, type TafValues, attributeValue } from '@vers/domain';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { xmllintErrors } from '../../test/xmllint.ts';
import { eraSchemaPath } from './official-schema.ts';
import {
  IncompleteDatasetError,
  TAF_TSI_NAMESPACE,
  type RollingStockDatasetInput,
  missingTafValues,
  rollingStockDataset,
} from './rolling-stock-dataset.ts';

/** ERA's taf_cat_complete.xsd 3.5.2, unchanged (checked by hash before use). */
const SCHEMA = eraSchemaPath();
const NOW = new Date('2025-06-02T09:30:00Z');
const ORDER_NUMBER = '2025-000042';
const WORKSHOP = { name: 'Waggonwerk Nord', countryCode: 'DE' };
/** 33 80 7841 001-0: a bogie tank wagon (check digit 0). */
const WAGON_NUMBER = '33 80 7841 001-0';

const OUT = ORDER_ROOTS.WAGON.out;
const IN = ORDER_ROOTS.WAGON.in;

/** A values map as the order stores it: result key → attribute value. */
function valuesOf(fields: Record<string, string | boolean>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, attributeValue(value, NOW)]));
}

const out = (fields: Record<string, string | boolean>) =>
  Object.fromEntries(Object.entries(fields).map(([path, value]) => [`${OUT}.${path}`, value]));
const incoming = (fields: Record<string, string | boolean>) =>
  Object.fromEntries(Object.entries(fields).map(([path, value]) => [`${IN}.${path}`, value]));

const wheelsets = (count: number): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const wheelset = `Understructure.WheelsetCollection.Wheelset[${i}]`;
    fields[`${wheelset}.Position`] = String(i + 1);
    fields[`${wheelset}.Type`] = 'BA 004';
    fields[`${wheelset}.Wheels.Wheel[0].Side`] = 'L';
    fields[`${wheelset}.Wheels.Wheel[0].LaufkreisdurchmesserNeu`] = '920';
    fields[`${wheelset}.Wheels.Wheel[0].Laufkreisdurchmesser`] = '887';
    fields[`${wheelset}.Wheels.Wheel[1].Side`] = 'R';
    fields[`${wheelset}.Wheels.Wheel[1].LaufkreisdurchmesserNeu`] = '920';
    fields[`${wheelset}.Wheels.Wheel[1].Laufkreisdurchmesser`] = '886';
  }
  return fields;
};

/** A four-axle tank wagon leaving the workshop after a G4.8 overhaul. */
const TANK_WAGON = valuesOf({
  ...incoming({
    Waggonnummer: '338078410010',
    Eigengewicht: '24500',
    'Labeling.ECM': 'GATX Rail Germany GmbH',
    'LoadLimitGrid.Lastgrenzenrastertyp': 'A-B1-B2-C2-C3-C4-D2-D3-D4',
  }),
  ...out({
    Waggonnummer: '338078410010',
    Halterkurzkennzeichen: 'D-GATX',
    OverhaulDate: '2025-05-28',
    Eigengewicht: '24800',
    AnzahlAchsen: '4',
    AnzahlDrehgestelle: '2',
    AllowableAxleLoad: '22.5',
    TemperaturbereichgemaessTSI: 'T1',
    'Understructure.BogieCollection.Bogie[0].PositionDrehgestell': '1',
    'Understructure.BogieCollection.Bogie[0].Achsabstand': '1800',
    'Understructure.BogieCollection.Bogie[1].PositionDrehgestell': '2',
    'Understructure.BogieCollection.Bogie[1].Achsabstand': '1800',
    ...wheelsets(4),
    'Labeling.Gattungszeichen': 'Zacns',
    'Labeling.Begrenzungsprofil': 'G1',
    'Labeling.Hoechstgeschwindigkeit': '120',
    'Labeling.Faehrbootfaehigkeit': false,
    'Labeling.LaengeUeberPuffer': '19.94',
    'Labeling.Drehzapfenabstand': '14.27',
    'Labeling.KleinsterBefahrbarerBogenhalbmesser': '35',
    'Labeling.KleinsterBefahrbarerAusrundungshalbmesser': '250',
    'Revision.Revisionszyklus': '6',
    'Revision.Revisionsfristverlaengerung': '3',
    'LoadLimitGrid.Sterne': '**',
    'LoadLimitGrid.A100': '43.0',
    'LoadLimitGrid.B1100': '51.0',
    'LoadLimitGrid.B2100': '51.0',
    'LoadLimitGrid.C2100': '59.0',
    'LoadLimitGrid.C3100': '59.0',
    'LoadLimitGrid.C4100': '59.0',
    'LoadLimitGrid.D4100': '65.2',
    'LoadLimitGrid.A120': '43.0',
    'LoadLimitGrid.B1120': '49.5',
    'LoadLimitGrid.B2120': '49.5',
    'LoadLimitGrid.C2120': '57.0',
    'LoadLimitGrid.C3120': '57.0',
    'LoadLimitGrid.C4120': '57.0',
    'Understructure.Brake.Bremsbauart': 'KE-GP-A',
    'Understructure.Brake.Bremsstellung': 'GP',
    'Understructure.Brake.Lastabbremsung': 'AUTO',
    'Understructure.Brake.BremsgewichtLeer': '28.0',
    'Understructure.Brake.BremsgewichtBeladen': '58.6',
    'Understructure.Brake.Umstellgewicht': '32.0',
    'Understructure.Brake.Handbremsgewicht': '20.5',
    'Understructure.Brake.Scheibenbremse': false,
    'Understructure.Brake.BrakeBlockShoeCollection.BrakeBlockShoe[0].PositionBremssohle': '1',
    'Understructure.Brake.BrakeBlockShoeCollection.BrakeBlockShoe[0].Bremssohlenbauart': 'LL',
    'Understructure.Brake.BrakeBlockShoeCollection.BrakeBlockShoe[1].PositionBremssohle': '2',
    'Understructure.Brake.BrakeBlockShoeCollection.BrakeBlockShoe[1].Bremssohlenbauart': 'LL',
    'Understructure.Brake.DistributorValveCollection.DistributorValve[0].PositionSteuerventil': '1',
    'Understructure.Brake.HandBrake.Vorhanden': true,
    'Understructure.Brake.DerailmentDetector.Vorhanden': true,
    'Understructure.Brake.DerailmentDetectorCollection.DerailmentDetector[0].PositionEntgleisungsdetektor': '1',
    'Understructure.Brake.DerailmentDetectorCollection.DerailmentDetector[0].Bauart': 'EDT101',
    'Understructure.DrawAndBuffingGear.BufferCollection.Buffer[0].Pufferposition': '1L',
    'Understructure.DrawAndBuffingGear.BufferCollection.Buffer[0].Pufferkategorie': 'A',
    'Understructure.DrawAndBuffingGear.BufferCollection.Buffer[1].Pufferposition': '1R',
    'Understructure.DrawAndBuffingGear.BufferCollection.Buffer[1].Pufferkategorie': 'A',
    'Tank.Tankcodierung': 'L4BH',
    'Tank.TestCollection.TankTest[0].Tankpruefungsart': 'P',
    'Tank.TestCollection.TankTest[0].NaechstePruefung': '2031-05',
    'Tank.TestCollection.TankTest[1].Tankpruefungsart': 'L',
    'Tank.TestCollection.TankTest[1].NaechstePruefung': '2028-02',
  }),
});

/**
 * What the keeper gives for the tank wagon beside its order: everything the official schema requires that a wagon
 * order does not record (the ECM certificate, the authorisation, ...), and the bogie wagon's inner wheelbase.
 */
const GIVEN: TafValues = {
  RegistrationCountry: 'DE',
  DatePutIntoService: '2009-03-17',
  SuspensionOfAuthorisation: false,
  ECMCertificateNumber: 'DE/31/0214/0003',
  ECMCertificateValidFrom: '2024-01-01',
  ECMCertificateValidTo: '2028-12-31',
  CoversTankWagonsForDangerousGoods: true,
  CoversNonTankWagonsForDangerousGoods: false,
  ECMCertificateSuspended: false,
  InteropCapability: '8',
  GCUWagon: true,
  InnerWheelbase: 12470,
  HandBrakeType: '2',
  MaxGrossWeight: 90000,
};

/** The dataset's input for values and given values, the rest as the tests' order and workshop. */
const input = (values: Record<string, unknown>, given: TafValues = {}): RollingStockDatasetInput => ({
  wagonNumber: WAGON_NUMBER,
  values,
  given,
  orderNumber: ORDER_NUMBER,
  workshop: WORKSHOP,
  generatedAt: NOW,
});

/** xmllint against the official schema. */
const schemaErrors = (xml: string): string[] => xmllintErrors(xml, SCHEMA);

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, attributeNamePrefix: '@_' });

type Node = Record<string, unknown>;
function parsed(xml: string): { root: Node; admin: Node; design: Node } {
  const root = (parser.parse(xml) as Node).RollingStockDataset as Node;
  return { root, admin: root.AdministrativeDataSet as Node, design: (root.DesignDataSet ?? {}) as Node };
}

describe('rollingStockDataset', () => {
  const xml = rollingStockDataset(input(TANK_WAGON, GIVEN));

  it('builds a complete dataset of a realistic wagon order that the official ERA schema accepts', () => {
    expect(schemaErrors(xml)).toEqual([]);
    const { root, admin } = parsed(xml);
    expect(root['@_xmlns']).toBe(TAF_TSI_NAMESPACE);
    expect(admin).toEqual({
      WagonNumberFreight: '338078410010',
      RegistrationCountry: 'DE',
      DatePutIntoService: '2009-03-17',
      SuspensionOfAuthorisation: 'false',
      KeeperShortNameVKM: 'D-GATX',
      // Not filled outgoing: taken from the incoming side.
      ECM: 'GATX Rail Germany GmbH',
      ECMCertificate: {
        // DE/31/0214/0003 as the schema splits it.
        EINNumber: {
          CountryCodeISO: 'DE',
          TypeDocumentEIN: '31',
          CounterAcreditedRecognizedBody: '02',
          EINYear: '14',
          EINCounter: '0003',
        },
        ECMCertificateValidFrom: '2024-01-01',
        ECMCertificateValidTo: '2028-12-31',
        CoversTankWagonsForDangerousGoods: 'true',
        CoversNonTankWagonsForDangerousGoods: 'false',
        ECMCertificateSuspended: 'false',
      },
      InteropCapability: '8',
      GCUWagon: 'true',
    });
    expect(Object.keys(admin)).toEqual([
      'WagonNumberFreight',
      'RegistrationCountry',
      'DatePutIntoService',
      'SuspensionOfAuthorisation',
      'KeeperShortNameVKM',
      'ECM',
      'ECMCertificate',
      'InteropCapability',
      'GCUWagon',
    ]);
  });

  it('writes the design data in TAF units and in schema order', () => {
    const { design } = parsed(xml);
    expect(Object.keys(design)).toEqual([
      'LetterMarking',
      'TankCode',
      'WagonNumberOfAxles',
      'WheelSetType',
      'WheelDiameter',
      'NumberOfBogies',
      'BogiePitch',
      'BogiePivotPitch',
      'InnerWheelbase',
      'BufferType',
      'NormalLoadingGauge',
      'MinCurveRadius',
      'MinVerticalRadiusYardHump',
      'WagonWeightEmpty',
      'LengthOverBuffers',
      'MaxAxleWeight',
      'LoadTable',
      'MaxDesignSpeed',
      'AirBrake',
      'HandBrake',
      'DerailmentDetectionDevice',
      'MaxGrossWeight',
      'FerryPermittedFlag',
      'TemperatureRange',
      'DateLastOverhaul',
      'OverhaulValidityPeriod',
      'PermittedTolerance',
      'DateOfNextTankInspection',
    ]);
    expect(design).toMatchObject({
      LetterMarking: 'Zacns',
      TankCode: 'L4BH',
      WagonNumberOfAxles: '4',
      WheelSetType: 'BA 004',
      WheelDiameter: '920',
      NumberOfBogies: '2',
      BogiePitch: '1800',
      // A bogie wagon's inner wheelbase is not in the order: the given one.
      InnerWheelbase: '12470',
      BufferType: 'A',
      NormalLoadingGauge: 'G1',
      MinCurveRadius: '35',
      MinVerticalRadiusYardHump: '250',
      MaxAxleWeight: '22.5',
      MaxDesignSpeed: '120',
      DerailmentDetectionDevice: 'EDT 101',
      MaxGrossWeight: '90000',
      FerryPermittedFlag: 'false',
      TemperatureRange: { MaxTemp: '40', MinTemp: '-25' },
      DateLastOverhaul: '2025-05-28',
      OverhaulValidityPeriod: '6',
      PermittedTolerance: '3',
      // The earlier of the two tank tests, as the last day of its month (a leap year).
      DateOfNextTankInspection: '2028-02-29',
    });
  });

  it('keeps kg in kg and converts metres to cm and mm exactly', () => {
    const { design } = parsed(xml);
    // Eigengewicht is catalogued in kg, the outgoing value wins over the incoming 24500.
    expect(design.WagonWeightEmpty).toBe('24800');
    // 19.94 m: binary floating point gives 1994.0000000000002 cm; the decimal shift gives 1994.
    expect(19.94 * 100).not.toBe(1994);
    expect(design.LengthOverBuffers).toBe('1994');
    expect(design.BogiePivotPitch).toBe('14270');
    expect(xml).not.toMatch(/\d\.\d{6,}/);
  });

  it('writes the load table, air brake and hand brake', () => {
    const { design } = parsed(xml);
    expect(design.LoadTable).toEqual({
      SpeedCategory: ['100', '120'],
      LoadTableStars: '2',
      // D4 has no payload at 120 km/h, so it cannot fill both speed columns and is left out.
      RouteClassPayloads: [
        { RouteClass: 'A', MaxPayload: ['43.0', '43.0'] },
        { RouteClass: 'B1', MaxPayload: ['51.0', '49.5'] },
        { RouteClass: 'B2', MaxPayload: ['51.0', '49.5'] },
        { RouteClass: 'C2', MaxPayload: ['59.0', '57.0'] },
        { RouteClass: 'C3', MaxPayload: ['59.0', '57.0'] },
        { RouteClass: 'C4', MaxPayload: ['59.0', '57.0'] },
      ],
    });
    expect(design.AirBrake).toEqual({
      NumberOfBrakes: '1',
      BrakeSystem: 'KE-GP-A',
      AirBrakeType: '3',
      BrakingPowerVariationDevice: '1',
      AirBrakedMass: '28',
      // 58.6 t rounded down: the lower braked mass is the safe side.
      LoadChangeDevice: { ChangeOverWeight: '32', AirBrakedMassLoaded: '58' },
      BrakeSpecialCharacteristics: '6',
    });
    // Fitted; the order does not say whether from the ground or a platform: the given type. The 3.5.2 schema has no
    // element for the hand-braked weight any more.
    expect(design.HandBrake).toEqual({ HandBrakeType: '2' });
    expect(xml).not.toContain('HandBrakedWeight');
  });

  it('records the workshop, the order and the time in a leading comment only', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!--')).toBe(true);
    expect(xml).toContain('Waggonwerk Nord (DE)');
    expect(xml).toContain(`Order: ${ORDER_NUMBER}.`);
    expect(xml).toContain('2025-06-02T09:30:00.000Z');
  });

  it('escapes text: a keeper marking with & and < stays text and valid', () => {
    const values = valuesOf({
      ...out({
        Halterkurzkennzeichen: 'A&B<C>"',
        // A control character cannot be written in XML 1.0 at all: dropped.
        'Labeling.ECM': 'Müller & Söhne <ECM>\u0007 GmbH',
        'Labeling.Gattungszeichen': "Zans'",
      }),
    });
    const escaped = rollingStockDataset({
      ...input({ ...TANK_WAGON, ...values }, GIVEN),
      workshop: { name: 'Werk -- <Süd> & Co-', countryCode: 'AT' },
    });
    expect(escaped).toContain('<KeeperShortNameVKM>A&amp;B&lt;C&gt;&quot;</KeeperShortNameVKM>');
    expect(escaped).not.toContain('<C>');
    expect(schemaErrors(escaped)).toEqual([]);
    const { admin, design } = parsed(escaped);
    expect(admin.KeeperShortNameVKM).toBe('A&B<C>"');
    expect(admin.ECM).toBe('Müller & Söhne <ECM> GmbH');
    expect(design.LetterMarking).toBe("Zans'");
  });

  it('names, in schema order, every required value an order with few values lacks, and makes no dataset', () => {
    const few = input(valuesOf(incoming({ Waggonnummer: '338078410010', Eigengewicht: '23900' })));
    const missing = missingTafValues(few);
    // Everything required except the wagon number and the tare weight, which the order has; the dates of a suspension
    // only once a suspension is known.
    expect(missing).toEqual(
      TAF_VALUE_KEYS.filter(
        (key) =>
          key !== 'WagonWeightEmpty' &&
          key !== 'DateSuspensionOfAuthorisation' &&
          key !== 'DateECMCertificateSuspended',
      ),
    );
    expect(() => rollingStockDataset(few)).toThrow(IncompleteDatasetError);
    try {
      rollingStockDataset(few);
    } catch (error) {
      expect((error as IncompleteDatasetError).missing).toEqual(missing);
    }
  });

  it('fills what the order lacks from the given values, and the result is valid', () => {
    const values = valuesOf(incoming({ Waggonnummer: '338078410010', Eigengewicht: '23900' }));
    const everything: TafValues = {
      ...GIVEN,
      KeeperShortNameVKM: 'D-VTG',
      ECM: 'VTG Rail Europe GmbH',
      LetterMarking: 'Eanos',
      WagonNumberOfAxles: 4,
      MinCurveRadius: 35,
      // Given as well, but the order has the tare weight: the order's wins.
      WagonWeightEmpty: 99999,
      LengthOverBuffers: 1574,
      MaxAxleWeight: '22.5',
      MaxDesignSpeed: 100,
      NumberOfBrakes: 1,
      AirBrakeType: '3',
      BrakingPowerVariationDevice: '1',
      AirBrakedMass: 27,
      BrakeSpecialCharacteristics: '6',
      DateLastOverhaul: '2024-11-05',
      OverhaulValidityPeriod: 6,
      PermittedTolerance: 3,
    };
    expect(missingTafValues(input(values, everything))).toEqual([]);
    const complete = rollingStockDataset(input(values, everything));
    expect(schemaErrors(complete)).toEqual([]);
    const { admin, design } = parsed(complete);
    expect(admin).toMatchObject({
      KeeperShortNameVKM: 'D-VTG',
      ECM: 'VTG Rail Europe GmbH',
      RegistrationCountry: 'DE',
    });
    expect(design).toMatchObject({
      LetterMarking: 'Eanos',
      WagonWeightEmpty: '23900',
      LengthOverBuffers: '1574',
      MaxAxleWeight: '22.5',
      AirBrake: {
        NumberOfBrakes: '1',
        AirBrakeType: '3',
        BrakingPowerVariationDevice: '1',
        AirBrakedMass: '27',
        BrakeSpecialCharacteristics: '6',
      },
      HandBrake: { HandBrakeType: '2' },
      MaxGrossWeight: '90000',
      DateLastOverhaul: '2024-11-05',
    });
  });

  it('takes the order over a given value, and asks when the order says nothing usable', () => {
    const given: TafValues = { ...GIVEN, ECM: 'Another ECM', KeeperShortNameVKM: 'D-XYZ', HandBrakeType: '1' };
    const { admin, design } = parsed(rollingStockDataset(input(TANK_WAGON, given)));
    expect(admin.ECM).toBe('GATX Rail Germany GmbH');
    expect(admin.KeeperShortNameVKM).toBe('D-GATX');
    expect(design.HandBrake).toEqual({ HandBrakeType: '1' });
    // No hand brake, as the order says: 0, whatever is given.
    const without = valuesOf({ ...out({ 'Understructure.Brake.HandBrake.Vorhanden': false }) });
    expect(parsed(rollingStockDataset(input({ ...TANK_WAGON, ...without }, given))).design.HandBrake).toEqual({
      HandBrakeType: '0',
    });
    // A two-axle wagon's wheelbase is in the order; a bogie wagon's is asked.
    const twoAxle = valuesOf(out({ AnzahlAchsen: '2', 'Understructure.BaseBogie.Achsabstand': '9000' }));
    const { InnerWheelbase: _, ...withoutWheelbase } = GIVEN;
    expect(missingTafValues(input({ ...TANK_WAGON, ...twoAxle }, withoutWheelbase))).toEqual([]);
    expect(
      parsed(rollingStockDataset(input({ ...TANK_WAGON, ...twoAxle }, withoutWheelbase))).design.InnerWheelbase,
    ).toBe('9000');
    expect(missingTafValues(input(TANK_WAGON, withoutWheelbase))).toEqual(['InnerWheelbase']);
  });

  it('asks for the date of a suspension once a suspension is given', () => {
    const suspended: TafValues = { ...GIVEN, SuspensionOfAuthorisation: true, ECMCertificateSuspended: true };
    expect(missingTafValues(input(TANK_WAGON, suspended))).toEqual([
      'DateSuspensionOfAuthorisation',
      'DateECMCertificateSuspended',
    ]);
    const dated = rollingStockDataset(
      input(TANK_WAGON, {
        ...suspended,
        DateSuspensionOfAuthorisation: '2025-04-01',
        DateECMCertificateSuspended: '2025-03-15',
      }),
    );
    expect(schemaErrors(dated)).toEqual([]);
    const { admin } = parsed(dated);
    expect(admin).toMatchObject({
      SuspensionOfAuthorisation: 'true',
      DateSuspensionOfAuthorisation: '2025-04-01',
      ECMCertificate: { ECMCertificateSuspended: 'true', DateECMCertificateSuspended: '2025-03-15' },
    });
    // Not suspended: a date given anyway is not written.
    const notSuspended = rollingStockDataset(
      input(TANK_WAGON, { ...GIVEN, DateSuspensionOfAuthorisation: '2025-04-01' }),
    );
    expect(notSuspended).not.toContain('DateSuspensionOfAuthorisation');
  });

  it('asks for required values the TAF types cannot hold, and leaves out optional ones, instead of writing invalid XML', () => {
    const values = {
      ...TANK_WAGON,
      ...valuesOf(
        out({
          Halterkurzkennzeichen: 'TOO-LONG-MARKING',
          AllowableAxleLoad: '125.0',
          'Labeling.Begrenzungsprofil': 'DE3',
          'Labeling.Hoechstgeschwindigkeit': 'S',
          'Understructure.Brake.Bremsstellung': 'R',
          'LoadLimitGrid.Klapptafel': true,
        }),
      ),
    };
    expect(missingTafValues(input(values, GIVEN))).toEqual([
      'KeeperShortNameVKM',
      'MaxAxleWeight',
      'MaxDesignSpeed',
      'AirBrakeType',
    ]);
    const answered = rollingStockDataset(
      input(values, {
        ...GIVEN,
        KeeperShortNameVKM: 'D-GATX',
        MaxAxleWeight: '22.5',
        MaxDesignSpeed: 100,
        AirBrakeType: '9',
      }),
    );
    expect(schemaErrors(answered)).toEqual([]);
    const { design } = parsed(answered);
    expect(design.NormalLoadingGauge).toBeUndefined();
    expect(design.LoadTable).toBeUndefined();
    expect(design).toMatchObject({ MaxAxleWeight: '22.5', MaxDesignSpeed: '100' });
  });

  it('is checked by the official schema, which has teeth: wrong values, order, namespace or a missing element fail', () => {
    expect(schemaErrors(xml.replace('<WagonWeightEmpty>24800<', '<WagonWeightEmpty>24.8 t<'))).not.toEqual([]);
    const swapped = xml.replace(
      /(<WagonWeightEmpty>24800<\/WagonWeightEmpty>)(\s*)(<LengthOverBuffers>1994<\/LengthOverBuffers>)/,
      '$3$2$1',
    );
    expect(swapped).not.toBe(xml);
    expect(schemaErrors(swapped)).not.toEqual([]);
    expect(schemaErrors(xml.replace(` xmlns="${TAF_TSI_NAMESPACE}"`, ''))).not.toEqual([]);
    const withoutGross = xml.replace(/\s*<MaxGrossWeight>90000<\/MaxGrossWeight>/, '');
    expect(withoutGross).not.toBe(xml);
    expect(schemaErrors(withoutGross).join('\n')).toContain('MaxGrossWeight');
    expect(schemaErrors(xml.replace('<RegistrationCountry>DE<', '<RegistrationCountry>DEU<'))).not.toEqual([]);
  });

  it('refuses a wagon number that is not 12 digits', () => {
    expect(() => rollingStockDataset({ ...input(TANK_WAGON, GIVEN), wagonNumber: '33 80 7841 001' })).toThrow(
      RangeError,
    );
  });
});
