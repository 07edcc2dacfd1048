import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  type Asset,
  type ExportType,
  type ImportValidation,
  type OrderType,
  type TafValues,
  attributeValue,
  exportTypesFor,
  formatSignOffCode,
  valueOf,
} from '@vers/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { orderValues } from '../activity/append.ts';
import { activities, assets, orders } from '../db/schema.ts';
import { XSD_FILES, orderXsd } from '../imports/xml-schema.ts';
import { MAX_XML_BYTES } from '../imports/xml-import.ts';
import { IN, OUT, WAGON_NUMBER, createWagonOrder, push, signOff, wheelsetNumbers } from '../test/orders.ts';
import {
  download as downloadAs,
  generate as generateAs,
  pdfText,
  waitForDocuments as waitFor,
  wagonReleaseEntries,
} from '../test/documents.ts';
import { type TestServer, startTestServer } from '../test/server.ts';
import { COMPLETE_TAF_VALUES } from '../test/taf.ts';

const repoRoot = new URL('../../../../', import.meta.url);
const example = (type: OrderType) =>
  readFileSync(new URL(`docs/xml/example-${type === 'WAGON' ? 'wagon' : 'wheelset'}.xml`, repoRoot), 'utf8');

let server: TestServer;
let staff: string;
let staff2: string;
let holder: string;
let werkadmin: string;

