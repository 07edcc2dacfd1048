import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type Asset,
  type ErrorBody,
  type ExportType,
  type OrderType,
  TAF_VALUE_KEYS,
  type TafValues,
  attributeValue,
} from '@vers/domain';
import { eq } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assets, orders, workshops } from '../db/schema.ts';
import { XSD_FILES, orderXsd } from '../imports/xml-schema.ts';
import { OUT, createWagonOrder, push } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';
import { COMPLETE_TAF_VALUES } from '../test/taf.ts';
import { xmllintErrors } from '../test/xmllint.ts';
import { eraSchemaPath } from './taf-tsi/official-schema.ts';
import { TAF_TSI_NAMESPACE } from './taf-tsi/rolling-stock-dataset.ts';
import { orderXml } from './xml-export.ts';

/**
 * The keeper's exports (issue 21): our own XML with its header, checked with xmllint against docs/xml/vers-*.xsd, and
 * the TAF TSI RollingStockDataset, complete and checked with xmllint against ERA's official schema; the values it
 * needs and the order lacks come with the request, or the export is refused with the list of what is missing.
 */

const repoRoot = new URL('../../../../', import.meta.url);
const schemaFile = (type: OrderType) => fileURLToPath(new URL(XSD_FILES[type], repoRoot));
const ERA_SCHEMA = eraSchemaPath();

let server: TestServer;
let staff: string;

