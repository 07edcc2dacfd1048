import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Asset, type ErrorBody, type ExportType, type OrderType, attributeValue } from '@vers/domain';
import { eq } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, workshops } from '../db/schema.ts';
import { XSD_FILES, orderXsd } from '../imports/xml-schema.ts';
import { OUT, createWagonOrder, push } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';
import { xmllintErrors } from '../test/xmllint.ts';
import { orderXml } from './xml-export.ts';

/** The keeper's exports (issue 21): our own XML with its header, checked with xmllint against docs/xml/vers-*.xsd. */

const repoRoot = new URL('../../../../', import.meta.url);
const schemaFile = (type: OrderType) => fileURLToPath(new URL(XSD_FILES[type], repoRoot));

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

function generate(orderId: string, types: ExportType[]) {
  return server.request<Asset[] & ErrorBody>('POST', `/api/v1/export/${orderId}/de`, { token: staff, body: { types } });
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
async function exported(orderId: string, type: ExportType): Promise<string> {
  const res = await generate(orderId, [type]);
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
