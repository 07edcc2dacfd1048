import { readFileSync } from 'node:fs';
import { ORDER_ROOTS, attributeValue } from '@vers/domain';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { TAF_TSI_NAMESPACE, rollingStockDataset } from './rolling-stock-dataset.ts';

const SCHEMA = readFileSync(new URL('./rolling-stock-schema.xsd', import.meta.url), 'utf8');
const NOW = new Date('2025-06-02T09:30:00Z');
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

async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'rolling-stock-dataset.xml', contents: xml },
    schema: { fileName: 'rolling-stock-schema.xsd', contents: SCHEMA },
  });
  return result.valid ? [] : result.errors.map((error) => error.message);
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, attributeNamePrefix: '@_' });

type Node = Record<string, unknown>;
function parsed(xml: string): { root: Node; admin: Node; design: Node } {
  const root = (parser.parse(xml) as Node).RollingStockDataset as Node;
  return { root, admin: root.AdministrativeDataSet as Node, design: (root.DesignDataSet ?? {}) as Node };
}

describe('rollingStockDataset', () => {
  const xml = rollingStockDataset({
    wagonNumber: WAGON_NUMBER,
    values: TANK_WAGON,
    workshop: WORKSHOP,
    generatedAt: NOW,
  });

  it('builds a dataset of a realistic wagon order that the subset schema accepts', async () => {
    expect(await schemaErrors(xml)).toEqual([]);
    const { root, admin } = parsed(xml);
    expect(root['@_xmlns']).toBe(TAF_TSI_NAMESPACE);
    expect(admin).toEqual({
      WagonNumberFreight: '338078410010',
      KeeperShortNameVKM: 'D-GATX',
      // Not filled outgoing: taken from the incoming side.
      ECM: 'GATX Rail Germany GmbH',
    });
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
      BufferType: 'A',
      NormalLoadingGauge: 'G1',
      MinCurveRadius: '35',
      MinVerticalRadiusYardHump: '250',
      MaxAxleWeight: '22.5',
      MaxDesignSpeed: '120',
      DerailmentDetectionDevice: 'EDT 101',
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
    // Fitted, but whether from the ground or a platform is not recorded: no HandBrakeType.
    expect(design.HandBrake).toEqual({ HandBrakedWeight: '20.5' });
  });

  it('records the workshop and the time in a leading comment only', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!--')).toBe(true);
    expect(xml).toContain('Waggonwerk Nord (DE)');
    expect(xml).toContain('2025-06-02T09:30:00.000Z');
  });

  it('escapes text: a keeper marking with & and < stays text and valid', async () => {
    const values = valuesOf(
      out({
        Halterkurzkennzeichen: 'A&B<C>"',
        // A control character cannot be written in XML 1.0 at all: dropped.
        'Labeling.ECM': 'Müller & Söhne <ECM>\u0007 GmbH',
        'Labeling.Gattungszeichen': "Zans'",
      }),
    );
    const escaped = rollingStockDataset({
      wagonNumber: '338078410010',
      values,
      workshop: { name: 'Werk -- <Süd> & Co-', countryCode: 'AT' },
      generatedAt: NOW,
    });
    expect(escaped).toContain('<KeeperShortNameVKM>A&amp;B&lt;C&gt;&quot;</KeeperShortNameVKM>');
    expect(escaped).not.toContain('<C>');
    expect(await schemaErrors(escaped)).toEqual([]);
    const { admin, design } = parsed(escaped);
    expect(admin.KeeperShortNameVKM).toBe('A&B<C>"');
    expect(admin.ECM).toBe('Müller & Söhne <ECM> GmbH');
    expect(design.LetterMarking).toBe("Zans'");
  });

  it('still yields valid XML for an order with few values', async () => {
    const few = rollingStockDataset({
      wagonNumber: '338078410010',
      values: valuesOf(incoming({ Waggonnummer: '338078410010', Eigengewicht: '23900' })),
      workshop: WORKSHOP,
      generatedAt: NOW,
    });
    expect(await schemaErrors(few)).toEqual([]);
    const { admin, design } = parsed(few);
    expect(admin).toEqual({ WagonNumberFreight: '338078410010' });
    expect(design).toEqual({ WagonWeightEmpty: '23900' });

    const none = rollingStockDataset({ wagonNumber: '338078410010', values: {}, workshop: WORKSHOP, generatedAt: NOW });
    expect(await schemaErrors(none)).toEqual([]);
    expect(none).toContain('<DesignDataSet/>');
  });

  it('leaves out values the TAF types cannot hold instead of writing invalid XML', async () => {
    const xmlOut = rollingStockDataset({
      wagonNumber: '338078410010',
      values: valuesOf(
        out({
          Halterkurzkennzeichen: 'TOO-LONG-MARKING',
          AllowableAxleLoad: '125.0',
          'Labeling.Begrenzungsprofil': 'DE3',
          'Labeling.Hoechstgeschwindigkeit': 'S',
          'Understructure.Brake.Bremsstellung': 'R',
          'Understructure.Brake.Lastabbremsung': 'HAND',
          'Understructure.Brake.Umstellgewicht': '31.5',
          'Understructure.Brake.BremsgewichtBeladen': '50.0',
          'Understructure.Brake.HandBrake.Vorhanden': false,
          'LoadLimitGrid.Klapptafel': true,
          'LoadLimitGrid.A100': '40.0',
        }),
      ),
      workshop: WORKSHOP,
      generatedAt: NOW,
    });
    expect(await schemaErrors(xmlOut)).toEqual([]);
    const { admin, design } = parsed(xmlOut);
    expect(admin.KeeperShortNameVKM).toBeUndefined();
    expect(design).toEqual({
      AirBrake: { BrakingPowerVariationDevice: '1' },
      HandBrake: { HandBrakeType: '0' },
    });
  });

  it('is checked by a schema that has teeth: wrong values, order or namespace fail', async () => {
    expect(await schemaErrors(xml.replace('<WagonWeightEmpty>24800<', '<WagonWeightEmpty>24.8 t<'))).not.toEqual([]);
    const swapped = xml.replace(
      /(<WagonWeightEmpty>24800<\/WagonWeightEmpty>)(\s*)(<LengthOverBuffers>1994<\/LengthOverBuffers>)/,
      '$3$2$1',
    );
    expect(swapped).not.toBe(xml);
    expect(await schemaErrors(swapped)).not.toEqual([]);
    expect(await schemaErrors(xml.replace(` xmlns="${TAF_TSI_NAMESPACE}"`, ''))).not.toEqual([]);
  });

  it('refuses a wagon number that is not 12 digits', () => {
    expect(() =>
      rollingStockDataset({ wagonNumber: '33 80 7841 001', values: {}, workshop: WORKSHOP, generatedAt: NOW }),
    ).toThrow(RangeError);
  });
});