beforeAll(async () => {
  server = await startTestServer();
  staff = await server.signIn('staff');
});
afterAll(async () => {
  await server?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function generate(orderId: string, types: ExportType[], tafTsi?: unknown) {
  return server.request<Asset[] & ErrorBody>('POST', `/api/v1/export/${orderId}/de`, {
    token: staff,
    body: { types, ...(tafTsi === undefined ? {} : { tafTsi }) },
  });
}

/** Asks for the order's documents until the named ones are no longer IN_GENERATION. */
async function finished(orderId: string, ids: string[]): Promise<Asset[]> {
  for (;;) {
    const res = await server.request<Asset[]>('GET', `/api/v1/assets/order/${orderId}`, { token: staff });
    const mine = res.body.filter((asset) => ids.includes(asset.id));
    if (mine.length === ids.length && mine.every((asset) => asset.status !== 'IN_GENERATION')) return mine;
    await sleep(100);
  }
}

/** Generates one document and answers its text once it is AVAILABLE. */
async function exported(orderId: string, type: ExportType, tafTsi?: TafValues): Promise<string> {
  const res = await generate(orderId, [type], tafTsi);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [asset] = await finished(orderId, [res.body[0]?.id ?? '']);
  expect(asset?.status).toBe('AVAILABLE');
  const response = await fetch(`${server.url}/api/v1/assets/download/${asset?.id}`, {
    headers: { authorization: `Bearer ${staff}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

async function pushValues(orderId: string, values: Record<string, string | boolean>) {
  const activities = Object.entries(values).map(([key, value]) => push(orderId, key, value));
  const res = await server.request('POST', '/api/v1/activity/batch', { token: staff, body: { activities } });
  expect(res.status).toBe(200);
}

async function documentRows(orderId: string) {
  return server.database.db.select().from(assets).where(eq(assets.orderId, orderId));
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, attributeNamePrefix: '@_' });
type Node = Record<string, unknown>;

describe('our own XML export', () => {
  it("begins the keeper's and the workshop's export with the sender, the order number and the time, valid with xmllint", async () => {
    const order = await createWagonOrder(server, staff);
    await pushValues(order.id, { [`${OUT}.Eigengewicht`]: '23950', [`${OUT}.Halterkurzkennzeichen`]: 'D-GATX' });
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, order.id));
    const [workshop] = await server.database.db
      .select()
      .from(workshops)
      .where(eq(workshops.id, row?.workshopId ?? -1));
    expect(workshop?.revNr).not.toBe('');
    // The committed schema is the generated one, header included.
    expect(readFileSync(schemaFile('WAGON'), 'utf8')).toBe(orderXsd('WAGON'));

    for (const type of ['XML_KEEPER', 'XML_WORKSHOP'] as const) {
      const before = Date.now();
      const xml = await exported(order.id, type);
      expect(xmllintErrors(xml, schemaFile('WAGON')), type).toEqual([]);
      const body = (parser.parse(xml) as Node).Body as Node;
      expect(Object.keys(body)).toEqual(['Header', 'Wagen']);
      const header = body.Header as Node;
      expect(header).toEqual({
        Sender: {
          Name: workshop?.name,
          CountryCode: workshop?.countryCode,
          RevNr: workshop?.revNr,
          SiteId: workshop?.siteId,
        },
        OrderNumber: order.number,
        Generated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      // Made by the job after the request: ISO, UTC, not before the request.
      expect(Date.parse(header.Generated as string)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      const wagon = body.Wagen as Node;
      const outgoing = wagon.technicalWaggonOutgoing as Node;
      expect(outgoing.Eigengewicht).toBe('23950');
      // The keeper's file holds the outgoing side; the incoming section keeps only the number the schema requires.
      if (type === 'XML_KEEPER') expect(Object.keys(wagon.technicalWaggonIncoming as Node)).toEqual(['Waggonnummer']);
    }
  });

  it('writes a header that the schema checks: texts escaped, a missing sender or a time without offset refused', () => {
    const header = {
      sender: { name: 'Werk <Süd> & Co', countryCode: 'at', revNr: '', siteId: ' AT-LZ-02 ' },
      orderNumber: '2026-000042',
      generatedAt: new Date('2026-03-18T10:48:58Z'),
    };
    const values = {
      [`$.Body.Radsatz.technicalWheelsetIncoming.Wheelsetnumber`]: attributeValue('318001234513', new Date()),
    };
    const xml = orderXml('WHEELSET', 'XML_KEEPER', values, '318001234513', header);
    expect(xmllintErrors(xml, schemaFile('WHEELSET'))).toEqual([]);
    expect(xml).toContain('<Name>Werk &lt;Süd&gt; &amp; Co</Name>');
    const sender = ((parser.parse(xml) as Node).Body as Node).Header as Node;
    // An empty REV number is left out, not written empty; the country as its code.
    expect(sender).toEqual({
      Sender: { Name: 'Werk <Süd> & Co', CountryCode: 'AT', SiteId: 'AT-LZ-02' },
      OrderNumber: '2026-000042',
      Generated: '2026-03-18T10:48:58.000Z',
    });
    expect(xmllintErrors(xml.replace(/<Sender>[\s\S]*<\/Sender>/, ''), schemaFile('WHEELSET'))).not.toEqual([]);
    expect(xmllintErrors(xml.replace('10:48:58.000Z', '10:48:58'), schemaFile('WHEELSET'))).not.toEqual([]);
    expect(xmllintErrors(xml.replace('<CountryCode>AT<', '<CountryCode>Austria<'), schemaFile('WHEELSET'))).not.toEqual(
      [],
    );
  });
});

describe('TAF TSI export', () => {
  it('refuses an order that lacks required values with 409 and the list of what is missing, and starts nothing', async () => {
    const order = await createWagonOrder(server, staff);
    await pushValues(order.id, { [`${OUT}.Eigengewicht`]: '23950', [`${OUT}.Labeling.ECM`]: 'GATX Rail Germany GmbH' });
    const res = await generate(order.id, ['PREVIEW', 'XML_TAF_TSI']);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EXPORT_INCOMPLETE');
    // The order has its tare weight and ECM, nothing else the schema requires; no suspension is known, so no date.
    const notAsked = new Set([
      'WagonWeightEmpty',
      'ECM',
      'DateSuspensionOfAuthorisation',
      'DateECMCertificateSuspended',
    ]);
    expect(res.body.missing).toEqual(TAF_VALUE_KEYS.filter((key) => !notAsked.has(key)));
    expect(res.body.message).toContain('RegistrationCountry');
    // Neither document was started.
    expect(await documentRows(order.id)).toEqual([]);

    // Some given: the list shrinks by exactly those.
    const some: TafValues = { RegistrationCountry: 'de', DatePutIntoService: '2009-03-17', GCUWagon: true };
    const again = await generate(order.id, ['XML_TAF_TSI'], some);
    expect(again.status).toBe(409);
    expect(again.body.missing).toEqual(res.body.missing?.filter((key) => !(key in some)));
    // A suspension given without its date: the date is asked for.
    const suspended = await generate(order.id, ['XML_TAF_TSI'], {
      ...COMPLETE_TAF_VALUES,
      ECMCertificateSuspended: true,
    });
    expect(suspended).toMatchObject({ status: 409, body: { missing: ['DateECMCertificateSuspended'] } });
    expect(await documentRows(order.id)).toEqual([]);
  });

  it('uses the given values where the order has none, and its own where it has them; the result is valid against the official schema', async () => {
    const order = await createWagonOrder(server, staff);
    await pushValues(order.id, {
      [`${OUT}.Eigengewicht`]: '23950',
      [`${OUT}.Halterkurzkennzeichen`]: 'D-VTG',
      [`${OUT}.Labeling.LaengeUeberPuffer`]: '16.52',
      [`${OUT}.Understructure.Brake.HandBrake.Vorhanden`]: false,
    });
    const given: TafValues = {
      ...COMPLETE_TAF_VALUES,
      RegistrationCountry: 'at',
      ECMCertificateNumber: 'AT/31/0719/0012',
    };
    const xml = await exported(order.id, 'XML_TAF_TSI', given);
    expect(xmllintErrors(xml, ERA_SCHEMA)).toEqual([]);

    const root = (parser.parse(xml) as Node).RollingStockDataset as Node;
    expect(root['@_xmlns']).toBe(TAF_TSI_NAMESPACE);
    const admin = root.AdministrativeDataSet as Node;
    const design = root.DesignDataSet as Node;
    expect(admin).toMatchObject({
      WagonNumberFreight: '218124712173',
      // Given in lower case, written as the code.
      RegistrationCountry: 'AT',
      DatePutIntoService: '2009-03-17',
      // The order's keeper marking wins over the given D-GATX.
      KeeperShortNameVKM: 'D-VTG',
      ECM: 'GATX Rail Germany GmbH',
      ECMCertificate: {
        EINNumber: {
          CountryCodeISO: 'AT',
          TypeDocumentEIN: '31',
          CounterAcreditedRecognizedBody: '07',
          EINYear: '19',
          EINCounter: '0012',
        },
        ECMCertificateValidTo: '2028-12-31',
      },
      InteropCapability: '8',
      GCUWagon: 'true',
    });
    expect(design).toMatchObject({
      LetterMarking: 'Zacns',
      // The order's: 23950 kg, 16.52 m → 1652 cm, no hand brake; not the given 24800, 1994 and type 2.
      WagonWeightEmpty: '23950',
      LengthOverBuffers: '1652',
      HandBrake: { HandBrakeType: '0' },
      MaxGrossWeight: '90000',
      AirBrake: { NumberOfBrakes: '1', AirBrakeType: '3', AirBrakedMass: '28' },
      DateLastOverhaul: '2025-05-28',
    });
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(xml).toContain(`Order: ${row?.number}.`);
  });

  it('refuses given values that do not fit their TAF type with 400 and their paths', async () => {
    const order = await createWagonOrder(server, staff);
    for (const [key, value] of [
      ['RegistrationCountry', 'DEU'],
      ['ECMCertificateNumber', 'DE-31-0214-0003'],
      ['ECMCertificateNumber', 'DE/31/0200/0003'],
      ['MaxAxleWeight', '22.55'],
      ['WagonNumberOfAxles', 1],
      ['AirBrakeType', '4'],
      ['DatePutIntoService', '2009-02-30'],
      ['KeeperShortNameVKM', 'TOO-LONG-MARKING'],
      ['GCUWagon', 'yes'],
      ['NoSuchValue', 'x'],
    ] as const) {
      const res = await generate(order.id, ['XML_TAF_TSI'], { ...COMPLETE_TAF_VALUES, [key]: value });
      expect(res.status, `${key}: ${value}`).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
      expect(res.body.fields?.[0], key).toMatch(/^body\.tafTsi/);
    }
    expect(await documentRows(order.id)).toEqual([]);
  });

  it('documents the values and the 409 in the OpenAPI description', async () => {
    const docs = await server.request<{
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: Node }> }; responses: Node } }>;
    }>('GET', '/api/docs/json');
    const operation = docs.body.paths['/api/v1/export/{orderId}/{language}']?.post;
    expect(Object.keys(operation?.responses ?? {})).toContain('409');
    const body = operation?.requestBody.content['application/json']?.schema as Node;
    const tafTsi = (body.properties as Record<string, Node>).tafTsi as Node;
    expect(Object.keys(tafTsi.properties as Node)).toEqual(TAF_VALUE_KEYS);
    expect(tafTsi.additionalProperties).toBe(false);
    expect(((tafTsi.properties as Record<string, Node>).ECMCertificateNumber as Node).pattern).toBeDefined();
  });

  it('checks `tafTsi` in any request, and asks nothing for the other documents', async () => {
    const order = await createWagonOrder(server, staff);
    const res = await generate(order.id, ['XML_KEEPER'], { NoSuchValue: 1 });
    // Unknown keys are refused even when the TAF export is not asked for: the request is checked as a whole.
    expect(res.status).toBe(400);
    const plain = await generate(order.id, ['XML_KEEPER']);
    expect(plain.status).toBe(200);
    expect(plain.body.map((asset) => asset.type)).toEqual(['XML_KEEPER']);
    await finished(order.id, [plain.body[0]?.id ?? '']);
  });
});