beforeAll(async () => {
  server = await startTestServer();
  [staff, staff2, holder, werkadmin] = await server.signInAll(['staff', 'staff2', 'holder', 'werkadmin']);
});
afterAll(async () => {
  await server?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function upload(text: string | Buffer, token = staff, filename = 'template.xml') {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const id = randomUUID();
  const res = await server.request<Asset>('POST', '/api/v1/assets', {
    token,
    body: { id, type: 'IMPORT', filename, base64: bytes.toString('base64'), size: bytes.length },
  });
  return { id, res };
}

/** Asks for the validation every 100 ms (the browser: every 2 s) until it is no longer IN_VALIDATION. */
async function validation(id: string, type: OrderType, token = staff): Promise<ImportValidation> {
  for (let i = 0; i < 1800; i++) {
    const res = await server.request<ImportValidation>('GET', `/api/v1/assets/validation-result/${id}/${type}`, {
      token,
    });
    expect(res.status).toBe(200);
    if (res.body.validationStatus !== 'IN_VALIDATION') return res.body;
    await sleep(100);
  }
  throw new Error(`validation of ${id} did not end`);
}

async function importFile(text: string, type: OrderType) {
  const { id, res } = await upload(text);
  expect(res.status).toBe(200);
  return { id, result: await validation(id, type) };
}

/** POST orders for a wagon order started from an imported template. */
function wagonFromTemplate(assetId: string, orderId: string = randomUUID(), wheelsets = 4) {
  return server.request<{ id: string; importedDate: string | null; assetId: string }>('POST', '/api/v1/orders', {
    token: staff,
    body: {
      id: orderId,
      type: 'WAGON',
      maintenanceNumber: WAGON_NUMBER,
      wagon: {
        assetId,
        number: WAGON_NUMBER,
        wheelsetsOutgoing: wheelsetNumbers(wheelsets).map((number) => ({ number })),
      },
    },
  });
}

describe('XML import of templates', () => {
  it('checks a wagon template in the background: its number and its wheelsets', async () => {
    const { id, res } = await upload(example('WAGON'));
    expect(res.body).toMatchObject({ id, type: 'IMPORT', status: 'AVAILABLE', orderId: null });
    const result = await validation(id, 'WAGON');
    expect(result).toMatchObject({ id, validationStatus: 'VALID', messageKey: null, number: '218124712173' });
    expect(result.subNumbers).toHaveLength(4);
    // The same file asked for as a wheelset template is the wrong order type.
    expect(await validation(id, 'WHEELSET')).toMatchObject({
      validationStatus: 'INVALID',
      messageKey: 'UNEXPECTED_ORDER_TYPE',
    });
  });

  it('checks a wheelset template', async () => {
    const { result } = await importFile(example('WHEELSET'), 'WHEELSET');
    expect(result).toMatchObject({ validationStatus: 'VALID', subNumbers: [] });
    expect(result.number).toMatch(/^\d{12}$/);
  });

  it.each([
    ['not XML at all', 'this is not xml', 'NOT_VALID_XML'],
    ['broken XML', '<Body><Wagen></Body>', 'NOT_VALID_XML'],
    [
      'a mandatory number missing',
      '<Body><Wagen><technicalWaggonIncoming><Eigengewicht>1</Eigengewicht></technicalWaggonIncoming></Wagen></Body>',
      'MISSING_MANDATORY',
    ],
    [
      'an XXE file read',
      '<?xml version="1.0"?><!DOCTYPE Body [<!ENTITY x SYSTEM "file:///etc/passwd">]><Body><Wagen><technicalWaggonIncoming><Waggonnummer>&x;</Waggonnummer></technicalWaggonIncoming></Wagen></Body>',
      'NOT_VALID_XML',
    ],
    [
      'a billion laughs',
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]><Body>&lol9;</Body>`,
      'NOT_VALID_XML',
    ],
    [
      'an undeclared entity',
      '<Body><Wagen><technicalWaggonIncoming><Waggonnummer>218124712173</Waggonnummer><Bemerkung>&x;</Bemerkung></technicalWaggonIncoming></Wagen></Body>',
      'NOT_VALID_XML',
    ],
    ['a file in another encoding', Buffer.from([0x3c, 0x42, 0xff, 0xfe, 0x3e]), 'NOT_VALID_XML'],
  ])('refuses %s with a message and stores nothing for an order', async (_, text, messageKey) => {
    const { id, res } = await upload(text);
    expect(res.status).toBe(200);
    const result = await validation(id, 'WAGON');
    expect(result).toMatchObject({ validationStatus: 'INVALID', messageKey, number: null });
    expect(result.message).toBeTruthy();
    expect(result.message).not.toContain('root:'); // nothing of /etc/passwd
  });

  it('refuses an oversized file at the upload (413) and stores nothing', async () => {
    const big = `<Body>${' '.repeat(MAX_XML_BYTES)}</Body>`;
    const { id, res } = await upload(big);
    expect(res).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await server.database.db.select().from(assets).where(eq(assets.id, id))).toEqual([]);
  });

  it("answers 404 for another workshop's import and for an unknown one", async () => {
    const { id } = await importFile(example('WAGON'), 'WAGON');
    const foreign = await server.request('GET', `/api/v1/assets/validation-result/${id}/WAGON`, { token: staff2 });
    expect(foreign.status).toBe(404);
    const unknown = await server.request('GET', `/api/v1/assets/validation-result/${randomUUID()}/WAGON`, {
      token: staff,
    });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it("starts an order with the template's incoming values; the typed numbers win", async () => {
    const { id } = await importFile(example('WAGON'), 'WAGON');
    const res = await wagonFromTemplate(id);
    expect(res.status).toBe(200);
    expect(res.body.importedDate).not.toBeNull();
    expect(res.body.assetId).toBe(id);
    const values = await orderValues(server.database.db, res.body.id);
    expect(valueOf(values[`${IN}.Eigengewicht`])).toBe('24800');
    expect(valueOf(values[`${IN}.Waggonnummer`])).toBe('218124712173');
    expect(valueOf(values[`${OUT}.Waggonnummer`])).toBe('218124712173');
    const [linked] = await server.database.db.select().from(assets).where(eq(assets.id, id));
    expect(linked?.orderId).toBe(res.body.id);
  });

  it('refuses an order whose template is invalid, unknown or of the other type, and creates nothing', async () => {
    const { id: invalid } = await importFile('<Body/>', 'WAGON');
    const { id: wheelsetTemplate } = await importFile(example('WHEELSET'), 'WHEELSET');
    for (const assetId of [invalid, wheelsetTemplate, randomUUID(), 'not-a-uuid']) {
      const orderId = randomUUID();
      const res = await wagonFromTemplate(assetId, orderId, 2);
      expect(res).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: ['body.wagon.assetId'] } });
      expect(await server.database.db.select().from(orders).where(eq(orders.id, orderId))).toEqual([]);
    }
  });
});

// --- Documents and exports ---

const waitForDocuments = (orderId: string, ids: string[]) => waitFor(server, staff, orderId, ids);
const download = (id: string, token = staff) => downloadAs(server, token, id);
const generate = (orderId: string, types: ExportType[], language = 'de', token = staff, tafTsi?: TafValues) =>
  generateAs(server, token, orderId, types, language, tafTsi);

async function wheelsetOrder(): Promise<string> {
  const { id } = await importFile(example('WHEELSET'), 'WHEELSET');
  const validationResult = await validation(id, 'WHEELSET');
  const res = await server.request<{ id: string }>('POST', '/api/v1/orders', {
    token: staff,
    body: {
      id: randomUUID(),
      type: 'WHEELSET',
      maintenanceNumber: validationResult.number ?? '',
      wheelset: { assetId: id, number: validationResult.number ?? '' },
    },
  });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('documents and exports', () => {
  it.each(['WAGON', 'WHEELSET'] as const)(
    'generates every document of a %s order in the background and serves it',
    async (type) => {
      const orderId = type === 'WAGON' ? (await createWagonOrder(server, staff)).id : await wheelsetOrder();
      // Complete for a release to service, and signed off so: a release is issued only as signed (issue 21).
      const entries =
        type === 'WAGON'
          ? [push(orderId, `${OUT}.Eigengewicht`, '23950'), ...wagonReleaseEntries(orderId)]
          : [push(orderId, '$.Body.Radsatz.technicalWheelsetOutgoing.MaintenanceLevel', 'IS2')];
      expect(
        (await server.request('POST', '/api/v1/activity/batch', { token: staff, body: { activities: entries } }))
          .status,
      ).toBe(200);
      expect(
        (await signOff(server, werkadmin, orderId, { status: 'DONE', meaning: 'RELEASED_TO_SERVICE' })).status,
      ).toBe(200);
      const types = exportTypesFor(type);
      // The TAF TSI dataset needs values no order holds (the ECM certificate, ...): given (exports.test.ts).
      const res = await generate(orderId, types, 'bg', staff, COMPLETE_TAF_VALUES);
      expect(res.status).toBe(200);
      expect(res.body.map((asset) => [asset.type, asset.status])).toEqual(types.map((t) => [t, 'IN_GENERATION']));
      const done = await waitForDocuments(
        orderId,
        res.body.map((asset) => asset.id),
      );
      const [order] = await server.database.db.select().from(orders).where(eq(orders.id, orderId));
      for (const asset of done) {
        expect(asset.status, asset.type).toBe('AVAILABLE');
        const file = await download(asset.id);
        expect(file.status).toBe(200);
        expect(file.bytes.length).toBe(asset.size);
        expect(asset.filename).toContain(order?.number);
        if (asset.filename.endsWith('.pdf')) {
          expect(file.type).toBe('application/pdf');
          expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
          expect(pdfText(file.bytes)).toContain(order?.number);
        } else {
          expect(file.type).toContain('application/xml');
          expect(file.bytes.toString('utf8')).toMatch(/^<\?xml/);
        }
      }
      if (type === 'WAGON') {
        const release = done.find((asset) => asset.type === 'RELEASE_TO_SERVICE');
        const text = pdfText((await download(release?.id ?? '')).bytes);
        expect(text).toContain('21 81 2471 217-3');
      }
    },
    120_000,
  );

  it('exports our own XML valid against the import schema, and imports it back to the same values', async () => {
    const { id } = await importFile(example('WAGON'), 'WAGON');
    const created = await wagonFromTemplate(id);
    const orderId = created.body.id;
    const res = await generate(orderId, ['XML_WORKSHOP', 'XML_KEEPER']);
    const done = await waitForDocuments(
      orderId,
      res.body.map((asset) => asset.id),
    );
    const schema = readFileSync(new URL(XSD_FILES.WAGON, repoRoot), 'utf8');
    expect(schema).toBe(orderXsd('WAGON'));
    const before = await orderValues(server.database.db, orderId);
    for (const asset of done) {
      const xml = (await download(asset.id)).bytes.toString('utf8');
      const check = await validateXML({
        xml: { fileName: 'export.xml', contents: xml },
        schema: { fileName: 'vers-wagon.xsd', contents: schema },
      });
      expect(check.errors, asset.type).toEqual([]);
      if (asset.type !== 'XML_WORKSHOP') continue;
      // Round trip: the export as a template gives the order's incoming values again.
      const { id: again } = await importFile(xml, 'WAGON');
      const copy = await wagonFromTemplate(again);
      const after = await orderValues(server.database.db, copy.body.id);
      const incoming = (values: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(values)
            .filter(([key]) => key.startsWith(IN))
            .map(([key, stored]) => [key, valueOf(stored)]),
        );
      expect(incoming(after)).toEqual(incoming(before));
      expect(Object.keys(incoming(before)).length).toBeGreaterThan(20);
    }
  });

  it('answers 400 with the JSON path of a stored value that does not fit its field', async () => {
    const orderId = (await createWagonOrder(server, staff)).id;
    const key = `${OUT}.Eigengewicht`;
    const [order] = await server.database.db.select().from(orders).where(eq(orders.id, orderId));
    // A value from before a catalogue change: written straight into the log, as no API call would take it.
    await server.database.db.insert(activities).values({
      id: randomUUID(),
      orderId,
      counter: (order?.lastCounter ?? 0) + 1,
      key,
      type: 'XML_MODIFICATION',
      outputValue: JSON.stringify(attributeValue('heavy', new Date())),
      created: new Date(),
    });
    const res = await generate(orderId, ['PREVIEW']);
    expect(res).toMatchObject({ status: 400, body: { code: 'INCOMPATIBLE_TYPE', fields: [key] } });
    expect(
      (await server.database.db.select().from(assets).where(eq(assets.orderId, orderId))).filter(
        (row) => row.type === 'PREVIEW',
      ),
    ).toEqual([]);
  });

  it('refuses what it must: foreign order 404, no order rights 403, a type the order has not 400, unknown file 404', async () => {
    const orderId = (await createWagonOrder(server, staff)).id;
    expect((await generate(orderId, ['PREVIEW'], 'de', staff2)).status).toBe(404);
    expect((await generate(orderId, ['PREVIEW'], 'de', holder)).status).toBe(403);
    expect((await generate(orderId, ['PREVIEW'], 'xx')).status).toBe(400);
    expect((await generate(orderId, [])).status).toBe(400);
    const wheelsetOrderId = await wheelsetOrder();
    expect(await generate(wheelsetOrderId, ['XML_TAF_TSI'])).toMatchObject({
      status: 400,
      body: { fields: ['body.types'] },
    });
    expect((await download(randomUUID())).status).toBe(404);
    const res = await generate(orderId, ['PREVIEW']);
    const [asset] = await waitForDocuments(orderId, [res.body[0]?.id ?? '']);
    expect((await download(asset?.id ?? '', staff2)).status).toBe(404);
  });

  it("writes numbers in the document's language, and the XML export keeps the stored '.'", async () => {
    const orderId = (await createWagonOrder(server, staff)).id;
    const load = push(orderId, `${OUT}.AllowableAxleLoad`, '22.5');
    const pushed = await server.request('POST', '/api/v1/activity/batch', {
      token: staff,
      body: { activities: [load] },
    });
    expect(pushed.status).toBe(200);
    const read = async (language: string, type: ExportType) => {
      const res = await generate(orderId, [type], language);
      expect(res.status).toBe(200);
      const [asset] = await waitForDocuments(orderId, [res.body[0]?.id ?? '']);
      expect(asset?.status).toBe('AVAILABLE');
      return (await download(asset?.id ?? '')).bytes;
    };
    const german = pdfText(await read('de', 'PREVIEW'));
    expect(german).toMatch(/\b22,5\s+t\b/);
    expect(german).not.toContain('22.5');
    const english = pdfText(await read('en', 'PREVIEW'));
    expect(english).toMatch(/\b22\.5\s+t\b/);
    expect(english).not.toContain('22,5');
    const xml = (await read('de', 'XML_WORKSHOP')).toString('utf8');
    expect(xml).toContain('<AllowableAxleLoad>22.5</AllowableAxleLoad>');
  });

  it('issues a release to service only when complete and signed, naming the contractor, ECM and signer (issue 21)', async () => {
    const orderId = (await createWagonOrder(server, staff)).id; // contractor DBC
    // Unsigned: refused, naming what the release still lacks.
    const refused = await generate(orderId, ['RELEASE_TO_SERVICE', 'PREVIEW'], 'de');
    expect(refused).toMatchObject({ status: 409, body: { code: 'RELEASE_NOT_SIGNED' } });
    expect(refused.body as unknown as { fields: string[] }).toMatchObject({
      fields: [
        `${OUT}.Labeling.ECM`,
        `${OUT}.ExecutedMaintenanceLevel`,
        `${OUT}.MobileService.MaintenancePerformedCorrectly`,
        `${OUT}.MobileService.ReleaseToServiceGranted`,
      ],
    });
    // The sign-off refuses an incomplete release with the same list, and leaves the order as it was.
    const incomplete = await signOff(server, werkadmin, orderId, { status: 'DONE', meaning: 'RELEASED_TO_SERVICE' });
    expect(incomplete).toMatchObject({ status: 409, body: { code: 'RELEASE_INCOMPLETE' } });
    const [still] = await server.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(still?.status).toBe('CREATED');
    const pushed = await server.request('POST', '/api/v1/activity/batch', {
      token: staff,
      body: { activities: wagonReleaseEntries(orderId) },
    });
    expect(pushed.status).toBe(200);
    const signed = await signOff(server, werkadmin, orderId, { status: 'DONE', meaning: 'RELEASED_TO_SERVICE' });
    expect(signed.status).toBe(200);

    const res = await generate(orderId, ['RELEASE_TO_SERVICE'], 'de');
    expect(res.status).toBe(200);
    const [asset] = await waitForDocuments(orderId, [res.body[0]?.id ?? '']);
    expect(asset?.status).toBe('AVAILABLE');
    const text = pdfText((await download(asset?.id ?? '')).bytes);
    expect(text).toContain('DB Cargo AG');
    expect(text).not.toMatch(/\bDBC\b/);
    expect(text).toMatch(/zuständige Stelle\s+ECM-DE-0815/);
    // The order names no authorised person: the signer is, with the sign-off's role and date.
    expect(text).toMatch(/Befugte Person\s+Werner Werkleiter/);
    expect(text).toMatch(/Unterzeichnet von\s+Werner Werkleiter/);
    expect(text).toMatch(/Bedeutung\s+Zum Betrieb freigegeben/);
    expect(text.replace(/\s+/g, '')).toContain(signed.body.contentHash);
    expect(text).toContain(formatSignOffCode(signed.body.code));
    expect(text).toContain(`/check/${signed.body.code}`);
  });

  it('keeps the values of the order untouched by generating', async () => {
    const orderId = (await createWagonOrder(server, staff)).id;
    const valuesBefore = await orderValues(server.database.db, orderId);
    const res = await generate(orderId, ['PREVIEW', 'XML_WORKSHOP']);
    await waitForDocuments(
      orderId,
      res.body.map((asset) => asset.id),
    );
    expect(await orderValues(server.database.db, orderId)).toEqual(valuesBefore);
  });
});
